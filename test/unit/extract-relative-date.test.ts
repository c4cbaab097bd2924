import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveRelativeDate } from '../../electron/core/extraction/relative-date';
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
      expect(resolveRelativeDate(expr, MONDAY)).toBe(expected);
    });
  }

  it('clamps a month step to the shorter month', () => {
    expect(resolveRelativeDate('in 1 month', Date.UTC(2024, 0, 31, 12))).toBe(eod(2024, 2, 29));
    expect(resolveRelativeDate('in 1 month', Date.UTC(2025, 0, 31, 12))).toBe(eod(2025, 2, 28));
  });

  it('reads "next Friday" as Friday of next week from every day of the week, like 下周五', () => {
    for (let i = 0; i < 7; i++) {
      const base = MONDAY + i * DAY;
      const en = resolveRelativeDate('next Friday', base)!;
      expect(resolveRelativeDate('下周五', base)).toBe(en);
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
        const at = resolveRelativeDate(e, b);
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
        expect(resolveRelativeDate(`in ${n} days`, b)).toBe(startOfDay + (n + 1) * DAY - 1);
        expect(resolveRelativeDate(`${n}天后`, b)).toBe(startOfDay + (n + 1) * DAY - 1);
      }),
    );
  });

  it('never throws and returns null or an end of day for any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), base, (e, b) => {
        const at = resolveRelativeDate(e, b);
        if (at !== null) expect((at + 1) % DAY).toBe(0);
      }),
    );
  });
});
