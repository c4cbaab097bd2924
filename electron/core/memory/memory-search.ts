/**
 * Finding memories: the memory list with its keyword filter, hybrid search (nearest vectors and keyword matches fused,
 * hybrid-search.ts), what a prompt is given, what extraction is shown, and the lookups dedup uses. Only reads: the
 * one exception is following a new model's dimension before a vector search (memory-vectors.ts, through the writer).
 *
 * Invariants:
 * - Prompt retrieval never returns a memory that is not active or is expired; pinned ones come first.
 * - Only vectors of the current model are compared with a query's: one of another model (same dimension, not yet
 *   replaced) is left out of the semantic list.
 * - The semantic floor is judged against all the neighbours, before filters: the background is the query's, not
 *   the filter's; and never fewer than BACKGROUND_RANK of them, so a prompt (which wants 12) and a search judge the
 *   same question alike.
 * - A prompt's retrieval waits for the question's embedding at most settings.retrieval.timeBudgetMs: past it, it
 *   ranks the keyword matches alone and says so (`semanticTimedOut`, shown in "what the model saw"). The embedding
 *   is not cancelled (the embedder has no way to), only no longer awaited. Browsing searches and tools wait.
 * - A question's time (`window`, time/time-window.ts) is not words to match: the relevance floor weighs the question
 *   without its phrase (`topic`), the whole question still ranks. The window orders, it does not exclude: memories
 *   learned in the window come first, the topic's other matches after them (a fact told long ago still answers "what
 *   did the dentist say last week?" when it is all the store knows); when nothing learned in the window matches a
 *   question that names no subject ("What did we talk about last week?", time-window.ts aboutTheTimeItself), the
 *   window's newest memories come first. A tool's explicit date range is a strict filter (MemoryFilters.learnedWithin).
 */
import type { Memory, MemoryReason, OpOutput, OpParsedInput, Settings } from '../../../shared/contract';
import type { Clock } from '../ports/clock.port';
import type { RetrieveInput } from '../ports/memory-retrieval.port';
import { toFtsQuery } from '../text/fts-text';
import { matchedWords } from '../text/matched-words';
import { termKeys } from '../text/meaningful-terms';
import { BACKGROUND_RANK, rankHybrid, semanticFloor, type RankedHit } from '../search/hybrid-search';
import type { KeywordHit, KeywordIndex, RelevantMatches } from '../search/keyword-index';
import { relevantMatches } from '../search/keyword-query';
import { aboutTheTimeItself, type TimeWindow } from '../time/time-window';
import { toMemory, type MemoryFilters, type MemoryRow, type MemorySortKey } from './memory.repo';
import type { MemoryStore } from './memory.store';
import { finalScore, recencyFactor } from '../search/memory-scoring';
import { formatMemoriesForPrompt } from './memory-prompt';
import type { MemoryVectors } from './memory-vectors';
import { JUDGED } from '../search/quantized-search';
import { MAX_K, type VectorIndex } from '../search/vector-index';

export interface PromptMemoryItem {
  memoryId: number;
  memory: Memory;
  score: number;
  reason: MemoryReason;
  /** The query's words the memory holds, for a memory its words helped find (text/matched-words.ts). */
  matched?: string[];
}

export type KeywordMode = 'search' | 'prompt' | 'related';

export interface SearchOptions {
  limit: number;
  keyword: KeywordMode;
  /** Candidates per list; default limit x 5 (min 100) semantic, limit x 10 (min 200) keyword. */
  depth?: { semantic: number; keyword: number };
  /** Memories learned within this window rank before the others (a question's time); the order within each part is kept. */
  learnedFirst?: TimeWindow | null;
  /** The query without its time phrase: what the relevance floor weighs (keyword-index.ts relevant). */
  topic?: string | undefined;
  /** Wait at most this long for the query's embedding, then search by keyword only (a prompt's time budget). */
  embedWithinMs?: number;
}

/** A search's hits, and whether semantic search was given up for taking longer than its time budget. */
export interface HybridResult {
  hits: Array<RankedHit<MemoryRow>>;
  mode: 'hybrid' | 'keyword';
  semanticTimedOut: boolean;
}

