/**
 * A date input's yyyy-mm-dd and the user's local days: local means the user's time zone (settings, else the
 * machine's: currentTimeZone), the days the core counts in. "From" is a day's start; "to" includes the whole day.
 */
import { addDays, dayOf, isoDate, startOfDay } from '../../../shared/calendar-day';
import { currentTimeZone } from '../settings/settings.store';

/** Start of a local day from a date input's value (yyyy-mm-dd), or undefined when empty or invalid. */
export function localDayStart(value: string, timeZone = currentTimeZone()): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const day = { y: Number(m[1]), m: Number(m[2]) - 1, d: Number(m[3]) };
  // "2026-02-30" is not a day (Date would roll it over to March).
  if (day.y < 1970 || day.m > 11 || day.d < 1 || isoDate(addDays(day, 0)) !== value) return undefined;
  return startOfDay(day, timeZone);
}

/** The start of the next local day after a day's start (days are not always 24 h long around clock changes). */
export function nextLocalDay(dayStart: number, timeZone = currentTimeZone()): number {
  return startOfDay(addDays(dayOf(dayStart, timeZone), 1), timeZone);
}

/** yyyy-mm-dd of a timestamp in local time (a date input's value). */
export function toDateInput(at: number, timeZone = currentTimeZone()): string {
  return isoDate(dayOf(at, timeZone));
}
