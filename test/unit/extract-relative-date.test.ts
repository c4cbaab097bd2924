import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveRelativeDate } from '../../electron/core/time/relative-date';
import { addDays, dayOf, endOfDay } from '../../shared/calendar-day';
import { PROPERTY_TEST_TIMEOUT_MS } from '../support/timeouts';

const DAY = 86_400_000;
const eod = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d, 23, 59, 59, 999);
// Monday 2025-03-10, 15:30 UTC
const MONDAY = Date.UTC(2025, 2, 10, 15, 30);

const EXPECTED: Array<[string, number | null]> = [
  ['today', eod(2025, 3, 10)],
  ['tonight', eod(2025, 3, 10)],
  ['tomorrow', eod(2025, 3, 11)],
  ['the day after tomorrow', eod(2025, 3, 12)],
  ['next Friday', eod(2025, 3, 21)],
  ['until next Friday', eod(2025, 3, 21)],
  ['this Friday', eod(2025, 3, 14)],
  ['Friday', eod(2025, 3, 14)],
  ['on Monday', eod(2025, 3, 10)],
  ['in 3 days', eod(2025, 3, 13)],
  ['in two weeks', eod(2025, 3, 24)],
  ["in 2 weeks' time", eod(2025, 3, 24)],
  ['for the next 2 weeks', eod(2025, 3, 24)],
  ['a couple of weeks', eod(2025, 3, 24)],
  ['in 1 month', eod(2025, 4, 10)],
  ['in 10 hours', eod(2025, 3, 11)],
  ['next week', eod(2025, 3, 23)],
  ['this weekend', eod(2025, 3, 16)],
  ['next month', eod(2025, 4, 30)],
  ['end of the month', eod(2025, 3, 31)],
  ['by the end of the month', eod(2025, 3, 31)],
  ['end of the year', eod(2025, 12, 31)],
  ['next year', eod(2026, 12, 31)],
  ['until 2025-06-30', eod(2025, 6, 30)],
  ['2025-06-30T08:00:00Z', eod(2025, 6, 30)],
  ['March 14', eod(2025, 3, 14)],
  ['March 1', eod(2026, 3, 1)],
  ['14th of April 2026', eod(2026, 4, 14)],
  ['今天', eod(2025, 3, 10)],
  ['明天', eod(2025, 3, 11)],
  ['后天', eod(2025, 3, 12)],
  ['下周五', eod(2025, 3, 21)],
  ['下个星期五', eod(2025, 3, 21)],
  ['直到下周五', eod(2025, 3, 21)],
  ['下周五前', eod(2025, 3, 21)],
  ['这周五', eod(2025, 3, 14)],
  ['周五', eod(2025, 3, 14)],
  ['下周', eod(2025, 3, 23)],
  ['下个月', eod(2025, 4, 30)],
  ['月底', eod(2025, 3, 31)],
  ['年底', eod(2025, 12, 31)],
  ['明年', eod(2026, 12, 31)],
  ['3天后', eod(2025, 3, 13)],
  ['三天后', eod(2025, 3, 13)],
  ['十五天后', eod(2025, 3, 25)],
  ['两周内', eod(2025, 3, 24)],
  ['三个月之后', eod(2025, 6, 10)],
  ['半个月', eod(2025, 3, 25)],
  ['12小时后', eod(2025, 3, 11)],
  ['2026年3月14日', eod(2026, 3, 14)],
  ['3月14号', eod(2025, 3, 14)],
  ['3天前', null],
  ['permanent', null],
  ['someday', null],
  ['next blursday', null],
  ['in 99999 years', null],
  ['', null],
];

