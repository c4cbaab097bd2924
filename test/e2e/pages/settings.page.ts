import type { Locator, Page } from 'playwright-core';

/** The settings view (English UI unless a test switches language). */
export class SettingsPage {
  readonly openButton: Locator;
  readonly heading: Locator;
  readonly language: Locator;
  readonly save: Locator;
  readonly dataFolder: Locator;
  readonly budgetTotal: Locator;
  /** The list of backups (absent until there is one). */
  readonly backups: Locator;

  constructor(readonly page: Page) {
    this.openButton = page.getByRole('navigation').getByRole('button', { name: /^Settings/ });
    this.heading = page.getByRole('heading', { level: 2, name: 'Settings' });
    this.language = page.getByLabel('Language');
    this.save = page.getByRole('button', { name: 'Save changes' });
    this.dataFolder = page.getByRole('textbox', { name: 'Data folder' });
    this.budgetTotal = page.locator('.budget-total');
    this.backups = page.getByRole('list', { name: 'Backups' });
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
