import type { Locator, Page } from 'playwright-core';

/** The chat as a user sees it (English UI): thread sidebar, model setup, messages, composer, search, summary. */
export class ChatPage {
  readonly sidebar: Locator;
  readonly threads: Locator;
  readonly newThreadButton: Locator;
  readonly newIncognitoButton: Locator;
  readonly composer: Locator;
  readonly sendButton: Locator;
  readonly stopButton: Locator;
  readonly messages: Locator;
  readonly answers: Locator;
  readonly questions: Locator;
  readonly threadHeading: Locator;
  readonly threadHeader: Locator;
  readonly statusBar: Locator;
  readonly toasts: Locator;
  readonly searchDialog: Locator;
  readonly searchBox: Locator;
  readonly searchOptions: Locator;
  readonly summaryButton: Locator;
  readonly summaryPanel: Locator;
  readonly welcomeHeading: Locator;

  constructor(readonly page: Page) {
    this.sidebar = page.getByRole('navigation', { name: 'Threads' });
    this.threads = this.sidebar.getByRole('listitem');
    this.newThreadButton = page.getByRole('button', { name: 'New thread', exact: true });
    this.newIncognitoButton = page.getByRole('button', { name: 'New incognito thread' });
    this.composer = page.getByRole('textbox', { name: 'Message' });
    this.sendButton = page.getByRole('button', { name: 'Send', exact: true });
    this.stopButton = page.getByRole('button', { name: 'Stop', exact: true });
    this.messages = page.getByRole('log', { name: 'Messages' });
    this.answers = this.messages.getByRole('article', { name: 'Mnemo' });
    this.questions = this.messages.getByRole('article', { name: 'You' });
    this.threadHeading = page.getByRole('region', { name: 'Chat' }).getByRole('heading', { level: 2 }).first();
    this.threadHeader = page.locator('header.thread-header');
    this.statusBar = page.getByRole('contentinfo', { name: /^(Status|状态)$/ });
    this.toasts = page.getByRole('region', { name: 'Notifications' });
    this.searchDialog = page.getByRole('dialog', { name: 'Search threads' });
    this.searchBox = this.searchDialog.getByRole('combobox', { name: 'Search threads and messages' });
    this.searchOptions = this.searchDialog.getByRole('option');
    this.summaryButton = page.getByRole('button', { name: /^Summary/ });
    this.summaryPanel = page.getByRole('complementary', { name: 'Thread summary' });
    this.welcomeHeading = page.getByRole('heading', { name: 'What shall we talk about?' });
  }

  async open(url: string): Promise<void> {
    await this.page.goto(url);
  }

  /** The model setup card (onboarding or a banner in a thread), named by its heading. */
  setup(heading: string | RegExp): Locator {
    return this.page.getByRole('region', { name: heading });
  }

  thread(title: string | RegExp): Locator {
    return this.threads.filter({ has: this.page.getByRole('button', { name: title }) });
  }

  lastAnswer(): Locator {
    return this.answers.last();
  }

  /** A new thread, the question typed and sent in it; its answer (as it streams in). */
  /**
   * Starts a new thread as a user does and waits until it is the one shown. thread.create answers after the click, and
   * what is typed before then goes to the previous thread's draft: on a loaded machine the next send() typed there.
   */
  async newThread(): Promise<void> {
    await this.newThreadButton.click();
    await this.messages.getByRole('article').first().waitFor({ state: 'detached' });
  }

  async askInNewThread(text: string): Promise<Locator> {
    await this.newThread();
    await this.send(text);
    return this.lastAnswer();
  }

  /** Types like a person (Enter sends); lines after the first are started with Shift+Enter. */
  async send(text: string): Promise<void> {
    await this.composer.click();
    const [first, ...rest] = text.split('\n');
    await this.composer.pressSequentially(first ?? '');
    for (const line of rest) {
      await this.composer.press('Shift+Enter');
      await this.composer.pressSequentially(line);
    }
    await this.composer.press('Enter');
  }

  async shortcut(keys: string): Promise<void> {
    await this.page.keyboard.press(keys);
  }
}
