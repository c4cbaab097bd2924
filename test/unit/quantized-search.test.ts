import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BandMemory,
  JUDGED,
  MAX_GROWTH,
  MIN_CANDIDATES,
  nearestByBands,
  needsMoreCandidates,
  OVERSAMPLE,
  planSearch,
  SCAN_PER_LOOKUP,
  type BandProbe,
  type Scored,
} from '../../electron/core/search/quantized-search';

/** A probe over a list, with vec0's semantics: the k nearest with lo < distance <= hi, nearest first. */
function probeOver(items: readonly Scored[]): { probe: BandProbe; calls: Array<{ k: number; lo: number; hi: number }> } {
  const calls: Array<{ k: number; lo: number; hi: number }> = [];
  const sorted = [...items].sort((a, b) => a.distance - b.distance || a.id - b.id);
  return {
    calls,
    probe: (k, lo, hi) => {
      calls.push({ k, lo, hi });
      return sorted.filter((r) => r.distance > lo && r.distance <= hi).slice(0, k);
    },
  };
}

const MAX_DISTANCE = 64;
const itemsArb = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 5000 }), distance: fc.integer({ min: 0, max: MAX_DISTANCE }) }), {
  selector: (r) => r.id,
  maxLength: 300,
});

describe('nearestByBands', () => {
  it('returns exactly the distances of the want nearest, whatever the first bound and step', () => {
    fc.assert(
      fc.property(itemsArb, fc.integer({ min: 1, max: 120 }), fc.integer({ min: -5, max: 80 }), fc.integer({ min: 1, max: 20 }), (items, want, start, firstStep) => {
        const { probe } = probeOver(items);
        const { rows } = nearestByBands(probe, want, { start, maxDistance: MAX_DISTANCE, firstStep });
        const expected = items
          .map((r) => r.distance)
          .sort((a, b) => a - b)
          .slice(0, want);
        expect(rows.map((r) => r.distance)).toEqual(expected);
        expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      }),
    );
  });

  it('asks each band only for what is still missing, in bands that never overlap and grow', () => {
    fc.assert(
      fc.property(itemsArb, fc.integer({ min: 1, max: 120 }), fc.integer({ min: 0, max: 64 }), fc.integer({ min: 1, max: 8 }), (items, want, start, firstStep) => {
        const { probe, calls } = probeOver(items);
        const { rows, probes } = nearestByBands(probe, want, { start, maxDistance: MAX_DISTANCE, firstStep });
        expect(probes).toBe(calls.length);
        let got = 0;
        calls.forEach((c, i) => {
          expect(c.k).toBe(want - got);
          got += Math.min(c.k, probeOver(items).probe(c.k, c.lo, c.hi).length);
          if (i > 0) {
            expect(c.lo).toBe(calls[i - 1]!.hi);
            if (i > 1 && c.hi < MAX_DISTANCE) expect(c.hi - c.lo).toBe(2 * (calls[i - 1]!.hi - calls[i - 1]!.lo));
          }
        });
        // Galloping: from any first bound, the largest distance is reached within log2(max / step + 1) + 1 probes.
        expect(probes).toBeLessThanOrEqual(Math.ceil(Math.log2(MAX_DISTANCE / firstStep + 1)) + 1);
        expect(rows.length).toBe(Math.min(want, items.length));
      }),
    );
  });

  it('takes one probe when the first bound already holds enough', () => {
    const items = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, distance: i % 10 }));
    const { probe, calls } = probeOver(items);
    expect(nearestByBands(probe, 12, { start: 5, maxDistance: 64, firstStep: 4 }).probes).toBe(1);
    expect(calls).toEqual([{ k: 12, lo: -1, hi: 5 }]);
  });
});

