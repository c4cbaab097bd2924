import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aboutTheTimeItself, findQuestionTime, inThePast } from '../../electron/core/time/time-window';
import { PROPERTY_TEST_TIMEOUT_MS } from '../support/timeouts';

const SH = 'Asia/Shanghai';
/** Midnight starting a Shanghai calendar day, in UTC ms (Shanghai is UTC+8, no daylight saving). */
const sh = (y: number, m: number, d: number): number => Date.UTC(y, m - 1, d) - 8 * 3_600_000;
/** Wednesday 2026-01-14, 10:00 in Shanghai. */
const WEDNESDAY = sh(2026, 1, 14) + 10 * 3_600_000;

/** [phrase in a question, first day, last day (both included)] as [y, m, d], asked on WEDNESDAY in Shanghai. */
const CASES: Array<[string, [number, number, number], [number, number, number]]> = [
  ['What did I tell you about the dentist last week?', [2026, 1, 5], [2026, 1, 11]],
  ['What did we talk about yesterday?', [2026, 1, 13], [2026, 1, 13]],
  ['What did I say today about tea?', [2026, 1, 14], [2026, 1, 14]],
  ['anything the day before yesterday?', [2026, 1, 12], [2026, 1, 12]],
  ['What did I say two days ago?', [2026, 1, 12], [2026, 1, 12]],
  ['What did we discuss 3 weeks ago', [2025, 12, 22], [2025, 12, 28]],
  ['What did I plan last month?', [2025, 12, 1], [2025, 12, 31]],
  ['What did I buy in March?', [2025, 3, 1], [2025, 3, 31]],
  ['What did I buy in January?', [2026, 1, 1], [2026, 1, 31]],
  ['in May 2024 what did I cook', [2024, 5, 1], [2024, 5, 31]],
  ['what happened on March 14?', [2025, 3, 14], [2025, 3, 14]],
  ['what did I say on Friday', [2026, 1, 9], [2026, 1, 9]],
  ['what did I say on Wednesday', [2026, 1, 14], [2026, 1, 14]],
  ['what did I say last Wednesday', [2026, 1, 7], [2026, 1, 7]],
  ['what did we talk about in the past week?', [2026, 1, 7], [2026, 1, 14]],
  ['what did I mention over the last 3 days', [2026, 1, 11], [2026, 1, 14]],
  ['what did I do last weekend', [2026, 1, 10], [2026, 1, 11]],
  ['what did I say this week', [2026, 1, 12], [2026, 1, 18]],
  ['what did I learn last year', [2025, 1, 1], [2025, 12, 31]],
  ['on 2025-11-02 what did I write', [2025, 11, 2], [2025, 11, 2]],
  ['上周我们聊了什么？', [2026, 1, 5], [2026, 1, 11]],
  ['我上周跟你说过牙医的事吗', [2026, 1, 5], [2026, 1, 11]],
  ['昨天我说了什么', [2026, 1, 13], [2026, 1, 13]],
  ['前天的事', [2026, 1, 12], [2026, 1, 12]],
  ['三月我买了什么', [2025, 3, 1], [2025, 3, 31]],
  ['3月份我说过什么', [2025, 3, 1], [2025, 3, 31]],
  ['去年三月我去了哪里', [2025, 3, 1], [2025, 3, 31]],
  ['上个月我提到了什么', [2025, 12, 1], [2025, 12, 31]],
  ['两天前我说的', [2026, 1, 12], [2026, 1, 12]],
  ['三个星期前我们聊了什么', [2025, 12, 22], [2025, 12, 28]],
  ['最近三天我说了什么', [2026, 1, 11], [2026, 1, 14]],
  ['上周五我说了什么', [2026, 1, 9], [2026, 1, 9]],
  ['周一我说了什么', [2026, 1, 12], [2026, 1, 12]],
  ['上周末我做了什么', [2026, 1, 10], [2026, 1, 11]],
  ['本月我说过什么', [2026, 1, 1], [2026, 1, 31]],
  ['去年我学了什么', [2025, 1, 1], [2025, 12, 31]],
  ['3月14日发生了什么', [2025, 3, 14], [2025, 3, 14]],
];

