/** An import preview row shows a long line's start, with an ellipsis and its full length (renderer/src/transfer/preview-text.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PREVIEW_CHARS, previewText } from '../../renderer/src/transfer/preview-text';

describe('import preview text', () => {
  it('a 5,000-character line is cut to its start, marked, and its length said', () => {
    const shown = previewText('x'.repeat(5000));
    expect(shown).toEqual({ text: `${'x'.repeat(PREVIEW_CHARS)}…`, length: 5000, cut: true });
  });

  it('a line that fits is shown whole, unmarked', () => {
    expect(previewText('Prefers green tea')).toEqual({ text: 'Prefers green tea', length: 17, cut: false });
    expect(previewText('x'.repeat(PREVIEW_CHARS)).cut).toBe(false);
  });

  it('cuts at whole characters (Chinese, emoji), counting characters, not UTF-16 units', () => {
    const line = '喜欢绿茶🍵'.repeat(100);
    const shown = previewText(line, 7);
    expect(shown).toEqual({ text: '喜欢绿茶🍵喜欢…', length: 500, cut: true });
  });

  it('whatever the text, the shown part is a prefix of it and never longer than the cap and its mark', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.integer({ min: 1, max: 300 }), (text, max) => {
        const shown = previewText(text, max);
        const body = shown.cut ? shown.text.slice(0, -1) : shown.text;
        expect(text.startsWith(body)).toBe(true);
        expect(Array.from(body).length).toBeLessThanOrEqual(max);
        expect(shown.cut).toBe(Array.from(text).length > max);
      }),
    );
  });
});
