/**
 * Numbers, sizes, durations and times as people read them, in the UI language. Intl formatters are built once per
 * language and options and kept: building one costs far more than using it, and a list renders dozens per frame.
 */
import { isoDate, dayOf } from '../../../shared/calendar-day';
import type { Language } from '../i18n/i18n';
import { currentTimeZone } from '../settings/settings.store';

const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat | Intl.ListFormat>();

function cached<F extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat | Intl.ListFormat>(key: string, make: () => F): F {
  let f = formatters.get(key) as F | undefined;
  if (!f) {
    f = make();
    formatters.set(key, f);
  }
  return f;
}

const numberFormat = (language: string, options: Intl.NumberFormatOptions) =>
  cached(`n|${language}|${JSON.stringify(options)}`, () => new Intl.NumberFormat(language, options));

/** Dates and times show in the user's time zone (settings, else the machine's), the zone the core counts days in. */
export const dateFormat = (language: string, options: Intl.DateTimeFormatOptions) => {
  const zoned = { timeZone: currentTimeZone(), ...options };
  return cached(`d|${language}|${JSON.stringify(zoned)}`, () => new Intl.DateTimeFormat(language, zoned));
};

const relativeFormat = (language: string) => cached(`r|${language}`, () => new Intl.RelativeTimeFormat(language, { numeric: 'auto' }));

/** "a, b and c" / "a、b和c": items joined as the language lists them. */
export function formatList(items: readonly string[], language: Language): string {
  return cached(`l|${language}`, () => new Intl.ListFormat(language, { type: 'conjunction' })).format(items);
}

export function formatBytes(bytes: number, language: Language): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${numberFormat(language, { maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0 }).format(value)} ${units[unit]}`;
}

export function formatDuration(ms: number, language: Language): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${numberFormat(language, { maximumFractionDigits: seconds < 10 ? 1 : 0 }).format(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

export function formatNumber(value: number, language: Language, maximumFractionDigits = 2): string {
  return numberFormat(language, { maximumFractionDigits }).format(value);
}

/** "5 minutes ago", "yesterday", or a date for anything older than a week. */
export function formatRelativeTime(timestamp: number, now: number, language: Language): string {
  const diffSeconds = Math.round((timestamp - now) / 1000);
  const abs = Math.abs(diffSeconds);
  const rtf = relativeFormat(language);
  if (abs < 45) return rtf.format(0, 'second');
  if (abs < 3600) return rtf.format(Math.round(diffSeconds / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(diffSeconds / 3600), 'hour');
  if (abs < 7 * 86_400) return rtf.format(Math.round(diffSeconds / 86_400), 'day');
  return dateFormat(language, { dateStyle: 'medium' }).format(timestamp);
}

export function formatTime(timestamp: number, language: Language): string {
  return dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(timestamp);
}

/** Both instants fall on the same day in the user's zone. */
export function isSameDay(a: number, b: number): boolean {
  const zone = currentTimeZone();
  return isoDate(dayOf(a, zone)) === isoDate(dayOf(b, zone));
}

/** "10:02" on the day it is now in the user's zone, "Nov 27, 2026, 10:02 AM" on any other day. */
export function formatTimeOfDay(timestamp: number, now: number, language: Language): string {
  return isSameDay(timestamp, now) ? dateFormat(language, { timeStyle: 'short' }).format(timestamp) : formatTime(timestamp, language);
}

/**
 * From one time to another, what is shared written once: "Nov 24, 2026, 10:00 – 11:00 AM" within a day, both dates
 * when the days differ (Intl's formatRange, as each language writes a range).
 */
export function formatTimeRange(from: number, to: number, language: Language): string {
  return dateFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).formatRange(from, Math.max(from, to));
}
