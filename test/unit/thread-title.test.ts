import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { columnsOf, cutToColumns, TITLE_MAX_COLUMNS, titleLine } from '../../electron/core/chat/title.job';

const graphemeEnds = (text: string) => {
  const ends = new Set([0]);
  let at = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)) ends.add((at += segment.length));
  return ends;
};

describe('titleLine', () => {
  it('keeps one clean line: no reasoning, quotes, "Title:" or final period', () => {
    expect(titleLine('<think>They talk about gardens.</think>\n"Garden plans."\nMore text')).toBe('Garden plans');
    expect(titleLine('They talk about gardens.</think>\nGarden plans')).toBe('Garden plans'); // a template-opened block
    expect(titleLine('<think>Still thinking about gardens')).toBe('');
    expect(titleLine('Title: Spring planting')).toBe('Spring planting');
    expect(titleLine('标题：《春季种植计划》。')).toBe('春季种植计划');
  });
});

describe('cutToColumns', () => {
  it('leaves a title that fits alone', () => {
    expect(cutToColumns('Garden plans', TITLE_MAX_COLUMNS)).toBe('Garden plans');
    expect(cutToColumns('春季种植计划', TITLE_MAX_COLUMNS)).toBe('春季种植计划');
  });

  it('cuts English at a word, without a dangling comma or space', () => {
    expect(cutToColumns('Planning a vegetable garden, with tomatoes and basil', 30)).toBe('Planning a vegetable garden…');
  });

  it('counts a Chinese character as two columns and cuts between words', () => {
    const cut = cutToColumns('我想在春天种番茄和黄瓜还有一些香草和辣椒', 20);
    expect(cut).toBe('我想在春天种番茄和…');
    expect(columnsOf(cut)).toBeLessThanOrEqual(20);
  });

  it('cuts a single over-long word between characters, never inside an emoji', () => {
    expect(cutToColumns('https://example.com/a/very/long/path/that/goes/on', 20)).toBe('https://example.com…');
    const family = '👨‍👩‍👧';
    const cut = cutToColumns(family.repeat(20), 10);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.slice(0, -1).length % family.length).toBe(0);
  });

  it('fits the width, keeps a prefix of the text ending between characters, marks the cut (property)', () => {
    const text = fc.oneof(
      fc.string({ maxLength: 120 }),
      fc.array(fc.constantFrom('garden', 'plan', '春天', '番茄', '😀', '👍🏽', 'é', ' ', ', ', '—', '東京'), { maxLength: 60 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 80 }), (raw, max) => {
        const out = cutToColumns(raw, max);
        if (columnsOf(raw) <= max) {
          expect(out).toBe(raw);
          return;
        }
        expect(columnsOf(out)).toBeLessThanOrEqual(max);
        expect(out.endsWith('…')).toBe(true);
        const kept = out.slice(0, -1);
        expect(raw.startsWith(kept)).toBe(true);
        expect(graphemeEnds(raw).has(kept.length)).toBe(true);
      }),
    );
  });
});
