import type { Locator } from 'playwright-core';

/** The words of the forget notice, in the UI's language (renderer/src/locales: forget.*). */
export const FORGET_WORDS = {
  en: { region: 'Forgotten on request', undo: 'Undo', forgetSelected: 'Forget selected', restored: 'Restored: Mnemo remembers it again.' },
  'zh-CN': { region: '按你的要求忘记', undo: '撤销', forgetSelected: '忘记所选', restored: '已恢复：Mnemo 重新记住了它。' },
} as const;

/** Under an answer: what a request to forget did (ForgetNotices.tsx): what was forgotten with Undo, or the picker. */
export class ForgetNoticePage {
  readonly region: Locator;
  readonly undo: Locator;
  readonly forgetSelected: Locator;
  readonly restored: Locator;

  constructor(
    answer: Locator,
    readonly words: (typeof FORGET_WORDS)[keyof typeof FORGET_WORDS] = FORGET_WORDS.en,
  ) {
    this.region = answer.getByRole('region', { name: words.region });
    this.undo = this.region.getByRole('button', { name: words.undo });
    this.forgetSelected = this.region.getByRole('button', { name: words.forgetSelected });
    this.restored = this.region.getByText(words.restored);
  }

  /** The checkbox of a candidate, by the memory's text. */
  candidate(text: string): Locator {
    return this.region.getByRole('checkbox', { name: text });
  }
}
