import type { Locator, Page } from 'playwright-core';

/** The settings view (English UI unless a test switches language). */
export class SettingsPage {
  readonly openButton: Locator;
  readonly heading: Locator;
  readonly back: Locator;
  readonly language: Locator;
  readonly save: Locator;
  readonly dataFolder: Locator;
  readonly budgetTotal: Locator;
  /** The list of backups (absent until there is one). */
  readonly backups: Locator;
  /** The model server: its type, the OpenAI-compatible base URL, its API key, and the line saying how it answers. */
  readonly ollamaServer: Locator;
  readonly openAiServer: Locator;
  readonly baseUrl: Locator;
  readonly ollamaHost: Locator;
  readonly apiKey: Locator;
  readonly saveApiKey: Locator;
  readonly forgetApiKey: Locator;
  readonly serverLine: Locator;
  /** Settings › Connected apps, and its list of apps (absent until an app has used the memory). */
  readonly connectedApps: Locator;
  readonly apps: Locator;

  constructor(readonly page: Page) {
    this.openButton = page.getByRole('navigation').getByRole('button', { name: /^Settings/ });
    this.heading = page.getByRole('heading', { level: 2, name: 'Settings' });
    this.back = page.getByRole('button', { name: 'Back to chat' });
    this.language = page.getByLabel('Language', { exact: true });
    this.save = page.getByRole('button', { name: 'Save changes' });
    this.dataFolder = page.getByRole('textbox', { name: 'Data folder' });
    this.budgetTotal = page.locator('.budget-total');
    this.backups = page.getByRole('list', { name: 'Backups' });
    const servers = page.getByRole('group', { name: 'Server type' });
    this.ollamaServer = servers.getByRole('radio', { name: /^Ollama/ });
    this.openAiServer = servers.getByRole('radio', { name: /^OpenAI-compatible/ });
    this.baseUrl = page.getByRole('textbox', { name: 'Server address (base URL)' });
    this.ollamaHost = page.getByRole('textbox', { name: 'Ollama host' });
    this.apiKey = page.getByLabel('API key (optional)', { exact: true });
    this.saveApiKey = page.getByRole('button', { name: /^(Save|Replace) key$/ });
    this.forgetApiKey = page.getByRole('button', { name: 'Forget key' });
    this.connectedApps = page.getByRole('region', { name: 'Connected apps' });
    this.apps = this.connectedApps.getByRole('list', { name: 'Apps that use your memory' });
    this.serverLine = page.locator('.field-note').filter({ has: page.getByRole('button', { name: /^Check again|^Checking/ }) });
  }

  /** The checkbox that lets requests go to a model server at `address` ("scheme://host:port") on another machine. */
  remoteConfirmation(address: string): Locator {
    return this.page.getByRole('checkbox', { name: `Send my conversations and memories to ${address}` });
  }

  /** The button that confirms a model server on another machine found in use (OLLAMA_HOST), here or on the first screen. */
  sendTo(address: string): Locator {
    return this.page.getByRole('button', { name: `Send to ${address}` });
  }

  /** Settings › When Mnemo learns: one of its three schedules, by the name it starts with. */
  learningSchedule(name: 'While I chat' | 'Only when I’m away' | 'Paused'): Locator {
    return this.page.getByRole('group', { name: 'Background model work' }).getByRole('radio', { name: new RegExp(`^${name}`) });
  }

  /** One app's row in Settings › Connected apps. */
  app(name: string): Locator {
    return this.apps.getByRole('listitem').filter({ has: this.page.getByText(name, { exact: true }) });
  }

  /** What an app may do: its Read, Write or Off radio. */
  appAccess(name: string, access: 'Read' | 'Write' | 'Off'): Locator {
    return this.connectedApps.getByRole('group', { name: `What ${name} may do` }).getByRole('radio', { name: access, exact: true });
  }

  field(label: string): Locator {
    return this.page.getByLabel(label, { exact: true });
  }

  theme(name: 'Light' | 'Dark' | 'Same as the system'): Locator {
    return this.page.getByRole('radio', { name });
  }

  async setNumber(label: string, value: string): Promise<void> {
    await this.field(label).fill(value);
  }
}
