/**
 * A memory's fields as a form holds them (the editor, adding one by hand, a review candidate edited before approval):
 * when a draft can be saved, its expiry as the end of a local day, importance in words.
 */
import type { MemoryCategory } from '../../../shared/contract';
import { isDay } from '../format/day-text';
import { formatNumber } from '../format/format';
import { localDayStart, nextLocalDay, toDateInput } from '../format/local-day';
import type { Language } from '../i18n/i18n';
import type { Translate } from '../i18n/use-t';

export interface MemoryDraft {
  content: string;
  category: MemoryCategory;
  importance: number;
  pinned: boolean;
  /** yyyy-mm-dd, '' for never, or the text typed so far while it is not a day yet (DayField). */
  expires: string;
}

export const MAX_CONTENT = 4000;

export function draftOf(m: { content: string; category: MemoryCategory; importance: number; pinned: boolean; expiresAt: number | null }): MemoryDraft {
  return { content: m.content, category: m.category, importance: m.importance, pinned: m.pinned, expires: m.expiresAt === null ? '' : toDateInput(m.expiresAt) };
}

/** Whether the draft can be saved: some content within the cap, and never or a real day for the expiry. */
export function draftReady(draft: MemoryDraft, maxContent = MAX_CONTENT): boolean {
  return draft.content.trim() !== '' && draft.content.length <= maxContent && (draft.expires === '' || isDay(draft.expires));
}

/** The end of the chosen day (the memory still holds on it), or null for never. */
export function expiresAtOf(expires: string): number | null {
  const day = localDayStart(expires);
  return day === undefined ? null : nextLocalDay(day) - 1;
}

/** Importance in words (issue 30 walk: "Importance 0.5" meant nothing); the number stays in a tooltip and for screen readers. */
function importanceLevel(importance: number): 'low' | 'medium' | 'high' {
  return importance < 0.35 ? 'low' : importance < 0.7 ? 'medium' : 'high';
}

/**
 * Importance as every screen shows it (the list, the editor, the review inbox; the 2026-11-28 walk found "0.8" in one
 * and "high" in another): the word, and the exact number for a tooltip or a screen reader's value text.
 */
export function importanceText(importance: number, t: Translate, language: Language): { word: string; exact: string } {
  return { word: t(`memory.importanceLevel.${importanceLevel(importance)}`), exact: formatNumber(importance, language, 2) };
}
