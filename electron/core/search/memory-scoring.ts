/**
 * The arithmetic of retrieval, pure so it can be tested hard:
 *
 *   score = wSim * relevance + wImp * importance + wRec * recency
 *
 * - relevance: reciprocal rank fusion (RRF) of the semantic and keyword lists, divided by its largest possible value
 *   so it lies in [0, 1] (1: first in every list that ran). It is rank-based on purpose: cosine similarities and BM25
 *   scores live on incomparable scales, ranks do not.
 * - importance: the memory's own 0..1.
 * - recency: exp(-ln 2 * age / half-life), 1 for a memory changed now, 1/2 after one half-life; a future timestamp
 *   (clock moved back) counts as now.
 *
 * Invariants (property-tested): every part and the score lie in [0, wSim + wImp + wRec]; the score never decreases
 * when importance, recency or a rank improves; RRF does not depend on the order in which lists or ties are given.
 */

/**
 * The RRF constant. The literature's 60 suits lists of thousands; ours hold at most a few hundred candidates and only
 * the first dozen matter, and with 60 the first and the twentieth rank differ by a factor of 1.3, so importance would
 * drown relevance. With 10 that factor is 2.7.
 */
export const RRF_K = 10;

const DAY_MS = 86_400_000;

export interface ScoreWeights {
  similarity: number;
  importance: number;
  recency: number;
}

export interface ScoreInput {
  relevance: number;
  importance: number;
  recency: number;
}

/** Recency in (0, 1]: exponential decay with the given half-life (days). */
export function recencyFactor(ageMs: number, halfLifeDays: number): number {
  if (!(ageMs > 0)) return 1;
  if (!(halfLifeDays > 0)) return 0;
  return Math.exp((-Math.LN2 * ageMs) / (halfLifeDays * DAY_MS));
}

const clamp01 = (x: number) => (x > 1 ? 1 : x > 0 ? x : 0);

export function finalScore(parts: ScoreInput, w: ScoreWeights): number {
  return w.similarity * clamp01(parts.relevance) + w.importance * clamp01(parts.importance) + w.recency * clamp01(parts.recency);
}

/** 1 / (k + rank) for a 1-based rank; 0 when absent from the list. */
export function rrfTerm(rank: number | null, k = RRF_K): number {
  return rank === null || rank < 1 ? 0 : 1 / (k + rank);
}

/** RRF over a memory's ranks in `listCount` lists, scaled to [0, 1]. */
export function normalizedRrf(ranks: Array<number | null>, listCount: number, k = RRF_K): number {
  if (listCount <= 0) return 0;
  const sum = ranks
    .map((r) => rrfTerm(r, k))
    .sort((a, b) => a - b)
    .reduce((a, b) => a + b, 0);
  return clamp01(sum / (listCount * rrfTerm(1, k)));
}

/**
 * 1-based ranks by score (higher is better) where equal scores share a rank and the next rank skips ("1, 1, 3"), so
 * the order in which ties arrive (from a KNN scan or an FTS5 sort) cannot change a memory's rank. An id listed twice
 * keeps its best score.
 */
export function ranksWithTies(scored: ReadonlyArray<{ id: number; score: number }>): Map<number, number> {
  const best = new Map<number, number>();
  for (const { id, score } of scored) {
    const s = Number.isNaN(score) ? -Infinity : score;
    if (!best.has(id) || s > best.get(id)!) best.set(id, s);
  }
  const sorted = [...best].sort((a, b) => b[1] - a[1]);
  const ranks = new Map<number, number>();
  sorted.forEach(([id, score], i) => {
    const previous = i > 0 ? sorted[i - 1]! : null;
    ranks.set(id, previous && previous[1] === score ? ranks.get(previous[0])! : i + 1);
  });
  return ranks;
}

/**
 * Fuses scored lists (higher score is better; ties share a rank) into one order: by fused score, then by id
 * descending (newer first), so the result depends neither on the order of the lists nor on the order of ties.
 */
export function reciprocalRankFusion(lists: ReadonlyArray<ReadonlyArray<{ id: number; score: number }>>, k = RRF_K): Array<{ id: number; score: number }> {
  const terms = new Map<number, number[]>();
  for (const list of lists) {
    for (const [id, rank] of ranksWithTies(list)) {
      const t = terms.get(id);
      if (t) t.push(rrfTerm(rank, k));
      else terms.set(id, [rrfTerm(rank, k)]);
    }
  }
  // Summing in a fixed order makes the float result independent of the order of the lists.
  return [...terms]
    .map(([id, t]) => ({ id, score: t.sort((a, b) => a - b).reduce((a, b) => a + b, 0) }))
    .sort((a, b) => b.score - a.score || b.id - a.id);
}
