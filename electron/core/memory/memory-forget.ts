/**
 * Forgetting by asking ("Forget that I live in Berlin", 忘掉我住在柏林, or a model's forget_memory call): which
 * memories a request means, and moving them to the trash. The one rule for the chat (chat/forget-in-chat.ts) and the
 * memory tool (chat/memory-tools.ts).
 *
 * Which memories: the hybrid search (meaning and keywords) over what Mnemo knows (active, archived, in review),
 * grounded in the request's words: a memory counts only when it holds some of the request's meaningful terms
 * (text/meaningful-terms.ts: stems, CJK bigrams), so a neighbour in meaning that shares nothing with what the user
 * said is never touched. A memory holding most of them (STRONG_COVERAGE, every name the request writes included) is
 * a clear match:
 * - exactly one clear match: it goes to the trash;
 * - several clear matches, or only partial ones: nothing is trashed; they are the candidates the user picks from
 *   (at most MAX_CANDIDATES, best first);
 * - none: nothing matched, and the chat says so.
 *
 * Invariants: never a purge; a trashed memory is restorable (memory-bulk.ts restore: Undo), and its 'deleted'
 * timeline event says it was forgotten on request (`forgotten`: the asking message, or null from a tool call).
 *
 * What is in the trash is not learned again (extraction.job.ts, also from exchanges older than the forget that were
 * still waiting to be learned): a candidate with the same text, a near duplicate by meaning, or one that says it again
 * in other words (`repeatsTrashed`).
 */
import type { Memory, MemoryStatus } from '../../../shared/contract';
import { meaningfulTerms, termKeys } from '../text/meaningful-terms';
import type { MemoryBulk } from './memory-bulk';
import type { MemorySearch } from './memory-search';

/** Share of the request's terms a memory must hold to be a clear match. */
export const STRONG_COVERAGE = 0.6;
/** Candidates the user is shown at most. */
export const MAX_CANDIDATES = 8;
/** Search results read before grounding. */
const SEARCH_DEPTH = 30;
const FORGETTABLE: MemoryStatus[] = ['active', 'archived', 'review'];

export interface ForgetTargets {
  /** Trash these (one clear match). */
  trash: number[];
  /** Or let the user pick from these. */
  candidates: number[];
}

/**
 * What a request means among found memories (best first): the grounding and the clear-match rule above. Pure.
 */
export function chooseForgetTargets(request: string, found: ReadonlyArray<{ id: number; content: string }>): ForgetTargets {
  const terms = meaningfulTerms(request);
  if (terms.length === 0) return { trash: [], candidates: [] };
  const names = terms.filter((t) => t.name);
  const scored = found
    .map((m) => {
      const keys = termKeys(m.content);
      const held = terms.filter((t) => keys.has(t.key)).length;
      return { id: m.id, coverage: held / terms.length, names: names.every((t) => keys.has(t.key)) };
    })
    .filter((m) => m.coverage > 0);
  const strong = scored.filter((m) => m.coverage >= STRONG_COVERAGE && m.names);
  if (strong.length === 1) return { trash: [strong[0]!.id], candidates: [] };
  const pick = strong.length > 1 ? strong : [...scored].sort((a, b) => b.coverage - a.coverage);
  return { trash: [], candidates: pick.slice(0, MAX_CANDIDATES).map((m) => m.id) };
}

/**
 * The candidate says again what the trashed memory said: nothing the trashed memory does not ("Lives in Berlin" after
 * "The user lives in Berlin"), or all of it, and more ("The user lives in Berlin" after "Lives in Berlin"); the second
 * only for a trashed memory of at least two terms, so a one-word memory ("Has a cat") does not keep every later
 * mention of its word out. Pure.
 */
export function repeatsTrashed(candidate: string, trashed: string): boolean {
  const holds = (text: string, terms: ReturnType<typeof meaningfulTerms>) => {
    const keys = termKeys(text);
    return terms.length > 0 && terms.every((t) => keys.has(t.key));
  };
  const trashedTerms = meaningfulTerms(trashed);
  return holds(trashed, meaningfulTerms(candidate)) || (trashedTerms.length >= 2 && holds(candidate, trashedTerms));
}

export interface ForgetResult {
  /** Moved to the trash (restorable). */
  trashed: Memory[];
  /** Several matched: the user picks (nothing of them trashed). */
  candidates: Memory[];
}

export function createMemoryForget(deps: { search: Pick<MemorySearch, 'hybridSearch'>; bulk: Pick<MemoryBulk, 'trash'>; toMemory: (id: number) => Memory | null }) {
  return {
    /** The request's memories: trashed, or offered to pick from. askedIn: the user message that asked (null: a tool call). */
    async forget(request: string, askedIn: number | null): Promise<ForgetResult> {
      const { hits } = await deps.search.hybridSearch(request, { statuses: FORGETTABLE }, { limit: SEARCH_DEPTH, keyword: 'search' });
      const targets = chooseForgetTargets(
        request,
        hits.map((h) => ({ id: h.memory.id, content: h.memory.content })),
      );
      const trashed = targets.trash.map((id) => deps.bulk.trash(id, { forgotten: askedIn }));
      const candidates = targets.candidates.map(deps.toMemory).filter((m): m is Memory => m !== null);
      return { trashed, candidates };
    },
  };
}

export type MemoryForget = ReturnType<typeof createMemoryForget>;
