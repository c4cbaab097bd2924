import type { Locator, Page } from 'playwright-core';

/** The memory view as a user sees it (English UI): tabs, search and filters, the list, the detail pane, dialogs. */
export class MemoriesPage {
  readonly navButton: Locator;
  readonly view: Locator;
  readonly search: Locator;
  readonly sort: Locator;
  readonly list: Locator;
  readonly rows: Locator;
  readonly listStatus: Locator;
  readonly detail: Locator;
  readonly bulkBar: Locator;
  readonly semanticNotice: Locator;
  readonly reviewList: Locator;
  readonly toasts: Locator;

  constructor(readonly page: Page) {
    this.navButton = page.getByRole('navigation', { name: 'Threads' }).getByRole('button', { name: /^Memories/ });
    this.view = page.getByRole('region', { name: 'Memories' });
    this.search = page.getByRole('searchbox', { name: 'Search memories' });
    this.sort = page.getByLabel('Sort');
    this.list = page.getByRole('list', { name: /^(Memories|Trash)$/ });
    this.rows = this.list.getByRole('listitem');
    this.listStatus = page.locator('.list-status');
    this.detail = page.getByRole('complementary', { name: /^Memory/ });
    this.bulkBar = page.getByRole('toolbar', { name: 'Selected memories' });
    this.semanticNotice = page.getByRole('region', { name: 'Semantic search' });
    this.reviewList = page.getByRole('list', { name: 'Memories waiting for review' });
    this.toasts = page.getByRole('region', { name: 'Notifications' });
  }

  /** What has keyboard focus, as a user would name it: 'body' when nothing does, else the element's label or text. */
  focused(): Promise<string> {
    return this.page.evaluate(() => {
      const el = document.activeElement;
      if (!el || el === document.body) return 'body';
      return (el.getAttribute('aria-label') ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
    });
  }

  async open(): Promise<void> {
    if ((await this.navButton.getAttribute('aria-current')) !== 'page') await this.navButton.click();
  }

  tab(name: 'All memories' | 'Review inbox' | 'Trash' | 'About you' | 'Episodes' | 'Active work'): Locator {
    return this.page.getByRole('tab', { name: new RegExp(`^${name}`) });
  }

  row(text: string | RegExp): Locator {
    return this.rows.filter({ hasText: text });
  }

  /** The button that opens a row in the detail pane. */
  rowButton(text: string | RegExp): Locator {
    return this.row(text).getByRole('button');
  }

  rowCheckbox(text: string | RegExp): Locator {
    return this.row(text).getByRole('checkbox');
  }

  async openMemory(text: string | RegExp): Promise<void> {
    await this.rowButton(text).click();
  }

  category(name: 'Knowledge' | 'Preference' | 'Project' | 'Skill'): Locator {
    return this.page.getByRole('group', { name: 'Filters' }).getByRole('checkbox', { name });
  }

  filter(label: string): Locator {
    return this.page.getByRole('group', { name: 'Filters' }).getByLabel(label, { exact: true });
  }

  /** A button of the detail pane, by its visible name. */
  detailButton(name: string | RegExp): Locator {
    return this.detail.getByRole('button', { name });
  }

  get contentField(): Locator {
    return this.detail.getByRole('textbox', { name: 'What Mnemo remembers' });
  }

  get history(): Locator {
    return this.detail.getByRole('region', { name: /^History/ });
  }

  dialog(name: string | RegExp): Locator {
    return this.page.getByRole('dialog', { name });
  }

  confirmation(name: string | RegExp): Locator {
    return this.page.getByRole('alertdialog', { name });
  }

  reviewCard(text: string | RegExp): Locator {
    return this.reviewList.getByRole('listitem').filter({ hasText: text });
  }
}
