import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CALIBRATION_RATIO_MAX,
  CALIBRATION_RATIO_MIN,
  createTokenCalibrator,
  estimateTokens,
  fitsWithin,
  MAX_CHARS_PER_TOKEN,
  maxCharsWithin,
  prefixWithinTokens,
} from '../../electron/core/text/token-estimate';
import { fitToTokens, fitToTokensKeepingEnds } from '../../electron/core/llm/context-budget';
import { CountedString } from '../support/counted-string';
import { PROPERTY_TEST_TIMEOUT_MS } from '../support/timeouts';

// Han (BMP and extension B), kana and Hangul syllables, as whole code points.
const cjkChar = fc
  .oneof(
    fc.integer({ min: 0x4e00, max: 0x9fff }),
    fc.integer({ min: 0x20000, max: 0x2a6df }),
    fc.integer({ min: 0x3041, max: 0x30ff }),
    fc.integer({ min: 0xac00, max: 0xd7a3 }),
  )
  .map((c) => String.fromCodePoint(c));

// Everything the estimator distinguishes, including lone surrogates that split pairs across a concatenation.
const mixedText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 60 }),
  fc
    .array(fc.constantFrom('the', 'quick', ' ', '  ', '\n', '咖啡', '123', '...', ',', 'é', 'Привет', '😀', '\t'), {
      maxLength: 30,
    })
    .map((parts) => parts.join('')),
);

