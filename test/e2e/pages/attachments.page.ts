import type { Locator, Page } from 'playwright-core';

/** Attached files as a user sees them (English UI): the attach button, the chips above the composer, refusals. */
export class AttachmentsPage {
  readonly attachButton: Locator;
  readonly chips: Locator;
  readonly refusals: Locator;

  constructor(readonly page: Page) {
    this.attachButton = page.getByRole('button', { name: 'Attach a file' });
    this.chips = page.getByRole('list', { name: /^Attached files go only to your model server/ }).getByRole('listitem');
    this.refusals = page.locator('.attachment-refusals[role="alert"]');
  }

  /** Picks files through the attach button's file chooser, as a user does. */
  async pick(files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.attachButton.click();
    await (await chooser).setFiles(files);
  }

  /** Drops a file onto the composer, the way a file dragged from the desktop arrives (a DataTransfer of Files). */
  async drop(name: string, content: string | Uint8Array, type = 'text/plain'): Promise<void> {
    const transfer = await this.page.evaluateHandle(
      ([n, c, ty]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([typeof c === 'string' ? c : new Uint8Array(c)], n, { type: ty }));
        return dt;
      },
      [name, typeof content === 'string' ? content : [...content], type] as const,
    );
    const form = this.page.locator('form.composer');
    await form.dispatchEvent('dragover', { dataTransfer: transfer });
    await form.dispatchEvent('drop', { dataTransfer: transfer });
  }

  /** The "Learn from this file" checkbox of an attached file's chip. */
  learnBox(name: string): Locator {
    return this.chips.filter({ hasText: name }).getByRole('checkbox', { name: 'Learn from this file' });
  }

  removeButton(name: string): Locator {
    return this.page.getByRole('button', { name: `Remove ${name}` });
  }

  /** A sent message's file, folded: its summary names the file and its size. */
  sentFile(message: Locator, name: string): Locator {
    return message.locator('details').filter({ hasText: name });
  }
}
