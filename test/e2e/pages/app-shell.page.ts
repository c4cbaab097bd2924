import type { Locator, Page } from 'playwright-core';

/** The app shell as a user sees it: header, thread sidebar, chat area, status bar. */
export class AppShellPage {
  readonly heading: Locator;
  readonly newThreadButton: Locator;
  readonly threadList: Locator;
  readonly statusBar: Locator;
  readonly alert: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { level: 1, name: 'Mnemo' });
    this.newThreadButton = page.getByRole('button', { name: 'New thread', exact: true });
    this.threadList = page.getByRole('navigation', { name: 'Threads' }).getByRole('listitem');
    this.statusBar = page.getByRole('contentinfo', { name: /^(Status|状态)$/ });
    this.alert = page.getByRole('alert');
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
  }

  /** The icon the browser tab shows: the address the page's icon link names, null without one. */
  tabIconUrl(): Promise<string | null> {
    return this.page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? null);
  }

  async startThread(): Promise<void> {
    await this.newThreadButton.click();
  }
}