describe('resolveRelativeDate', () => {
  for (const [expr, expected] of EXPECTED) {
    it(`${expr || '(empty)'} -> ${expected === null ? 'null' : new Date(expected).toISOString().slice(0, 10)}`, () => {
      expect(resolveRelativeDate(expr, MONDAY, 'UTC')).toBe(expected);
    });
  }

  it('clamps a month step to the shorter month', () => {
    expect(resolveRelativeDate('in 1 month', Date.UTC(2024, 0, 31, 12), 'UTC')).toBe(eod(2024, 2, 29));
    expect(resolveRelativeDate('in 1 month', Date.UTC(2025, 0, 31, 12), 'UTC')).toBe(eod(2025, 2, 28));
  });

  it('reads "next Friday" as Friday of next week from every day of the week, like 下周五', () => {
    for (let i = 0; i < 7; i++) {
      const base = MONDAY + i * DAY;
      const en = resolveRelativeDate('next Friday', base, 'UTC')!;
      expect(resolveRelativeDate('下周五', base, 'UTC')).toBe(en);
      const nextMonday = MONDAY + 7 * DAY;
      expect(new Date(en).getUTCDay()).toBe(5);
      expect(en).toBeGreaterThan(nextMonday);
      expect(en).toBeLessThan(nextMonday + 7 * DAY);
    }
  });
});

const FUTURE = [
  'today', 'tonight', 'tomorrow', 'day after tomorrow', 'next week', 'this week', 'this weekend', 'next month',
  'end of the month', 'this year', 'end of the year', 'next year', 'fortnight', 'monday', 'this friday',
  'next sunday', 'coming wednesday', 'March 1', 'December 31', 'February 29', '今天', '明天', '后天', '大后天',
  '下周', '下周末', '下下周', '本月', '月底', '下个月', '年底', '明年', '周一', '周日', '下周三', '下下周六', '半年',
  '半个月', '3月1日', '12月31号',
];
const unit = fc.constantFrom('hours', 'days', 'weeks', 'months', 'years');
const zhUnit = fc.constantFrom('小时', '天', '周', '个星期', '个月', '年');

describe('resolveRelativeDate: properties', () => {
  const base = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) });
  const expr = fc.oneof(
    fc.constantFrom(...FUTURE),
    fc.tuple(fc.integer({ min: 0, max: 99 }), unit).map(([n, u]) => `in ${n} ${u}`),
    fc.tuple(fc.integer({ min: 0, max: 99 }), zhUnit).map(([n, u]) => `${n}${u}后`),
  );

  it('resolves future expressions to the end of a day at or after the base', () => {
    fc.assert(
      fc.property(expr, base, (e, b) => {
        const at = resolveRelativeDate(e, b, 'UTC');
        expect(at).not.toBeNull();
        expect(at!).toBeGreaterThanOrEqual(b);
        expect((at! + 1) % DAY).toBe(0);
      }),
      { numRuns: 1000 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);

  it('"in N days" is exactly N calendar days after the base day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3650 }), base, (n, b) => {
        const startOfDay = b - (b % DAY);
        expect(resolveRelativeDate(`in ${n} days`, b, 'UTC')).toBe(startOfDay + (n + 1) * DAY - 1);
        expect(resolveRelativeDate(`${n}天后`, b, 'UTC')).toBe(startOfDay + (n + 1) * DAY - 1);
      }),
    );
  });

  it('never throws and returns null or an end of day for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), base, (e, b) => {
        const at = resolveRelativeDate(e, b, 'UTC');
        if (at !== null) expect((at + 1) % DAY).toBe(0);
      }),
    );
  });
});

// The user's calendar days (issue #17, "Local time"): the same words resolve to the end of a day in the user's zone.
const SHANGHAI = 'Asia/Shanghai';
const LOS_ANGELES = 'America/Los_Angeles';
/** Monday 2026-06-15, 07:00 in Shanghai (UTC+8): in UTC it is still Sunday 2026-06-14, 23:00. */
const SHANGHAI_MONDAY_MORNING = Date.UTC(2026, 5, 14, 23);
/** Sunday 2026-07-19, 20:00 in Los Angeles (UTC−7, summer time): in UTC it is already Monday 2026-07-20, 03:00. */
const LA_SUNDAY_EVENING = Date.UTC(2026, 6, 20, 3);
/** The last millisecond of a day at a UTC offset (hours), as a zone without a change that day ends it. */
const eodAt = (y: number, m: number, d: number, offsetHours: number): number => Date.UTC(y, m - 1, d + 1) - offsetHours * 3_600_000 - 1;