describe('planSearch', () => {
  const opts = { exactBelow: 5000, maxK: 4096 };

  it('scans exactly below exactBelow, and whenever the candidates would cost more than the scan', () => {
    expect(planSearch(10, 4999, { ...opts, strategy: 'auto' })).toEqual({ mode: 'exact' });
    expect(planSearch(10, 5000, { ...opts, strategy: 'auto' })).toEqual({ mode: 'quantized', first: MIN_CANDIDATES, limit: 250 });
    expect(planSearch(100, 5000, { ...opts, strategy: 'auto' })).toEqual({ mode: 'exact' }); // 400 candidates > 5000 / 20
    expect(planSearch(10, 100_000, { ...opts, strategy: 'auto' })).toEqual({ mode: 'quantized', first: 200, limit: 200 * MAX_GROWTH });
    expect(planSearch(100, 100_000, { ...opts, strategy: 'auto' })).toEqual({ mode: 'quantized', first: 100 * OVERSAMPLE, limit: 100 * OVERSAMPLE * MAX_GROWTH });
  });

  it('forced quantized still scans when the bit pass would select every vector', () => {
    expect(planSearch(10, 150, { ...opts, strategy: 'quantized' })).toEqual({ mode: 'exact' });
    expect(planSearch(10, 1000, { ...opts, strategy: 'quantized' })).toEqual({ mode: 'quantized', first: 200, limit: 800 });
  });

  it('keeps every plan within sqlite-vec’s k, the vector count and (auto) the cost of the scan', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4096 }), fc.integer({ min: 1, max: 2_000_000 }), fc.constantFrom('auto' as const, 'quantized' as const), (k, total, strategy) => {
        const plan = planSearch(k, total, { ...opts, strategy });
        if (plan.mode === 'exact') return;
        expect(plan.first).toBeGreaterThanOrEqual(Math.min(4096, k));
        expect(plan.first).toBeLessThan(total);
        expect(plan.limit).toBeGreaterThanOrEqual(plan.first);
        expect(plan.limit).toBeLessThanOrEqual(Math.min(4096, total));
        if (strategy === 'auto') {
          expect(total).toBeGreaterThanOrEqual(opts.exactBelow);
          expect(plan.limit).toBeLessThanOrEqual(Math.max(plan.first, total / SCAN_PER_LOOKUP));
          expect(plan.first).toBeLessThanOrEqual(total / SCAN_PER_LOOKUP);
        }
      }),
    );
  });
});

describe('needsMoreCandidates', () => {
  it('asks for more when one of the best JUDGED came from the second half of the list', () => {
    expect(needsMoreCandidates([0, 3, 1, 7, 2], 200)).toBe(false);
    expect(needsMoreCandidates([0, 3, 1, 150, 2], 200)).toBe(true);
    expect(needsMoreCandidates([0, 3, 1, 100, 2], 200)).toBe(true); // half way counts as deep
    const head = Array.from({ length: JUDGED }, (_, i) => i);
    expect(needsMoreCandidates([...head, 199], 200)).toBe(false); // beyond the judged head
    expect(needsMoreCandidates([...head.slice(1), 199], 200)).toBe(true);
    expect(needsMoreCandidates([], 200)).toBe(false);
  });

  it('judges as many as the caller asks for, and at least the nearest one', () => {
    expect(needsMoreCandidates([0, 1, 2, 150], 200, 3)).toBe(false); // the deep one is fourth: not judged
    expect(needsMoreCandidates([0, 1, 150, 2], 200, 3)).toBe(true);
    expect(needsMoreCandidates([150, 0], 200, 0)).toBe(true);
    expect(needsMoreCandidates([0, 150], 200, 0)).toBe(false);
  });
});

describe('BandMemory', () => {
  it('starts from a high quantile of the distances recent queries needed', () => {
    const m = new BandMemory(4, 0.75);
    expect(m.start(200)).toBeNull();
    for (const d of [150, 140, 160, 145]) m.record(200, d);
    expect(m.start(200)).toBe(150); // 3rd of [140, 145, 150, 160]
    m.record(200, 100); // the oldest (150) leaves
    expect(m.start(200)).toBe(145); // 3rd of [100, 140, 145, 160]
  });

  it('borrows the bound of the largest smaller count (a lower bound) and never a larger one', () => {
    const m = new BandMemory();
    m.record(200, 150);
    m.record(800, 170);
    expect(m.start(400)).toBe(150);
    expect(m.start(100)).toBeNull();
    m.clear();
    expect(m.start(200)).toBeNull();
  });
});
