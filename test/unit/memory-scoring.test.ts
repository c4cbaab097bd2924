import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finalScore, normalizedRrf, ranksWithTies, reciprocalRankFusion, recencyFactor, RRF_K, rrfTerm } from '../../electron/core/search/memory-scoring';

const DAY = 86_400_000;
const unit = fc.double({ min: 0, max: 1, noNaN: true });
const weights = fc.record({ similarity: unit, importance: unit, recency: unit });
const parts = fc.record({ relevance: unit, importance: unit, recency: unit });

describe('recencyFactor', () => {
  it('halves every half-life and is 1 for now or a future time (clock moved back)', () => {
    expect(recencyFactor(0, 30)).toBe(1);
    expect(recencyFactor(-5 * DAY, 30)).toBe(1);
    expect(recencyFactor(30 * DAY, 30)).toBeCloseTo(0.5, 12);
    expect(recencyFactor(90 * DAY, 30)).toBeCloseTo(0.125, 12);
  });

  it('lies in (0, 1] and never increases with age', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 3650 * DAY, noNaN: true }), fc.double({ min: 0, max: 3650 * DAY, noNaN: true }), fc.double({ min: 0.01, max: 3650, noNaN: true }), (a, b, halfLife) => {
        const [young, old] = a <= b ? [a, b] : [b, a];
        const r = recencyFactor(young, halfLife);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r).toBeLessThanOrEqual(1);
        expect(recencyFactor(old, halfLife)).toBeLessThanOrEqual(r);
      }),
    );
  });
});

describe('finalScore', () => {
  it('is the weighted sum', () => {
    expect(finalScore({ relevance: 1, importance: 0.5, recency: 0.25 }, { similarity: 0.6, importance: 0.25, recency: 0.15 })).toBeCloseTo(0.6 + 0.125 + 0.0375, 12);
  });

  it('lies in [0, sum of weights] and never decreases when a part grows (importance, relevance, recency)', () => {
    fc.assert(
      fc.property(weights, parts, unit, fc.constantFrom('relevance', 'importance', 'recency') as fc.Arbitrary<'relevance' | 'importance' | 'recency'>, (w, p, bigger, key) => {
        const s = finalScore(p, w);
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(w.similarity + w.importance + w.recency + 1e-12);
        const raised = { ...p, [key]: Math.max(p[key], bigger) };
        expect(finalScore(raised, w)).toBeGreaterThanOrEqual(s);
      }),
    );
  });
});

describe('ranksWithTies', () => {
  it('gives equal scores one rank and skips after them', () => {
    const ranks = ranksWithTies([
      { id: 1, score: 0.5 },
      { id: 2, score: 0.9 },
      { id: 3, score: 0.5 },
      { id: 4, score: 0.1 },
    ]);
    expect(Object.fromEntries(ranks)).toEqual({ 2: 1, 1: 2, 3: 2, 4: 4 });
  });

  it('keeps the best score of an id listed twice', () => {
    expect(Object.fromEntries(ranksWithTies([{ id: 1, score: 0.1 }, { id: 2, score: 0.5 }, { id: 1, score: 0.9 }]))).toEqual({ 1: 1, 2: 2 });
  });
});

const scoredList = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 40 }), score: fc.integer({ min: 0, max: 5 }) }), { selector: (x) => x.id, maxLength: 20 });

describe('reciprocalRankFusion', () => {
  it('is first for an id first in every list, and uses 1 / (k + rank)', () => {
    const fused = reciprocalRankFusion([
      [{ id: 7, score: 3 }, { id: 8, score: 2 }],
      [{ id: 7, score: 0.9 }, { id: 9, score: 0.1 }],
    ]);
    expect(fused[0]).toEqual({ id: 7, score: 2 / (RRF_K + 1) });
    expect(fused.slice(1).map((f) => f.id)).toEqual([9, 8]); // equal scores: newer (larger) id first
  });

  it('does not depend on the order of the lists nor on the order of tied items within a list', () => {
    fc.assert(
      fc.property(fc.array(scoredList, { minLength: 1, maxLength: 4 }), fc.infiniteStream(fc.double({ noNaN: true })), (lists, noise) => {
        const it = noise[Symbol.iterator]();
        const shuffle = <T>(xs: readonly T[]) => xs.map((x) => ({ x, k: it.next().value as number })).sort((a, b) => a.k - b.k).map((e) => e.x);
        const reordered = shuffle(lists).map((l) => shuffle(l));
        expect(reciprocalRankFusion(reordered)).toEqual(reciprocalRankFusion(lists));
      }),
    );
  });

  it('never ranks an id lower when it moves up in one list', () => {
    fc.assert(
      fc.property(scoredList.filter((l) => l.length >= 2), fc.nat(), (list, pick) => {
        const target = list[pick % list.length]!;
        const before = reciprocalRankFusion([list]).find((f) => f.id === target.id)!.score;
        const boosted = list.map((x) => (x.id === target.id ? { ...x, score: x.score + 1 } : x));
        expect(reciprocalRankFusion([boosted]).find((f) => f.id === target.id)!.score).toBeGreaterThanOrEqual(before);
      }),
    );
  });
});

describe('normalizedRrf', () => {
  it('is 1 when first in every list that ran, 0 when in none, and half when first in one of two', () => {
    expect(normalizedRrf([1, 1], 2)).toBe(1);
    expect(normalizedRrf([1], 1)).toBe(1);
    expect(normalizedRrf([null, null], 2)).toBe(0);
    expect(normalizedRrf([1, null], 2)).toBeCloseTo(0.5, 12);
    expect(normalizedRrf([3, null], 1)).toBeCloseTo(rrfTerm(3) / rrfTerm(1), 12);
  });

  it('stays in [0, 1] and falls as a rank grows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5000 }), fc.integer({ min: 1, max: 5000 }), fc.option(fc.integer({ min: 1, max: 5000 })), (a, b, other) => {
        const [better, worse] = a <= b ? [a, b] : [b, a];
        const hi = normalizedRrf([better, other], 2);
        expect(hi).toBeGreaterThan(0);
        expect(hi).toBeLessThanOrEqual(1);
        expect(normalizedRrf([worse, other], 2)).toBeLessThanOrEqual(hi);
      }),
    );
  });
});