export interface MemorySearch {
  /** memory.list: filtered and sorted, a page at a time; `query` keeps the memories holding every word. */
  list(input: OpParsedInput<'memory.list'>): OpOutput<'memory.list'>;
  hybridSearch(query: string, filters: MemoryFilters, opts: SearchOptions): Promise<HybridResult>;
  retrieveForPrompt(input: RetrieveInput): Promise<{ items: PromptMemoryItem[]; text: string; semanticTimedOut: boolean }>;
  /** The memories learned within the window that pass the filters, newest first (a time without a topic). */
  newestLearnedWithin(filters: MemoryFilters, window: TimeWindow, limit: number): Array<RankedHit<MemoryRow>>;
  /** Active memories about what a message says (its terms ORed, like a prompt's retrieval, plus meaning). */
  related(text: string, limit: number): Promise<Memory[]>;
  /** Memories holding any of these words or CJK terms as written (the index's tokens, no stems), newest first. */
  withAnyWord(words: readonly string[], options: { limit: number } & MemoryFilters): Memory[];
  /** Memories with a vector of the current model nearest to `vector` (e.g. near-duplicates), nearest first. */
  nearest(vector: Float32Array, options: { limit: number; minSimilarity?: number } & MemoryFilters): Array<{ memory: Memory; similarity: number }>;
}

/** Pinned memories read per prompt at most (they are all meant to be used; this only bounds a pathological count). */
const MAX_PINNED = 500;
/** memory.search adds relevant matches (keyword-query.ts) when every term together matches fewer memories than this. */
const THIN_STRICT = 5;
/** Relevant matches read by that fallback at least (twice the limit when that is more). */
const RELEVANT_FALLBACK_DEPTH = 50;

/** Keyword candidates before filters: the search box's strict matches and a sentence's relevant ones. */
interface KeywordCandidates {
  strict: KeywordHit[];
  relevant: RelevantMatches | null;
  /** Drop relevant matches below the relevance floor. */
  floor: boolean;
}

export interface MemorySearchDeps {
  store: MemoryStore;
  clock: Clock;
  settings: () => Settings;
  keywords: KeywordIndex;
  index: VectorIndex;
  vectors: MemoryVectors;
}