describe('findQuestionTime', () => {
  it.each(CASES)('%s', (text, first, last) => {
    const found = findQuestionTime(text, WEDNESDAY, SH);
    expect(found, text).not.toBeNull();
    expect(found!.window).toEqual({ from: sh(...first), to: sh(last[0], last[1], last[2] + 1) });
  });

  it('keeps the topic without the phrase, in both languages', () => {
    expect(findQuestionTime('What did I tell you about the dentist last week?', WEDNESDAY, SH)?.topic).toBe('What did I tell you about the dentist?');
    expect(findQuestionTime('What did we talk about in the past week?', WEDNESDAY, SH)?.topic).toBe('What did we talk about?');
    expect(findQuestionTime('我上周跟你说过牙医的事吗', WEDNESDAY, SH)?.topic).toBe('我跟你说过牙医的事吗');
    expect(findQuestionTime('Where do I work, and what did the dentist say yesterday?', WEDNESDAY, SH)?.phrase).toBe('yesterday');
  });

  it('reads weeks in the user zone: at 07:00 Monday in Shanghai (still Sunday in UTC) last week is the Shanghai one', () => {
    const mondayMorning = sh(2026, 1, 12) + 7 * 3_600_000;
    expect(findQuestionTime('last week', mondayMorning, SH)!.window).toEqual({ from: sh(2026, 1, 5), to: sh(2026, 1, 12) });
    // The same instant in UTC is Sunday 23:00: its last week is the one before.
    const utc = findQuestionTime('last week', mondayMorning, 'UTC')!.window;
    expect(utc).toEqual({ from: Date.UTC(2025, 11, 29), to: Date.UTC(2026, 0, 5) });
  });

  it('takes a month of this year once it has begun, else last year (March when it is January, January in January)', () => {
    const inMarch = sh(2026, 3, 2);
    expect(findQuestionTime('in March', inMarch, SH)!.window.from).toBe(sh(2026, 3, 1));
    expect(findQuestionTime('in April', inMarch, SH)!.window.from).toBe(sh(2025, 4, 1));
    expect(findQuestionTime('三月', WEDNESDAY, SH)!.window.from).toBe(sh(2025, 3, 1));
  });

  it('finds forward phrases too, whose window lies ahead and filters nothing', () => {
    const next = findQuestionTime('what is my plan for next week', WEDNESDAY, SH)!;
    expect(next.window.from).toBe(sh(2026, 1, 19));
    expect(inThePast(next.window, WEDNESDAY)).toBeNull();
    expect(findQuestionTime('下周我要做什么', WEDNESDAY, SH)!.window.from).toBe(sh(2026, 1, 19));
    expect(inThePast(findQuestionTime('this week', WEDNESDAY, SH)!.window, WEDNESDAY)).toEqual({ from: sh(2026, 1, 12), to: WEDNESDAY + 1 });
  });

  it('leaves words that are not dates in the topic', () => {
    for (const text of [
      'Where do I work?',
      'I may visit Porto',
      'What is my sister called?',
      'Do I like the sun on Sundays',
      'I need three months of savings', // a span, not a time the question is about
      '三个月的预算是多少', // 三个月 is a span, not March
      '我住在哪个城市',
      'march on',
      'What do I do on the weekend?', // a habit, not a time
      '我周末练什么？',
    ]) {
      const found = findQuestionTime(text, WEDNESDAY, SH);
      expect(found, text).toBeNull();
    }
  });

  it('property: the window holds at least one day, and the topic is the text without the phrase', () => {
    const phrases = [...CASES.map((c) => c[0])];
    fc.assert(
      fc.property(fc.constantFrom(...phrases), fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2090, 0, 1) }), fc.constantFrom(SH, 'UTC', 'America/New_York', 'Pacific/Auckland'), (text, now, zone) => {
        const found = findQuestionTime(text, now, zone);
        if (found === null) return; // "March 14" on a day before any March 14 of the last years cannot happen; others always read
        expect(found.window.to - found.window.from).toBeGreaterThanOrEqual(23 * 3_600_000);
        expect(found.topic.length).toBeLessThan(text.length);
      }),
      { numRuns: 300 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);

  it('tells a question about the time itself from one about a subject, in both languages', () => {
    for (const topic of ['What did we talk about?', 'What did I tell you?', 'Anything else we discussed?', '我们聊了什么?', '我跟你说过什么', '']) {
      expect(aboutTheTimeItself(topic), topic).toBe(true);
    }
    for (const topic of ['What did I tell you about the dentist?', 'What should I cook for dinner?', '牙医说了什么', '我做饭用什么油']) {
      expect(aboutTheTimeItself(topic), topic).toBe(false);
    }
  });
});
