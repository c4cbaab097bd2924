/**
 * The decisions of the binary-quantized first pass of vector search (vector-index.ts), kept free of SQL so they can
 * be tested on their own: how many candidates to re-score, and how to find the nearest candidates by hamming distance
 * cheaply with sqlite-vec.
 *
 * Why bands: sqlite-vec 0.1.9 picks each chunk's best k by k passes over the chunk, so an unbounded hamming KNN for
 * a few hundred candidates over 100k vectors costs more than the float scan it is meant to replace. A distance bound
 * (`distance > lo AND distance <= hi`) is applied before that selection, so a bound just above the distance the
 * candidates need leaves only a few hundred vectors to select from. The bound is learned from recent queries; a
 * query that needs more widens it in bands of growing width. Bands never overlap and each asks only for what is still
 * missing, so together they return exactly the `want` nearest, as one unbounded query would (up to ties).
 */

/** Candidates re-scored per wanted neighbour at first, and at least MIN_CANDIDATES. Tuned on the retrieval benchmark. */
export const OVERSAMPLE = 4;
export const MIN_CANDIDATES = 200;
/** A hard query may re-score up to this many times the first list. */
export const MAX_GROWTH = 4;
/**
 * Vectors the float scan goes through in the time one candidate is re-scored: a vec0 point lookup (rowid -> chunk,
 * blob open, read) costs about 6 us, the scan about 0.5 us a vector, so 12; 20 leaves room for the bit pass itself.
 * Auto mode takes the scan when the candidates would cost more.
 */
export const SCAN_PER_LOOKUP = 20;

export type SearchPlan = { mode: 'exact' } | { mode: 'quantized'; first: number; limit: number };

/**
 * How to find k neighbours among `total` vectors. 'auto' takes the exact float scan below `exactBelow` vectors and
 * whenever the candidates would cost more to re-score than the scan; 'quantized' forces the bit pass (tests,
 * benchmarks) unless it would have to select every vector anyway. `maxK` is sqlite-vec's cap on k.
 */
export function planSearch(k: number, total: number, options: { strategy: 'auto' | 'quantized'; exactBelow: number; maxK: number }): SearchPlan {
  const first = Math.min(options.maxK, Math.max(k * OVERSAMPLE, MIN_CANDIDATES));
  if (first >= total) return { mode: 'exact' };
  if (options.strategy === 'quantized') return { mode: 'quantized', first, limit: Math.min(options.maxK, total, first * MAX_GROWTH) };
  const affordable = Math.floor(total / SCAN_PER_LOOKUP);
  if (total < options.exactBelow || first > affordable) return { mode: 'exact' };
  return { mode: 'quantized', first, limit: Math.max(first, Math.min(options.maxK, first * MAX_GROWTH, affordable)) };
}

/**
 * The leading results whose hamming ranks decide whether the candidate list was long enough, by default: the ones a
 * hybrid search's ranking leans on most (the tail of a 100-deep semantic list moves its top 10 little). A caller
 * that shows fewer results judges fewer (vector-index.ts, KnnOptions.judged).
 */
export const JUDGED = 30;

/**
 * Whether to re-score a longer candidate list: when one of the best `judgedCount` results (by exact distance) ranked
 * in the second half of the candidates by hamming distance, a longer list is likely to hold better ones. Easy queries
 * (a dense group of close neighbours) stop at the first list; sparse ones, where hamming ranks scatter, get more.
 *
 * `hammingRanks` are the 0-based ranks in the candidate list of the results, best result first.
 */
export function needsMoreCandidates(hammingRanks: readonly number[], candidates: number, judgedCount = JUDGED): boolean {
  const judged = hammingRanks.slice(0, Math.max(1, judgedCount));
  return judged.length > 0 && Math.max(...judged) >= candidates / 2;
}

export interface Scored {
  id: number;
  distance: number;
}

/** The `k` nearest with lo < distance <= hi, nearest first. */
export type BandProbe = (k: number, lo: number, hi: number) => Scored[];

export interface BandSearch {
  /** Upper bound of the first band (the learned guess). */
  start: number;
  /** The largest possible distance (the number of bits): a band reaching it contains everything left. */
  maxDistance: number;
  /** Width of the second band; each further band is twice as wide as the one before. */
  firstStep: number;
}

/** The `want` nearest by distance (fewer only if the index holds fewer), nearest first, and the probes it took. */
export function nearestByBands(probe: BandProbe, want: number, search: BandSearch): { rows: Scored[]; probes: number } {
  const rows: Scored[] = [];
  if (want <= 0) return { rows, probes: 0 };
  let lo = -1;
  let hi = Math.max(0, Math.min(search.start, search.maxDistance));
  let step = Math.max(1, search.firstStep);
  let probes = 0;
  for (;;) {
    const band = probe(want - rows.length, lo, hi);
    probes++;
    // A band that returned fewer than asked held no more: everything up to `hi` is now in `rows`.
    for (const r of band) rows.push(r);
    if (rows.length >= want || hi >= search.maxDistance) break;
    lo = hi;
    hi = Math.min(search.maxDistance, hi + step);
    step *= 2;
  }
  return { rows: rows.slice(0, want), probes };
}

/**
 * The distances recent queries needed (the distance of their want-th candidate), per candidate count. The next
 * query's first band ends at a high quantile of them: most queries then need one probe, and an outlier query does
 * not make the following ones scan wide.
 */
export class BandMemory {
  private readonly recent = new Map<number, number[]>();

  constructor(
    private readonly keep = 16,
    private readonly quantile = 0.85,
  ) {}

  /**
   * The learned first bound for `want` candidates; without history for that count, the bound learned for the largest
   * smaller count (a lower bound: fewer candidates need no more distance), else null.
   */
  start(want: number): number | null {
    let seen = this.recent.get(want);
    if (!seen) {
      const smaller = [...this.recent.keys()].filter((w) => w < want);
      if (smaller.length > 0) seen = this.recent.get(Math.max(...smaller));
    }
    if (!seen || seen.length === 0) return null;
    const sorted = [...seen].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(this.quantile * sorted.length) - 1)]!;
  }

  record(want: number, needed: number): void {
    let seen = this.recent.get(want);
    if (!seen) {
      // A handful of candidate counts occur in practice (one per caller's k); a bound keeps a stray one from growing it.
      if (this.recent.size >= 16) this.recent.clear();
      seen = [];
      this.recent.set(want, seen);
    }
    seen.push(needed);
    if (seen.length > this.keep) seen.shift();
  }

  clear(): void {
    this.recent.clear();
  }
}
