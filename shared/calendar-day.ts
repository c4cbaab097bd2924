/**
 * Calendar days in a time zone: the day an instant falls on, and the instants a day starts and ends there. The one
 * rule behind every "today", "this week", day heading and end-of-day expiry in Mnemo: the core (the date the model is
 * told, expiries resolved from the model's words, export dates) and the renderer (the timeline's days and chart)
 * both use it, with the zone from userTimeZone() (shared/time-zone.ts).
 *
 * Civil arithmetic (add days, weekdays, month lengths) works on {y, m, d} and needs no zone; only the step between an
 * instant and a day does, and it goes through Intl, so the zone rules are the platform's ICU data.
 *
 * A day is not always 24 hours. It starts at the first instant whose local date is that day and ends 1 ms before the
 * next one starts: 23 hours on a spring-forward day, 25 on a fall-back day, and when clocks jump at midnight
 * (São Paulo, 2018-11-04: 00:00 became 01:00) the day starts at the jump.
 *
 * Hand-written, not date-fns with @date-fns/tz (date-fns 4.4, @date-fns/tz 1.5, compared on
 * test/unit/calendar-day.test.ts and on random instants in all 418 zones): they agree on most days, but its endOfDay
 * (23:59:59.999 local) cuts a day whose clocks fall back at midnight (São Paulo, 2019-02-16: 24 hours, not 25) and
 * gives a day the zone skipped 24 hours (Samoa, 2011-12-30); a midnight that comes twice (Gaza, 2018-10-27) starts
 * the day at the second one when the process runs in another zone (https://github.com/date-fns/tz/issues/40); it
 * rounds an offset with seconds to whole minutes (Monrovia, UTC−0:44:30 until 1972) and reads years below 100 as 19xx.
 */

export interface CalendarDay {
  y: number;
  /** 0-11, as Date. */
  m: number;
  /** 1-31. */
  d: number;
}

const HOUR_MS = 3_600_000;

/** A formatter per zone, reused: building one costs far more than using it (a pure cache of immutable objects). */
const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    // Throws RangeError for an unknown zone: callers pass userTimeZone(), which is always known.
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClockFormats.set(timeZone, format);
  }
  return format;
}

interface WallClock extends CalendarDay {
  hour: number;
  minute: number;
  second: number;
}

function wallClock(ms: number, timeZone: string): WallClock {
  const fields: Record<string, number> = {};
  for (const part of wallClockFormat(timeZone).formatToParts(ms)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    y: fields.year!,
    m: fields.month! - 1,
    d: fields.day!,
    // Some ICU versions write midnight as 24 even with h23.
    hour: fields.hour! % 24,
    minute: fields.minute!,
    second: fields.second!,
  };
}

/** The instant a wall-clock time would be if the zone were UTC. setUTCFullYear: Date.UTC maps years 0-99 to 19xx. */
function asUtc(y: number, m: number, d: number, hour = 0, minute = 0, second = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, m, d);
  t.setUTCHours(hour, minute, second, 0);
  return t.getTime();
}

/** How far the zone's wall clock is ahead of UTC at an instant (ms; whole seconds). */
function offsetAt(ms: number, timeZone: string): number {
  const w = wallClock(ms, timeZone);
  return asUtc(w.y, w.m, w.d, w.hour, w.minute, w.second) - Math.floor(ms / 1000) * 1000;
}

function sameDay(a: CalendarDay, b: CalendarDay): boolean {
  return a.y === b.y && a.m === b.m && a.d === b.d;
}

/** The calendar day an instant falls on in the zone. */
export function dayOf(ms: number, timeZone: string): CalendarDay {
  const { y, m, d } = wallClock(ms, timeZone);
  return { y, m, d };
}

/** The day `n` days after (or before, when negative) a day. */
export function addDays(day: CalendarDay, n: number): CalendarDay {
  const t = new Date(asUtc(day.y, day.m, day.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth(), d: t.getUTCDate() };
}

export function daysInMonth(y: number, m: number): number {
  return new Date(asUtc(y, m + 1, 0)).getUTCDate();
}

/** 0 = Monday ... 6 = Sunday (weeks start on Monday, ISO 8601). */
export function isoWeekday(day: CalendarDay): number {
  return (new Date(asUtc(day.y, day.m, day.d)).getUTCDay() + 6) % 7;
}

/** "2026-06-15". */
export function isoDate(day: CalendarDay): string {
  return `${String(day.y).padStart(4, '0')}-${String(day.m + 1).padStart(2, '0')}-${String(day.d).padStart(2, '0')}`;
}

/**
 * An instant as the zone's wall clock reads it, "2026-06-15 07:00" (or with seconds, "2026-06-15 07:00:09"): how the
 * terminal prints every time (electron/cli, with the user's zone), so its times agree with the app's.
 */
export function localDateTime(ms: number, timeZone: string, precision: 'minute' | 'second' = 'minute'): string {
  const w = wallClock(ms, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${isoDate(w)} ${two(w.hour)}:${two(w.minute)}${precision === 'second' ? `:${two(w.second)}` : ''}`;
}

/**
 * The first instant of a day in the zone. Usually its local midnight; when midnight is skipped (clocks jump at
 * 00:00) the instant of the jump; for a day the zone skipped entirely (Samoa, 2011-12-30) the start of the next day.
 */
export function startOfDay(day: CalendarDay, timeZone: string): number {
  const midnight = asUtc(day.y, day.m, day.d);
  // The day starts within a few hours of midnight minus the zone's offset; the offset in force may be the one of
  // the day before or after a change, so each is tried and the earliest instant that lies in the day wins.
  let start: number | null = null;
  for (const probe of [midnight - 24 * HOUR_MS, midnight, midnight + 24 * HOUR_MS]) {
    const candidate = midnight - offsetAt(probe, timeZone);
    if ((start === null || candidate < start) && sameDay(dayOf(candidate, timeZone), day)) start = candidate;
  }
  if (start === null) return startOfDay(addDays(day, 1), timeZone);
  const w = wallClock(start, timeZone);
  if (w.hour === 0 && w.minute === 0 && w.second === 0) return start;
  // Midnight fell in a gap: the day began at the jump, some time before `start`. The jump is where the day changes.
  let before = start - 4 * HOUR_MS;
  let after = start;
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (sameDay(dayOf(mid, timeZone), day)) after = mid;
    else before = mid;
  }
  return after;
}

/** The last millisecond of a day in the zone: an expiry "on" that day holds until then. */
export function endOfDay(day: CalendarDay, timeZone: string): number {
  return startOfDay(addDays(day, 1), timeZone) - 1;
}
