import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, dayOf, daysInMonth, endOfDay, isoDate, isoWeekday, localDateTime, startOfDay, type CalendarDay } from '../../shared/calendar-day';
import { PROPERTY_TEST_TIMEOUT_MS } from '../support/timeouts';

const HOUR = 3_600_000;
const day = (y: number, m: number, d: number): CalendarDay => ({ y, m: m - 1, d });
const hours = (d: CalendarDay, zone: string) => (endOfDay(d, zone) + 1 - startOfDay(d, zone)) / HOUR;

describe('calendar days in a time zone', () => {
  it('puts an instant on the day it is where the user lives', () => {
    const t = Date.UTC(2026, 5, 14, 23); // 23:00 UTC on Sunday 14 June
    expect(dayOf(t, 'UTC')).toEqual(day(2026, 6, 14));
    expect(dayOf(t, 'Asia/Shanghai')).toEqual(day(2026, 6, 15)); // 07:00 on Monday
    expect(dayOf(t, 'America/Los_Angeles')).toEqual(day(2026, 6, 14)); // 16:00 on Sunday
    expect(isoDate(dayOf(Date.UTC(2026, 6, 20, 3), 'America/Los_Angeles'))).toBe('2026-07-19'); // Sunday 20:00 PDT
  });

  it('reads an instant off the zone’s wall clock, to the minute or the second (how the terminal prints times)', () => {
    const t = Date.UTC(2026, 5, 14, 23, 5, 9);
    expect(localDateTime(t, 'UTC')).toBe('2026-06-14 23:05');
    expect(localDateTime(t, 'Asia/Shanghai')).toBe('2026-06-15 07:05');
    expect(localDateTime(t, 'Asia/Kathmandu', 'second')).toBe('2026-06-15 04:50:09');
    // The hour that comes twice when clocks fall back: 01:30 PDT, then an hour later 01:30 PST.
    expect(localDateTime(Date.UTC(2026, 10, 1, 8, 30), 'America/Los_Angeles')).toBe('2026-11-01 01:30');
    expect(localDateTime(Date.UTC(2026, 10, 1, 9, 30), 'America/Los_Angeles')).toBe('2026-11-01 01:30');
    expect(localDateTime(Date.UTC(2026, 0, 1, 0, 0, 0), 'Europe/Lisbon', 'second')).toBe('2026-01-01 00:00:00');
  });

  it('starts and ends a day at the local midnights', () => {
    expect(startOfDay(day(2026, 6, 15), 'Asia/Shanghai')).toBe(Date.UTC(2026, 5, 14, 16));
    expect(endOfDay(day(2026, 6, 15), 'Asia/Shanghai')).toBe(Date.UTC(2026, 5, 15, 16) - 1);
    expect(endOfDay(day(2026, 7, 19), 'America/Los_Angeles')).toBe(Date.UTC(2026, 6, 20, 7) - 1);
    expect(startOfDay(day(2026, 1, 1), 'Asia/Kathmandu')).toBe(Date.UTC(2025, 11, 31, 18, 15)); // UTC+5:45
  });

  it('makes a daylight-saving day 23 or 25 hours long, ending where the new offset puts midnight', () => {
    expect(hours(day(2026, 3, 8), 'America/Los_Angeles')).toBe(23);
    expect(endOfDay(day(2026, 3, 8), 'America/Los_Angeles')).toBe(Date.UTC(2026, 2, 9, 7) - 1); // midnight PDT
    expect(hours(day(2026, 11, 1), 'America/Los_Angeles')).toBe(25);
    expect(endOfDay(day(2026, 11, 1), 'America/Los_Angeles')).toBe(Date.UTC(2026, 10, 2, 8) - 1); // midnight PST
    expect(hours(day(2026, 3, 29), 'Europe/Berlin')).toBe(23);
    expect(hours(day(2026, 10, 4), 'Australia/Lord_Howe')).toBe(23.5); // a half-hour change
  });

  it('starts a day at the jump when clocks skip its midnight, and gives a day the zone skipped no length', () => {
    // São Paulo, 2018-11-04: 00:00 (UTC−3) became 01:00 (UTC−2).
    expect(startOfDay(day(2018, 11, 4), 'America/Sao_Paulo')).toBe(Date.UTC(2018, 10, 4, 3));
    expect(endOfDay(day(2018, 11, 3), 'America/Sao_Paulo')).toBe(Date.UTC(2018, 10, 4, 3) - 1);
    // São Paulo, 2019-02-16 24:00 (UTC−2) became 23:00 (UTC−3): the 16th lasts 25 hours, the 17th starts at its midnight.
    expect(hours(day(2019, 2, 16), 'America/Sao_Paulo')).toBe(25);
    expect(startOfDay(day(2019, 2, 17), 'America/Sao_Paulo')).toBe(Date.UTC(2019, 1, 17, 3));
    // Samoa went from 29 to 31 December 2011.
    expect(hours(day(2011, 12, 30), 'Pacific/Apia')).toBe(0);
    expect(hours(day(2011, 12, 29), 'Pacific/Apia')).toBe(24);
  });

  // Cases date-fns with @date-fns/tz gets wrong (see the header of shared/calendar-day.ts).
  it('starts a day whose midnight came twice at the first one, and keeps offsets of seconds', () => {
    // Gaza, 2018-10-27: 01:00 (UTC+3) became 00:00 (UTC+2).
    expect(startOfDay(day(2018, 10, 27), 'Asia/Gaza')).toBe(Date.UTC(2018, 9, 26, 21));
    expect(hours(day(2018, 10, 27), 'Asia/Gaza')).toBe(25);
    // Monrovia kept UTC−0:44:30 until 1972: ten past midnight UTC on New Year's Day was still 31 December there.
    expect(dayOf(Date.UTC(1971, 0, 1, 0, 10), 'Africa/Monrovia')).toEqual(day(1970, 12, 31));
    expect(startOfDay(day(1971, 1, 1), 'Africa/Monrovia')).toBe(Date.UTC(1971, 0, 1, 0, 44, 30));
  });

  it('adds days across months, leap years and years, and counts weekdays from Monday', () => {
    expect(addDays(day(2024, 2, 28), 1)).toEqual(day(2024, 2, 29));
    expect(addDays(day(2025, 12, 31), 1)).toEqual(day(2026, 1, 1));
    expect(addDays(day(2026, 3, 1), -1)).toEqual(day(2026, 2, 28));
    expect(isoWeekday(day(2026, 6, 15))).toBe(0);
    expect(isoWeekday(day(2026, 7, 19))).toBe(6);
    expect(isoDate(day(2026, 3, 5))).toBe('2026-03-05');
    // A year below 100 is that year, not 19xx: year 0 is a leap year, 1900 was not.
    expect(daysInMonth(0, 1)).toBe(29);
    expect(addDays(day(99, 12, 31), 1)).toEqual(day(100, 1, 1));
  });

  it('properties: every instant lies in its day, which ends 1 ms before the next one starts', () => {
    const zone = fc.constantFrom('UTC', 'Asia/Shanghai', 'America/Los_Angeles', 'Europe/Berlin', 'America/Sao_Paulo', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/Santiago');
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2090, 0, 1) }), zone, (t, z) => {
        const d = dayOf(t, z);
        const start = startOfDay(d, z);
        const end = endOfDay(d, z);
        expect(start).toBeLessThanOrEqual(t);
        expect(end).toBeGreaterThanOrEqual(t);
        expect(dayOf(start, z)).toEqual(d);
        expect(dayOf(start - 1, z)).toEqual(addDays(d, -1));
        expect(dayOf(end + 1, z)).toEqual(addDays(d, 1));
        expect(end + 1).toBe(startOfDay(addDays(d, 1), z));
      }),
      { numRuns: 500 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);
});