describe('estimateTokens', () => {
  it('is 0 for the empty string', () => {
    expect(estimateTokens('')).toBe(0);
  });

  it('counts an English sentence at about one token a word', () => {
    const n = estimateTokens('the quick brown fox jumps over the lazy dog');
    expect(n).toBeGreaterThanOrEqual(9);
    expect(n).toBeLessThanOrEqual(12);
  });

  it('counts Chinese at about one token a character', () => {
    expect(estimateTokens('我喜欢喝咖啡和茶')).toBe(8);
  });

  it('charges long words more than short ones and digits by group', () => {
    expect(estimateTokens('a')).toBe(1);
    expect(estimateTokens('internationalization')).toBe(5);
    expect(estimateTokens('12')).toBe(1);
    expect(estimateTokens('123456')).toBe(3);
  });

  it('lets a single space between words ride along', () => {
    expect(estimateTokens('cat dog')).toBe(estimateTokens('cat') + estimateTokens('dog'));
    expect(estimateTokens('cat\n\ndog')).toBeGreaterThan(estimateTokens('cat dog'));
  });

  it('counts surrogate pairs as astral characters, not as two unknowns', () => {
    expect(estimateTokens('😀😀')).toBe(3);
  });

  it('estimates N CJK characters within [0.5N, 2N]', () => {
    fc.assert(
      fc.property(fc.array(cjkChar, { minLength: 1, maxLength: 200 }), (chars) => {
        const n = estimateTokens(chars.join(''));
        expect(n).toBeGreaterThanOrEqual(0.5 * chars.length);
        expect(n).toBeLessThanOrEqual(2 * chars.length);
      }),
    );
  });

  it('is positive for any non-empty text except a single space', () => {
    fc.assert(
      fc.property(mixedText, (text) => {
        fc.pre(text !== '' && text !== ' ');
        expect(estimateTokens(text)).toBeGreaterThan(0);
      }),
    );
  });

  it('lies within [max, sum + 1] of its parts under concatenation', () => {
    fc.assert(
      fc.property(mixedText, mixedText, (a, b) => {
        const ea = estimateTokens(a);
        const eb = estimateTokens(b);
        const eab = estimateTokens(a + b);
        expect(eab).toBeGreaterThanOrEqual(Math.max(ea, eb));
        expect(eab).toBeLessThanOrEqual(ea + eb + 1);
      }),
      { numRuns: 500 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);
});

describe('createTokenCalibrator', () => {
  it('starts at 1 and passes estimates through', () => {
    const c = createTokenCalibrator();
    expect(c.ratio).toBe(1);
    expect(c.calibrated(100)).toBe(100);
  });

  it('converges towards a consistent ratio', () => {
    const c = createTokenCalibrator();
    for (let i = 0; i < 50; i++) c.observe(1000, 1300);
    expect(c.ratio).toBeCloseTo(1.3, 3);
    expect(c.calibrated(100)).toBe(130);
  });

  it('moves only a step on one extreme sample', () => {
    const c = createTokenCalibrator();
    expect(c.observe(1000, 3900)).toBe(true);
    expect(c.ratio).toBeCloseTo(2 ** 0.2, 6);
  });

  it('ignores implausible samples such as prompt-cache hits and tiny prompts', () => {
    const c = createTokenCalibrator({ initialRatio: 1.2 });
    expect(c.observe(1000, 40)).toBe(false);
    expect(c.observe(1000, 5000)).toBe(false);
    expect(c.observe(10, 15)).toBe(false);
    expect(c.observe(1000, 0)).toBe(false);
    expect(c.observe(Number.NaN, 100)).toBe(false);
    expect(c.ratio).toBe(1.2);
  });

  it('restores a persisted ratio, clamped to the bounds', () => {
    expect(createTokenCalibrator({ initialRatio: 1.37 }).ratio).toBe(1.37);
    expect(createTokenCalibrator({ initialRatio: 10 }).ratio).toBe(CALIBRATION_RATIO_MAX);
    expect(createTokenCalibrator({ initialRatio: 0 }).ratio).toBe(CALIBRATION_RATIO_MIN);
    expect(createTokenCalibrator({ initialRatio: Number.NaN }).ratio).toBe(1);
  });

  it('stays within bounds for any observation sequence', () => {
    const num = fc.oneof(fc.double(), fc.integer({ min: 0, max: 100_000 }));
    fc.assert(
      fc.property(
        fc.option(fc.double(), { nil: undefined }),
        fc.option(fc.double(), { nil: undefined }),
        fc.array(fc.tuple(num, num), { maxLength: 100 }),
        (initialRatio, smoothing, observations) => {
          const c = createTokenCalibrator({ initialRatio, smoothing });
          for (const [estimated, actual] of observations) {
            c.observe(estimated, actual);
            expect(c.ratio).toBeGreaterThanOrEqual(CALIBRATION_RATIO_MIN);
            expect(c.ratio).toBeLessThanOrEqual(CALIBRATION_RATIO_MAX);
          }
        },
      ),
    );
  });

  it('never returns a negative or non-integer budget', () => {
    fc.assert(
      fc.property(fc.double(), (estimate) => {
        const out = createTokenCalibrator({ initialRatio: 1.7 }).calibrated(estimate);
        expect(Number.isInteger(out)).toBe(true);
        expect(out).toBeGreaterThanOrEqual(0);
      }),
    );
  });
});

describe('prefixWithinTokens', () => {
  it('is the longest prefix the estimate keeps within the limit, as counting every prefix finds it (property)', () => {
    fc.assert(
      fc.property(mixedText, fc.integer({ min: -1, max: 40 }), (text, maxTokens) => {
        let longest = 0;
        for (let n = 0; n <= text.length; n++) if (estimateTokens(text.slice(0, n)) <= maxTokens) longest = n;
        expect(prefixWithinTokens(text, maxTokens)).toBe(maxTokens < 0 ? 0 : longest);
      }),
      { numRuns: 500 },
    );
  });

  it('makes fitToTokens cut exactly where the search by halving cuts (property)', () => {
    const halving = (text: string) => estimateTokens(text); // not estimateTokens itself: fitToTokens searches
    const long = fc.array(mixedText, { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(long, fc.integer({ min: 0, max: 200 }), (text, maxTokens) => {
        expect(fitToTokens(text, maxTokens, estimateTokens)).toBe(fitToTokens(text, maxTokens, halving));
      }),
      { numRuns: 500 },
    );
  });
});

describe('the bound on characters per token', () => {
  // Long mixes of everything the estimator distinguishes, with runs of spaces (the cheapest characters per token).
  const long = fc.array(fc.oneof(mixedText, fc.constantFrom(' '.repeat(50), ' a '.repeat(20), '\n\n', '😀😀')), { maxLength: 40 }).map((parts) => parts.join(''));

  it('no text costs less than one token per MAX_CHARS_PER_TOKEN characters, bar one (property)', () => {
    fc.assert(
      fc.property(long, (text) => {
        expect(estimateTokens(text)).toBeGreaterThanOrEqual((text.length - 1) / MAX_CHARS_PER_TOKEN);
        for (const n of [0, 1, 5, 40]) if (text.length > maxCharsWithin(n)) expect(estimateTokens(text)).toBeGreaterThan(n);
      }),
      { numRuns: 1000 },
    );
    // The cheapest texts there are: runs of spaces, and a single free space.
    expect(estimateTokens(' '.repeat(800))).toBe(100);
    expect(estimateTokens(' ')).toBe(0);
  });

  it('fitsWithin answers as counting the whole text does (property)', () => {
    fc.assert(
      fc.property(long, fc.oneof(fc.integer({ min: -2, max: 200 }), fc.double({ min: -2, max: 200, noNaN: true })), (text, maxTokens) => {
        expect(fitsWithin(text, maxTokens)).toBe(estimateTokens(text) <= maxTokens);
      }),
      { numRuns: 1000 },
    );
  });

  it('fitToTokensKeepingEnds cuts exactly as counting every candidate does (property)', () => {
    const counting = (text: string) => estimateTokens(text); // not estimateTokens itself: no bound is used
    fc.assert(
      fc.property(long, fc.integer({ min: 0, max: 200 }), (text, maxTokens) => {
        expect(fitToTokensKeepingEnds(text, maxTokens, estimateTokens)).toBe(fitToTokensKeepingEnds(text, maxTokens, counting));
      }),
      { numRuns: 500 },
    );
  });

  it('deciding that a long text does not fit reads no more of it than the bound', () => {
    const text = new CountedString('Quarterly revenue grew; 收入增长。\n'.repeat(20_000));
    expect(fitsWithin(text.asString(), 1000)).toBe(false);
    expect(text.reads).toBeLessThanOrEqual(maxCharsWithin(1000) + 1);
    text.reads = 0;
    expect(fitToTokens(text.asString(), 1000, estimateTokens).length).toBeLessThanOrEqual(maxCharsWithin(1000));
    expect(text.reads).toBeLessThanOrEqual(2 * (maxCharsWithin(1000) + 1));
  });
});
