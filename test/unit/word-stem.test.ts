import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stemPrefix, stemWord } from '../../electron/core/text/word-stem';

describe('stemWord', () => {
  it('gives the word forms of the issue one stem', () => {
    for (const w of ['live', 'lives', 'lived', 'living']) expect(stemWord(w), w).toBe('live');
    for (const w of ['work', 'works', 'worked', 'working']) expect(stemWord(w), w).toBe('work');
    expect(stemWord('pets')).toBe(stemWord('pet'));
    expect(stemWord('cooking')).toBe(stemWord('cooks'));
  });

  it('keeps apart what Porter2 keeps apart', () => {
    expect(stemWord('news')).not.toBe(stemWord('new'));
    expect(stemWord('generous')).not.toBe(stemWord('general'));
  });

  it('leaves what is not a folded English word as it is', () => {
    for (const w of ['2019', 'x1', 'esp32', '咖啡', 'Lives', 'naïve']) expect(stemWord(w), w).toBe(w);
  });
});

describe('stemPrefix', () => {
  // Porter2's own exceptions, listed in word-stem.ts: their stem is not built from the word's letters.
  const EXCEPTIONS = new Set(['dying', 'lying', 'tying', 'skies']);

  it('is a prefix of every word with that stem (random words, and the suffixes Porter2 rewrites)', () => {
    const suffixes = ['', 's', 'es', 'ies', 'y', 'ing', 'ed', 'ly', 'ness', 'ation', 'ational', 'ization', 'bility', 'ility', 'ful', 'fulness', 'ement', 'ive', 'iveness', 'er', 'ers', 'e'];
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{1,10}$/), fc.constantFrom(...suffixes), (root, suffix) => {
        const word = root + suffix;
        fc.pre(!EXCEPTIONS.has(word));
        const prefix = stemPrefix(stemWord(word));
        expect(word.startsWith(prefix), `${word} -> ${stemWord(word)} -> ${prefix}`).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  it('drops only the letters Porter2 may have rewritten', () => {
    expect(stemPrefix('live')).toBe('liv');
    expect(stemPrefix('happi')).toBe('happ');
    expect(stemPrefix('possibl')).toBe('possi');
    expect(stemPrefix('work')).toBe('work');
    expect(stemPrefix('go')).toBe('go');
  });
});