export function createMemorySearch(deps: MemorySearchDeps): MemorySearch {
  const { store, clock, keywords, index, vectors } = deps;
  const now = () => clock.now();

  function loadRows(ids: readonly number[], filters: MemoryFilters, at: number): Map<number, MemoryRow> {
    const out = new Map<number, MemoryRow>();
    if (ids.length === 0) return out;
    for (const r of store.rowsAmong(ids, filters, at)) out.set(r.id, r);
    return out;
  }

  /**
   * The keyword candidates of a search, before filters; null when the query has nothing searchable.
   * - 'search' (memory.search, a search box): every term, the last one as a prefix while typing; when that finds fewer
   *   than THIN_STRICT, the relevant matches follow, so a question typed in natural language still finds what it means.
   * - 'prompt' (a chat message): the relevant matches.
   * - 'related' (extraction's known memories, judged by the model): the relevant matches without the relevance floor.
   */
  function keywordCandidates(query: string, mode: KeywordMode, limit: number, depth: number, topic?: string): KeywordCandidates | null {
    if (mode !== 'search') {
      const relevant = keywords.relevant(query, { depth, topic });
      return relevant && { strict: [], relevant, floor: mode === 'prompt' };
    }
    const strict = keywords.strict(query, { prefix: true, depth });
    const thin = (strict?.length ?? 0) < Math.min(limit, THIN_STRICT);
    // The fallback fills a page: its best few BM25 matches are enough, and each costs a row read and a floor check.
    const relevant = thin ? keywords.relevant(query, { depth: Math.min(depth, Math.max(limit * 2, RELEVANT_FALLBACK_DEPTH)) }) : null;
    return strict === null && relevant === null ? null : { strict: strict ?? [], relevant, floor: true };
  }

  /**
   * One keyword list for ranking, over the rows that passed the filters: strict matches first (they hold every
   * term), then the relevant ones not already there, without those below the relevance floor (keyword-query.ts).
   * Scores keep each part's order and ties: a strictly increasing squash into (1, 3) for strict matches and (-1, 1)
   * for relevant ones.
   */
  function keywordList(found: KeywordCandidates, rows: ReadonlyMap<number, MemoryRow>): KeywordHit[] {
    const squash = (x: number) => x / (1 + Math.abs(x));
    const list = found.strict.map((h) => ({ id: h.id, score: 2 + squash(h.score) }));
    const seen = new Set(list.map((h) => h.id));
    const relevant = (found.relevant?.hits ?? []).filter((h) => !seen.has(h.id) && rows.has(h.id));
    const terms = found.relevant?.terms ?? [];
    const kept = found.floor ? relevantMatches(terms, relevant.map((h) => termKeys(rows.get(h.id)!.content)), found.relevant?.parts) : relevant.map(() => true);
    relevant.forEach((h, i) => {
      if (kept[i]) list.push({ id: h.id, score: squash(h.score) });
    });
    return list;
  }

  /** The query's vector; null (timedOut) once `ms` have passed without it, when a time budget is given. */
  async function queryVectorWithin(query: string, ms: number | undefined): Promise<{ vector: Float32Array | null; timedOut: boolean }> {
    if (ms === undefined) return { vector: await vectors.queryVector(query), timedOut: false };
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), ms);
    });
    try {
      const first = await Promise.race([vectors.queryVector(query), late]);
      return first === 'late' ? { vector: null, timedOut: true } : { vector: first, timedOut: false };
    } finally {
      clearTimeout(timer);
    }
  }

  async function hybridSearch(query: string, filters: MemoryFilters, opts: SearchOptions): Promise<HybridResult> {
    const { vector, timedOut } = await queryVectorWithin(query, opts.embedWithinMs);
    // No await from here on: nothing else in this process writes between these reads.
    const at = now();
    const r = deps.settings().retrieval;
    // Candidates per list. The exact vec0 scan costs more with a larger k; keyword depth is nearly free. Never fewer
    // neighbours than the semantic floor reads its background from: a shallower list would read it nearer the query,
    // and the same question would meet a higher floor in a prompt than in a search.
    const semanticDepth = Math.min(MAX_K, Math.max(opts.depth?.semantic ?? Math.max(opts.limit * 5, 100), BACKGROUND_RANK));
    const keywordDepth = opts.depth?.keyword ?? Math.max(opts.limit * 10, 200);
    const model = vector ? vectors.readyModel() : null;
    let neighbors: Array<{ id: number; similarity: number }> | null = null;
    if (vector && model && vector.length === model.dimensions) {
      vectors.syncVectorTable();
      // The head of the list that decides the shown results is judged for exactness (vector-index.ts, KnnOptions).
      const judged = Math.min(JUDGED, opts.limit);
      neighbors = index.knn(vector, semanticDepth, { judged }).map((n) => ({ id: n.id, similarity: 1 - n.distance }));
    }
    const found = keywordCandidates(query, opts.keyword, opts.limit, keywordDepth, opts.topic);
    const candidateIds = found ? [...found.strict, ...(found.relevant?.hits ?? [])].map((k) => k.id) : [];
    const eligible = loadRows([...(neighbors ?? []).map((n) => n.id), ...candidateIds], filters, at);
    const keyword = found && keywordList(found, eligible);
    // A vector of another model (same dimension, not yet replaced) is not comparable with the query's.
    const semantic = neighbors?.filter((n) => eligible.get(n.id)?.embedding_model === model?.modelId) ?? null;
    const ranked = rankHybrid({
      semantic,
      keyword,
      eligible: new Map([...eligible].map(([id, row]) => [id, { ...row, pinned: row.pinned === 1, updatedAt: row.updated_at }])),
      weights: { similarity: r.similarityWeight, importance: r.importanceWeight, recency: r.recencyWeight },
      halfLifeDays: r.recencyHalfLifeDays,
      // Judged against all the neighbours, before filters: the background is the query's, not the filter's.
      minSimilarity: semanticFloor((neighbors ?? []).map((n) => n.similarity), r.minSimilarity),
      now: at,
    });
    const ordered = opts.learnedFirst ? learnedFirst(ranked, opts.learnedFirst) : ranked;
    return {
      hits: ordered.slice(0, opts.limit).map((h) => ({ ...h, memory: eligible.get(h.memory.id)! })),
      mode: semantic ? 'hybrid' : 'keyword',
      semanticTimedOut: timedOut,
    };
  }

  /** The memories learned within the window, newest first, as hits found by when they were learned ('recency'). */
  function newestLearnedWithin(filters: MemoryFilters, window: TimeWindow, limit: number): Array<RankedHit<MemoryRow>> {
    const at = now();
    return store.newest({ ...filters, learnedWithin: window }, at, limit).map((row) => ({
      memory: row,
      score: 0,
      reason: 'recency' as const,
      parts: { similarity: null, semanticRank: null, keywordRank: null, relevance: 0, importance: row.importance, recency: 1 },
    }));
  }

  /** The ranked hits with those learned within the window first, each part in its order. */
  function learnedFirst<H extends { memory: { id: number } }>(ranked: readonly H[], window: TimeWindow): H[] {
    if (ranked.length === 0) return [...ranked];
    const inside = new Set(store.learnedWithin(ranked.map((h) => h.memory.id), window));
    return [...ranked.filter((h) => inside.has(h.memory.id)), ...ranked.filter((h) => !inside.has(h.memory.id))];
  }

  return {
    hybridSearch,
    newestLearnedWithin,

    list(input) {
      const at = now();
      const match = input.query ? toFtsQuery(input.query, { prefix: true }) : null;
      const { rows, total } = store.page({ filters: input, match, sort: input.sort as MemorySortKey, limit: input.limit, offset: input.offset, at });
      return { items: rows.map((r) => toMemory(r, at)), total };
    },

    async related(text, limit) {
      if (!text.trim()) return [];
      const { hits } = await hybridSearch(text, { statuses: ['active'], expired: false }, { limit, keyword: 'related' });
      const at = now();
      return hits.map((h) => toMemory(h.memory, at));
    },

    async retrieveForPrompt({ query, tokenBudget, estimateTokens, excludeIds, window, topic }) {
      if (!(tokenBudget > 0)) return { items: [], text: '', semanticTimedOut: false };
      const r = deps.settings().retrieval;
      const filters = { statuses: ['active' as const], expired: false, pinned: false, excludeIds };
      // A prompt needs only the best `limit`, and its filters drop few candidates: shallower lists keep prompt
      // assembly fast at 100k memories (docs/BENCHMARKS.md) while browsing searches keep their deeper default.
      const depth = { semantic: Math.max(r.limit * 4, 40), keyword: Math.max(r.limit * 8, 80) };
      const searched = query.trim() ? await hybridSearch(query, filters, { limit: r.limit, keyword: 'prompt', depth, embedWithinMs: r.timeBudgetMs, learnedFirst: window ?? null, topic }) : null;
      let found = searched?.hits ?? [];
      if (window && aboutTheTimeItself(topic ?? query) && !(found.length > 0 && store.learnedWithin([found[0]!.memory.id], window).length > 0)) {
        // The question names no subject, and nothing learned in the window matched it: the time itself is the subject.
        found = [...newestLearnedWithin(filters, window, r.limit), ...found].slice(0, r.limit);
      }
      const at = now();
      const weights = { similarity: r.similarityWeight, importance: r.importanceWeight, recency: r.recencyWeight };
      const pinned = store.pinnedActive(at, MAX_PINNED).filter((row) => !excludeIds?.has(row.id)).map((row) => ({
        row,
        score: finalScore({ relevance: 0, importance: row.importance, recency: recencyFactor(at - row.updated_at, r.recencyHalfLifeDays) }, weights),
        reason: 'pinned' as const,
      }));
      // A memory its words helped find keeps which ones, in the user's words: its receipt names them.
      const words = (h: RankedHit<MemoryRow>) => (h.parts.keywordRank === null ? [] : matchedWords(query, h.memory.content));
      const candidates = [...pinned.map((p) => ({ ...p, matched: [] as string[] })), ...found.map((h) => ({ row: h.memory, score: h.score, reason: h.reason, matched: words(h) }))];
      const { included, text } = formatMemoriesForPrompt(
        candidates.map((c) => ({ content: c.row.content, category: c.row.category })),
        tokenBudget,
        estimateTokens,
      );
      const items = included.map((i) => {
        const c = candidates[i]!;
        return { memoryId: c.row.id, memory: toMemory(c.row, at), score: c.score, reason: c.reason, ...(c.matched.length > 0 ? { matched: c.matched } : {}) };
      });
      return { items, text, semanticTimedOut: searched?.semanticTimedOut ?? false };
    },

    withAnyWord(words, { limit, ...filters }) {
      const match = toFtsQuery(words.join(' '), { mode: 'any' });
      if (match === null || limit <= 0) return [];
      const at = now();
      return store.matching(match, filters, at, limit).map((r) => toMemory(r, at));
    },

    nearest(vector, { limit, minSimilarity, ...filters }) {
      const model = vectors.readyModel();
      if (!model || vector.length !== model.dimensions || limit <= 0) return [];
      vectors.syncVectorTable();
      const neighbors = index.knn(vector, Math.min(MAX_K, Math.max(limit * 10, 100)));
      const at = now();
      const rows = loadRows(
        neighbors.map((n) => n.id),
        filters,
        at,
      );
      const out: Array<{ memory: Memory; similarity: number }> = [];
      for (const n of neighbors) {
        const row = rows.get(n.id);
        const similarity = 1 - n.distance;
        if (!row || row.embedding_model !== model.modelId || similarity < (minSimilarity ?? -1)) continue;
        out.push({ memory: toMemory(row, at), similarity });
        if (out.length >= limit) break;
      }
      return out;
    },
  };
}
