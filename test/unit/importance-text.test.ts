/** Importance said one way on every screen (renderer/src/memories/memory-draft.ts importanceText): a word, the number aside. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { translate, type Language } from '../../renderer/src/i18n/i18n';
import type { Translate } from '../../renderer/src/i18n/use-t';
import { importanceText } from '../../renderer/src/memories/memory-draft';

const tIn = (language: Language): Translate => (key, params) => translate(language, key, params);

describe('importance in words', () => {
  it('names the level in English and Chinese, with the exact number beside it', () => {
    expect(importanceText(0.8, tIn('en'), 'en')).toEqual({ word: 'high', exact: '0.8' });
    expect(importanceText(0.5, tIn('en'), 'en')).toEqual({ word: 'medium', exact: '0.5' });
    expect(importanceText(0.1, tIn('en'), 'en')).toEqual({ word: 'low', exact: '0.1' });
    expect(importanceText(0.8, tIn('zh-CN'), 'zh-CN').word).toBe(translate('zh-CN', 'memory.importanceLevel.high'));
  });

  it('a higher importance never reads as a lower level', () => {
    const rank = { low: 0, medium: 1, high: 2 } as Record<string, number>;
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(rank[importanceText(lo, tIn('en'), 'en').word]!).toBeLessThanOrEqual(rank[importanceText(hi, tIn('en'), 'en').word]!);
      }),
    );
  });
});
