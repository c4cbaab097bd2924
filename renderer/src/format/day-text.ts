/**
 * A day written as the app's language writes it, not the browser's: Chromium's date input follows the browser's
 * locale, so a Chinese UI on an English browser asked for mm/dd/yyyy (issue 30's walk). The order and separators come
 * from Intl for the UI language (en: 12/31/2026, zh-CN: 2026/12/31); the placeholder's letters from the catalog.
 * Reading is forgiving: any separators (2026-12-31, 2026年12月31日, full-width digits), and a day that starts with
 * a four-digit year is read year first in every language. Whatever is read must be a real day (no 02/30).
 * Values in and out are yyyy-mm-dd, the form the queries and the editor keep.
 */
import type { Language } from '../i18n/i18n';
import { localDayStart } from './local-day';

type Part = 'year' | 'month' | 'day';

const layouts = new Map<Language, { order: Part[]; separator: string }>();

/** The UI language's numeric day: the order of its parts and the separator between them. */
function layout(language: Language): { order: Part[]; separator: string } {
  let found = layouts.get(language);
  if (!found) {
    const parts = new Intl.DateTimeFormat(language, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' }).formatToParts(Date.UTC(2026, 11, 31));
    const order = parts.filter((p): p is Intl.DateTimeFormatPart & { type: Part } => p.type === 'year' || p.type === 'month' || p.type === 'day').map((p) => p.type);
    found = { order, separator: parts.find((p) => p.type === 'literal')?.value ?? '/' };
    layouts.set(language, found);
  }
  return found;
}

/** yyyy-mm-dd as the language writes it ("12/31/2026", "2026/12/31"); anything else is returned as it is. */
export function formatDayText(iso: string, language: Language): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!m) return iso;
  const value: Record<Part, string> = { year: m[1]!, month: m[2]!, day: m[3]! };
  const { order, separator } = layout(language);
  return order.map((p) => value[p]).join(separator);
}

/** The format to show as a placeholder and in a message, from the catalog's letters ("mm/dd/yyyy", "年/月/日"). */
export function dayTextFormat(language: Language, letters: Record<Part, string>): string {
  const { order, separator } = layout(language);
  return order.map((p) => letters[p]).join(separator);
}

/** The day the user wrote, as yyyy-mm-dd; null when it is not one real day from 1970 on. */
export function parseDayText(text: string, language: Language): string | null {
  const groups = text.normalize('NFKC').match(/\d+/g);
  if (!groups || groups.length !== 3) return null;
  const order: Part[] = groups[0]!.length === 4 ? ['year', 'month', 'day'] : layout(language).order;
  const value = Object.fromEntries(order.map((p, i) => [p, groups[i]!])) as Record<Part, string>;
  if (value.year.length !== 4 || value.month.length > 2 || value.day.length > 2) return null;
  const iso = `${value.year}-${value.month.padStart(2, '0')}-${value.day.padStart(2, '0')}`;
  return isDay(iso) ? iso : null;
}

/** Whether a value kept by a form is a day (yyyy-mm-dd of a real day), not text still being typed. */
export function isDay(value: string): boolean {
  return localDayStart(value) !== undefined;
}