describe('resolveRelativeDate in the user\'s time zone', () => {
  it.each([
    ['today', eodAt(2026, 6, 15, 8)],
    ['tomorrow', eodAt(2026, 6, 16, 8)],
    ['this week', eodAt(2026, 6, 21, 8)],
    ['本周', eodAt(2026, 6, 21, 8)],
    ['下周五', eodAt(2026, 6, 26, 8)],
    ['next Friday', eodAt(2026, 6, 26, 8)],
    ['Friday', eodAt(2026, 6, 19, 8)],
    ['this session', eodAt(2026, 6, 15, 8)],
    ['in 20 hours', eodAt(2026, 6, 16, 8)],
    ['2026-06-15', eodAt(2026, 6, 15, 8)],
  ])('Shanghai, Monday 07:00: %s', (expr, expected) => {
    expect(resolveRelativeDate(expr, SHANGHAI_MONDAY_MORNING, SHANGHAI)).toBe(expected);
  });

  it('in UTC the same Shanghai morning is still Sunday: "today" would end 59 minutes later and "this week" before it began', () => {
    // What the UTC rule did before: kept here as the reason the zone is passed in.
    expect(resolveRelativeDate('today', SHANGHAI_MONDAY_MORNING, 'UTC')).toBe(SHANGHAI_MONDAY_MORNING + 59 * 60_000 + 59_999);
    expect(resolveRelativeDate('this week', SHANGHAI_MONDAY_MORNING, 'UTC')).toBeLessThan(SHANGHAI_MONDAY_MORNING + 3_600_000);
    expect(resolveRelativeDate('today', SHANGHAI_MONDAY_MORNING, SHANGHAI)! - SHANGHAI_MONDAY_MORNING).toBe(17 * 3_600_000 - 1);
  });

  it.each([
    ['today', eodAt(2026, 7, 19, -7)],
    ['tonight', eodAt(2026, 7, 19, -7)],
    ['tomorrow', eodAt(2026, 7, 20, -7)],
    ['明天', eodAt(2026, 7, 20, -7)],
    ['this weekend', eodAt(2026, 7, 19, -7)],
    ['下周五', eodAt(2026, 7, 24, -7)],
    ['next week', eodAt(2026, 7, 26, -7)],
    ['24h', eodAt(2026, 7, 20, -7)],
    ['for two weeks', eodAt(2026, 8, 2, -7)],
    ['end of the month', eodAt(2026, 7, 31, -7)],
  ])('Los Angeles, Sunday 20:00 in summer: %s', (expr, expected) => {
    expect(resolveRelativeDate(expr, LA_SUNDAY_EVENING, LOS_ANGELES)).toBe(expected);
  });

  it('ends a day where the zone ends it on the days clocks change (23 and 25 hours long in Los Angeles)', () => {
    // Spring forward, Sunday 2026-03-08: the day starts at UTC−8 and ends at UTC−7.
    const saturdayEvening = Date.UTC(2026, 2, 8, 4); // Saturday 2026-03-07, 20:00 PST
    expect(resolveRelativeDate('today', saturdayEvening, LOS_ANGELES)).toBe(eodAt(2026, 3, 7, -8));
    expect(resolveRelativeDate('tomorrow', saturdayEvening, LOS_ANGELES)).toBe(eodAt(2026, 3, 8, -7));
    expect(resolveRelativeDate('today', Date.UTC(2026, 2, 9, 3), LOS_ANGELES)).toBe(eodAt(2026, 3, 8, -7)); // Sunday 20:00 PDT
    // Fall back, Sunday 2026-11-01: the day starts at UTC−7 and ends at UTC−8.
    expect(resolveRelativeDate('tomorrow', Date.UTC(2026, 10, 1, 3), LOS_ANGELES)).toBe(eodAt(2026, 11, 1, -8)); // Saturday 20:00 PDT
    expect(resolveRelativeDate('today', Date.UTC(2026, 10, 2, 4), LOS_ANGELES)).toBe(eodAt(2026, 11, 1, -8)); // Sunday 20:00 PST
  });
});

