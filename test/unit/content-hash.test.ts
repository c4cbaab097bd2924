import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash, normalizeForHash } from '../../electron/core/memory/content-hash';

describe('contentHash', () => {
  it('ignores case, spacing, punctuation and Unicode width', () => {
    const h = contentHash('I like tea.');
    for (const same of ['i like tea', '  I  LIKE   tea!!! ', 'I like, tea', 'Ｉ ｌｉｋｅ ｔｅａ', 'I\nlike\ttea…']) expect(contentHash(same)).toBe(h);
  });

  it('keeps letters, digits, accents and CJK characters significant', () => {
    const variants = ['I like tea', 'I like teas', 'I like tea 2', 'I liké tea', '我喜欢茶', '我喜欢咖啡'];
    expect(new Set(variants.map(contentHash)).size).toBe(variants.length);
  });

  it('normalizes Chinese punctuation and full-width spaces like ASCII ones', () => {
    expect(normalizeForHash('我喜欢茶。　真的！')).toBe('我喜欢茶 真的');
  });

  it('is a 64-character hex digest, idempotent under normalization', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        expect(contentHash(text)).toMatch(/^[0-9a-f]{64}$/);
        expect(normalizeForHash(normalizeForHash(text))).toBe(normalizeForHash(text));
        expect(contentHash(normalizeForHash(text))).toBe(contentHash(text));
        expect(contentHash(`  ${text.toUpperCase()} . `)).toBe(contentHash(text.toUpperCase()));
      }),
    );
  });
});
