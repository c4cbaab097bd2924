import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_RANK, rankHybrid, SEMANTIC_STANDOUT, semanticFloor, type RankableMemory } from '../../electron/core/search/hybrid-search';
import { PROPERTY_TEST_TIMEOUT_MS } from '../support/timeouts';

const NOW = Date.UTC(2026, 0, 1);
const W = { similarity: 0.6, importance: 0.25, recency: 0.15 };
const mem = (id: number, more: Partial<RankableMemory> = {}): RankableMemory => ({ id, importance: 0.5, pinned: false, updatedAt: NOW, ...more });
const base = { weights: W, halfLifeDays: 30, minSimilarity: 0.3, now: NOW };
const eligibleOf = (...ms: RankableMemory[]) => new Map(ms.map((m) => [m.id, m]));

describe('rankHybrid', () => {
  it('ranks agreement of both lists first and names the main reason', () => {
    const hits = rankHybrid({
      ...base,
      semantic: [
        { id: 1, similarity: 0.9 },
        { id: 2, similarity: 0.8 },
      ],
      keyword: [
        { id: 1, score: 5 },
        { id: 3, score: 4 },
      ],
      eligible: eligibleOf(mem(1), mem(2), mem(3)),
    });
    expect(hits.map((h) => [h.memory.id, h.reason])).toEqual([
      [1, 'semantic'],
      [3, 'keyword'],
      [2, 'semantic'],
    ]);
    expect(hits[0]!.parts).toMatchObject({ similarity: 0.9, semanticRank: 1, keywordRank: 1, relevance: 1 });
  });

  it('drops semantic candidates under minSimilarity and ids the filters excluded; ranks count only what is left', () => {
    const hits = rankHybrid({
      ...base,
      semantic: [
        { id: 9, similarity: 0.95 }, // filtered out (not eligible)
        { id: 1, similarity: 0.7 },
        { id: 2, similarity: 0.1 },
      ],
      keyword: null,
      eligible: eligibleOf(mem(1), mem(2)),
    });
    expect(hits.map((h) => [h.memory.id, h.parts.semanticRank])).toEqual([[1, 1]]);
  });

  it('keyword-only mode: the best keyword match has full relevance', () => {
    const [hit] = rankHybrid({ ...base, semantic: null, keyword: [{ id: 4, score: 2 }], eligible: eligibleOf(mem(4)) });
    expect(hit).toMatchObject({ reason: 'keyword', parts: { relevance: 1, similarity: null } });
  });

  it('calls a weak match found mainly for being recent "recency", and a pinned one "pinned"', () => {
    const keyword = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, score: 100 - i }));
    const eligible = eligibleOf(...keyword.map((k) => mem(k.id, { pinned: k.id === 2 })));
    const hits = rankHybrid({ ...base, semantic: [], keyword, eligible });
    expect(hits.find((h) => h.memory.id === 30)!.reason).toBe('recency');
    expect(hits.find((h) => h.memory.id === 2)!.reason).toBe('pinned');
    expect(hits.find((h) => h.memory.id === 1)!.reason).toBe('keyword');
  });

  const scored = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 30 }), score: fc.integer({ min: 0, max: 4 }) }), { selector: (x) => x.id, maxLength: 15 });

  it('scores never depend on the order of ties, and more importance never ranks a memory lower', () => {
    fc.assert(
      fc.property(scored, scored, fc.integer({ min: 1, max: 30 }), (sem, kw, target) => {
        const ids = new Set([...sem, ...kw].map((x) => x.id));
        const eligible = new Map([...ids].map((id) => [id, mem(id, { importance: (id % 7) / 7, updatedAt: NOW - id * 86_400_000 })]));
        const semantic = sem.map((s) => ({ id: s.id, similarity: 0.3 + s.score / 10 }));
        const run = (e: Map<number, RankableMemory>, s = semantic, k = kw) => rankHybrid({ ...base, semantic: s, keyword: k, eligible: e });
        const a = run(eligible);
        const b = run(eligible, [...semantic].reverse(), [...kw].reverse());
        expect(b.map((h) => [h.memory.id, h.score])).toEqual(a.map((h) => [h.memory.id, h.score]));
        if (!eligible.has(target)) return;
        const boosted = new Map(eligible).set(target, { ...eligible.get(target)!, importance: 1 });
        const pos = (hits: typeof a) => hits.findIndex((h) => h.memory.id === target);
        expect(pos(run(boosted))).toBeLessThanOrEqual(pos(a));
      }),
    );
  }, PROPERTY_TEST_TIMEOUT_MS);
});

describe('semanticFloor', () => {
  const background = (level: number, n = 100) => Array.from({ length: n }, (_, i) => level + (n - i) * 0.0001);

  it('raises the floor to what stands out from the query background, whatever the model scale', () => {
    // MiniLM-like: unrelated texts near 0.15; E5-like: near 0.8. The same share of the way to 1 in both.
    const low = background(0.15);
    expect(semanticFloor(low, 0.3)).toBeCloseTo(0.15 + 0.0001 + SEMANTIC_STANDOUT * (1 - 0.1501), 6);
    const high = background(0.8);
    expect(semanticFloor(high, 0.3)).toBeCloseTo(0.8001 + SEMANTIC_STANDOUT * 0.1999, 6);
    expect(semanticFloor(high, 0.3)).toBeGreaterThan(0.85);
  });

  it('reads the background at BACKGROUND_RANK, not from the best matches, and in any order', () => {
    const sims = [0.9, 0.7, ...background(0.1, 200)].reverse();
    const at = [...sims].sort((a, b) => b - a)[BACKGROUND_RANK - 1]!;
    expect(semanticFloor(sims, 0)).toBeCloseTo(at + SEMANTIC_STANDOUT * (1 - at), 9);
  });

  it("never goes below the user's floor, and keeps it alone when too few neighbours say nothing of the background", () => {
    expect(semanticFloor(background(-0.5), 0.3)).toBe(0.3);
    expect(semanticFloor([0.2, 0.1, 0.05], 0.3)).toBe(0.3);
    expect(semanticFloor([], 0.25)).toBe(0.25);
  });
});
