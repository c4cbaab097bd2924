/**
 * Two small renderer rules a user reads: a day typed and shown as the app's language writes it (format/day-text.ts),
 * whatever the browser's locale; and a long model name cut in the middle so its tag stays whole (model-label.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dayTextFormat, formatDayText, isDay, parseDayText } from '../../renderer/src/format/day-text';
import { modelShortName, splitForMiddleEllipsis } from '../../renderer/src/format/model-label';

const LETTERS = { en: { year: 'yyyy', month: 'mm', day: 'dd' }, 'zh-CN': { year: '年', month: '月', day: '日' } } as const;

describe('a day in the app’s language', () => {
  it('is shown month first in English and year first in Chinese, with the placeholder in the same order', () => {
    expect(formatDayText('2027-03-01', 'en')).toBe('03/01/2027');
    expect(formatDayText('2027-03-01', 'zh-CN')).toBe('2027/03/01');
    expect(dayTextFormat('en', LETTERS.en)).toBe('mm/dd/yyyy');
    expect(dayTextFormat('zh-CN', LETTERS['zh-CN'])).toBe('年/月/日');
    expect(formatDayText('', 'en')).toBe('');
  });

  it('is read with any separators, Chinese characters and full-width digits; a four-digit start is the year', () => {
    expect(parseDayText('3/1/2027', 'en')).toBe('2027-03-01');
    expect(parseDayText('2027-3-1', 'en')).toBe('2027-03-01');
    expect(parseDayText('2027年3月1日', 'zh-CN')).toBe('2027-03-01');
    expect(parseDayText('２０２７／０３／０１', 'zh-CN')).toBe('2027-03-01');
    expect(parseDayText(' 2027.03.01 ', 'zh-CN')).toBe('2027-03-01');
  });

  it('is not read when it is not one real day', () => {
    for (const [text, language] of [
      ['2026/2/30', 'zh-CN'],
      ['02/30/2026', 'en'],
      ['13/01/2026', 'en'],
      ['3/1/2027', 'zh-CN'], // a Chinese day starts with its year
      ['2027/3', 'en'],
      ['1/2/3/2027', 'en'],
      ['tomorrow', 'en'],
      ['01/01/1969', 'en'],
      ['', 'en'],
    ] as const) {
      expect(parseDayText(text, language), `${text} (${language})`).toBeNull();
    }
    expect(isDay('2026-02-30')).toBe(false);
    expect(isDay('2026-02-28')).toBe(true);
    expect(isDay('02/28/2026')).toBe(false);
  });

  it('reads back what it shows, in both languages, for every day', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(Date.UTC(1970, 0, 2)), max: new Date(Date.UTC(2999, 11, 31)), noInvalidDate: true }), fc.constantFrom('en' as const, 'zh-CN' as const), (date, language) => {
        const iso = date.toISOString().slice(0, 10);
        expect(parseDayText(formatDayText(iso, language), language)).toBe(iso);
      }),
    );
  });
});

describe('a long model name in a narrow picker', () => {
  it('drops the publisher path, never the tag', () => {
    expect(modelShortName('hf.co/bartowski/Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M')).toBe('Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M');
    expect(modelShortName('lmstudio-community/qwen2.5-7b-instruct')).toBe('qwen2.5-7b-instruct');
    expect(modelShortName('llama3.2')).toBe('llama3.2');
  });

  it('keeps a short tag whole at the end, or the last characters of a long one', () => {
    expect(splitForMiddleEllipsis('Meta-Llama-3.1-8B-Instruct-GGUF:Q4_K_M')).toEqual({ head: 'Meta-Llama-3.1-8B-Instruct-GGUF', tail: ':Q4_K_M' });
    expect(splitForMiddleEllipsis('qwen2.5-coder:32b-instruct-q4_K_M')).toEqual({ head: 'qwen2.5-coder:32b-instr', tail: 'uct-q4_K_M' });
    expect(splitForMiddleEllipsis('qwen3:4b')).toEqual({ head: 'qwen3:4b', tail: '' });
  });

  it('splits without losing or changing a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), (label) => {
        const { head, tail } = splitForMiddleEllipsis(label);
        expect(head + tail).toBe(label);
        expect([...tail].length).toBeLessThanOrEqual(12);
      }),
    );
  });
});
