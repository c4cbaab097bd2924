import type { Locator, Page } from 'playwright-core';

/** Versions of messages as a user meets them (English UI): Edit on a question, ‹ k/n › under it, Regenerate on an answer. */
export class VersionsPage {
  constructor(readonly page: Page) {}

  editButton(question: Locator): Locator {
    return question.getByRole('button', { name: 'Edit', exact: true });
  }

  editField(question: Locator): Locator {
    return question.getByRole('textbox', { name: 'Edit your message' });
  }

  sendEditButton(question: Locator): Locator {
    return question.getByRole('button', { name: 'Send edit' });
  }

  /** The ‹ k/n › group of a message, named "Version k of n". */
  switcher(message: Locator): Locator {
    return message.getByRole('group', { name: /^Version \d+ of \d+$/ });
  }

  previous(message: Locator): Locator {
    return message.getByRole('button', { name: 'Previous version' });
  }

  next(message: Locator): Locator {
    return message.getByRole('button', { name: 'Next version' });
  }

  regenerateButton(answer: Locator): Locator {
    return answer.getByRole('button', { name: 'Regenerate' });
  }

  /** Whether keyboard focus is on this control (after a switch the message holding it is a new one). */
  hasFocus(control: Locator): Promise<boolean> {
    return control.evaluate((el) => el === document.activeElement);
  }

  /** Keyboard only: focus the control, press Enter (what Tab then Enter does, without counting tab stops). */
  async activate(control: Locator): Promise<void> {
    await control.focus();
    await this.page.keyboard.press('Enter');
  }
}