describe('resolveRelativeDate: durations and bare months', () => {
  // Base: Monday 2025-03-10, 15:30 UTC (MONDAY above).
  it.each([
    ['7d', eod(2025, 3, 17)],
    ['7 days', eod(2025, 3, 17)],
    ['24h', eod(2025, 3, 11)],
    ['8h', eod(2025, 3, 10)],
    ['2 hrs', eod(2025, 3, 10)],
    ['90 min', eod(2025, 3, 10)],
    ['3m', null], // minutes or months: not guessed
    ['in 30 minutes', eod(2025, 3, 10)],
    ['2w', eod(2025, 3, 24)],
    ['3mo', eod(2025, 6, 10)],
    ['1y', eod(2026, 3, 10)],
    ['for two weeks', eod(2025, 3, 24)],
    ['two weeks', eod(2025, 3, 24)],
    ['this session', eod(2025, 3, 10)],
    ['for this session only', eod(2025, 3, 10)],
    ['this conversation', eod(2025, 3, 10)],
    ['for the rest of the day', eod(2025, 3, 10)],
    ['until September', eod(2025, 9, 30)],
    ['September', eod(2025, 9, 30)],
    ['till sept.', eod(2025, 9, 30)],
    ['until the end of September', eod(2025, 9, 30)],
    ['until March', eod(2025, 3, 31)],
    ['until February', eod(2026, 2, 28)],
    ['September 2026', eod(2026, 9, 30)],
    ['2025-09', eod(2025, 9, 30)],
    ['两周', eod(2025, 3, 24)],
    ['两个星期', eod(2025, 3, 24)],
    ['下个月', eod(2025, 4, 30)],
    ['到九月', eod(2025, 9, 30)],
    ['九月', eod(2025, 9, 30)],
    ['到9月底', eod(2025, 9, 30)],
    ['9月份', eod(2025, 9, 30)],
    ['三月', eod(2025, 3, 31)],
    ['2026年9月', eod(2026, 9, 30)],
    ['本次会话', eod(2025, 3, 10)],
    ['这次对话', eod(2025, 3, 10)],
    ['30分钟后', eod(2025, 3, 10)],
    ['3小时前', null],
    ['a d', null],
    ['2 constructor', null], // words are looked up as own keys only
    ['constructor 14', null],
    ['13月', null],
  ])('%s', (expr, expected) => {
    expect(resolveRelativeDate(expr, MONDAY, 'UTC')).toBe(expected);
  });
});

const ZONES = ['UTC', SHANGHAI, LOS_ANGELES, 'Europe/Berlin', 'America/Sao_Paulo', 'Asia/Kathmandu', 'Pacific/Auckland'];

describe('resolveRelativeDate: properties in every zone', () => {
  const base = fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) });
  const zone = fc.constantFrom(...ZONES);
  const expr = fc.oneof(
    fc.constantFrom(...FUTURE, 'this session', '7d', '24h', 'until September', '到九月', '两周', 'for two weeks'),
    fc.tuple(fc.integer({ min: 0, max: 99 }), unit).map(([n, u]) => `in ${n} ${u}`),
    fc.tuple(fc.integer({ min: 0, max: 99 }), zhUnit).map(([n, u]) => `${n}${u}后`),
  );

  it('resolves future expressions to the last millisecond of a day in that zone, at or after the base', () => {
    fc.assert(
      fc.property(expr, base, zone, (e, b, z) => {
        const at = resolveRelativeDate(e, b, z);
        expect(at).not.toBeNull();
        expect(at!).toBeGreaterThanOrEqual(b);
        const day = dayOf(at!, z);
        expect(at).toBe(endOfDay(day, z));
        expect(dayOf(at! + 1, z)).toEqual(addDays(day, 1));
      }),
      { numRuns: 300 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);

  it('"in N days" is exactly N of the zone\'s calendar days after the base day', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3650 }), base, zone, (n, b, z) => {
        const expected = endOfDay(addDays(dayOf(b, z), n), z);
        expect(resolveRelativeDate(`in ${n} days`, b, z)).toBe(expected);
        expect(resolveRelativeDate(`${n}天后`, b, z)).toBe(expected);
      }),
      { numRuns: 200 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);
});
