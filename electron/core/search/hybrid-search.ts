/**
 * Ranks the candidates of one hybrid search, without touching the database: the service gathers the nearest vectors
 * (vec0 KNN) and the keyword matches (FTS5 BM25), drops the memories the filters exclude, and hands both lists here.
 *
 * - A semantic candidate below `minSimilarity` is not a semantic match (it keeps only its keyword rank, if any). The
 *   service passes semanticFloor(...) below: the user's setting, raised to what stands out from the query's background.
 * - Ranks are counted among the eligible candidates, so filters never leave holes in them, and equal scores share a
 *   rank, so two equally good matches are equally relevant whatever order the index returned them in.
 * - Keyword-only mode (no query vector: semantic search off) is the same computation over one list.
 * - reason: 'pinned' for a pinned memory; otherwise whichever of the semantic share of relevance, the keyword share
 *   and recency contributed most to the score (ties: semantic, then keyword). Importance is not a reason: it says how
 *   much a memory matters, not why it was found.
 */
import type { MemoryReason } from '../../../shared/contract';
import { finalScore, normalizedRrf, ranksWithTies, recencyFactor, rrfTerm, type ScoreWeights } from './memory-scoring';

export interface SemanticCandidate {
  id: number;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
}

export interface RankableMemory {
  id: number;
  importance: number;
  pinned: boolean;
  /** Recency counts from the last change (an edit, a merge, a re-mention), not from the last use: using a memory must not keep it fresh. */
  updatedAt: number;
}

export interface HitParts {
  similarity: number | null;
  semanticRank: number | null;
  keywordRank: number | null;
  relevance: number;
  importance: number;
  recency: number;
}

export interface RankedHit<M> {
  memory: M;
  score: number;
  parts: HitParts;
  reason: MemoryReason;
}

export interface RankInput<M extends RankableMemory> {
  /** Nearest vectors (any order), or null when there is no query vector. */
  semantic: SemanticCandidate[] | null;
  /** Keyword matches scored so that higher is better (e.g. -bm25 from FTS5's rank), or null when the query has no searchable words. */
  keyword: Array<{ id: number; score: number }> | null;
  /** The candidates that passed the filters; ids not in here are ignored. */
  eligible: ReadonlyMap<number, M>;
  weights: ScoreWeights;
  halfLifeDays: number;
  minSimilarity: number;
  now: number;
}

/**
 * A query is somewhat similar to everything: how similar depends on the embedding model (MiniLM puts unrelated texts
 * near 0.15, E5 near 0.8), so one fixed floor either lets every memory through or none. The background is the
 * similarity of the query's BACKGROUND_RANK-th nearest memory (the farthest of the neighbours when the store is
 * smaller); a semantic match must stand SEMANTIC_STANDOUT of the way from there to 1, and above the user's floor.
 * Measured on the retrieval-quality bench with all-MiniLM-L6-v2 (docs/BENCHMARKS.md): the fixed floor 0.3 kept an
 * unrelated memory in the prompt for 56% of the questions without an answer; this rule for about 19%, for a hit rate
 * 0.02 lower (0.927 against 0.947).
 */
export const SEMANTIC_STANDOUT = 0.3;
export const BACKGROUND_RANK = 100;
/** Fewer neighbours than this say nothing about the background: the user's floor alone applies. */
const MIN_BACKGROUND_NEIGHBOURS = 10;

/** The similarity floor for one query, from its nearest neighbours' similarities (any order) and the user's floor. */
export function semanticFloor(similarities: readonly number[], minSimilarity: number): number {
  if (similarities.length < MIN_BACKGROUND_NEIGHBOURS) return minSimilarity;
  const sorted = [...similarities].sort((a, b) => b - a);
  const background = Math.max(0, sorted[Math.min(BACKGROUND_RANK, sorted.length) - 1]!);
  return Math.max(minSimilarity, background + SEMANTIC_STANDOUT * (1 - background));
}

export function rankHybrid<M extends RankableMemory>(input: RankInput<M>): Array<RankedHit<M>> {
  const { eligible, weights } = input;
  const similarity = new Map<number, number>();
  for (const c of input.semantic ?? []) {
    if (eligible.has(c.id) && c.similarity >= input.minSimilarity && !similarity.has(c.id)) similarity.set(c.id, c.similarity);
  }
  const semanticRank = ranksWithTies([...similarity].map(([id, score]) => ({ id, score })));
  const keywordRank = ranksWithTies((input.keyword ?? []).filter((c) => eligible.has(c.id)));
  const listCount = (input.semantic !== null ? 1 : 0) + (input.keyword !== null ? 1 : 0);
  const norm = listCount * rrfTerm(1);

  const hits: Array<RankedHit<M>> = [];
  for (const id of new Set([...semanticRank.keys(), ...keywordRank.keys()])) {
    const memory = eligible.get(id)!;
    const sem = semanticRank.get(id) ?? null;
    const kw = keywordRank.get(id) ?? null;
    const parts: HitParts = {
      similarity: similarity.get(id) ?? null,
      semanticRank: sem,
      keywordRank: kw,
      relevance: normalizedRrf([sem, kw], listCount),
      importance: memory.importance,
      recency: recencyFactor(input.now - memory.updatedAt, input.halfLifeDays),
    };
    hits.push({ memory, score: finalScore(parts, weights), parts, reason: memory.pinned ? 'pinned' : mainReason(parts, weights, norm) });
  }
  return hits.sort((a, b) => b.score - a.score || b.memory.id - a.memory.id);
}

function mainReason(parts: HitParts, w: ScoreWeights, norm: number): MemoryReason {
  const semantic = norm > 0 ? (w.similarity * rrfTerm(parts.semanticRank)) / norm : 0;
  const keyword = norm > 0 ? (w.similarity * rrfTerm(parts.keywordRank)) / norm : 0;
  const recency = w.recency * parts.recency;
  if (semantic > 0 && semantic >= keyword && semantic >= recency) return 'semantic';
  if (keyword > 0 && keyword >= recency) return 'keyword';
  return 'recency';
}
