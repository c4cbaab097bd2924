import type { Locator, Page } from 'playwright-core';

/** The thread header's model picker and instructions, and an answer's "what the model saw" view (English UI). */
export class ThreadToolsPage {
  readonly modelPicker: Locator;
  readonly instructionsButton: Locator;
  readonly instructionsDialog: Locator;
  readonly instructionsField: Locator;
  readonly contextDialog: Locator;
  readonly modelMissing: Locator;

  constructor(readonly page: Page) {
    this.modelPicker = page.getByRole('combobox', { name: 'Model for this thread' });
    this.instructionsButton = page.getByRole('button', { name: /^Instructions/ });
    this.instructionsDialog = page.getByRole('dialog', { name: 'Instructions for this thread' });
    this.instructionsField = this.instructionsDialog.getByRole('textbox', { name: 'How should Mnemo answer in this thread?' });
    this.contextDialog = page.getByRole('dialog', { name: /What the model saw|模型看到的内容/ });
    this.modelMissing = page.getByRole('alert').filter({ hasText: 'is no longer installed' });
  }

  /** Opens the context view of an answer from its own button. */
  async openContext(answer: Locator): Promise<void> {
    await answer.getByRole('button', { name: /^Context|^上下文/ }).click();
  }

  /** A row of the context table by the start of its part's name: [part, tokens, budget]. */
  async contextRow(part: RegExp): Promise<string[]> {
    const row = this.contextDialog.getByRole('row').filter({ has: this.page.getByRole('rowheader', { name: part }) });
    return (await row.locator('th, td').allTextContents()).map((s) => s.trim());
  }
}
