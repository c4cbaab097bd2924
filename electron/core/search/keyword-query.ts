/**
 * The keyword half of relevance search (a chat message for the prompt; a question typed into memory search). A
 * message is not a search-box query: it is a sentence, and a memory matters if it shares some of what the sentence
 * is about, not all of its words. So:
 *
 * - terms: the message's meaningful terms (meaningful-terms.ts: stems, CJK bigrams, no function words), each one
 *   alternative of an OR; a word term stands for every word of the index with its stem (keyword-index.ts finds
 *   them), so "live" matches "lives" and "living". An unspaced Chinese sentence is many bigram terms, not one phrase.
 * - cost: FTS5 scores every document an OR matches before it can return the best few, so a sentence of common words
 *   would score most of the store (about 150 ms at 100k memories). Common terms weigh almost nothing in BM25 anyway
 *   (low IDF); rarestTerms keeps the rare ones, whose matches add up to a bounded number of documents.
 * - relevance floor: BM25 ranks whatever matches, so a question about something the store does not know ("What is
 *   the capital of France?") would still bring the memories that share one of its words. Each meaningful term weighs
 *   its IDF (termWeight: a rare term says more than a common one, and a word no memory holds weighs most, since the
 *   question is then about something the store lacks). Two floors (relevantMatches):
 *   - the question: the matches together must hold at least QUESTION_FLOOR of the question's weight, else the store
 *     does not hold what it is about and no keyword match is relevant ("What's my blood type?" shares only "type"
 *     with "Types on a split keyboard");
 *   - each memory: at least MEMORY_FLOOR of the weight, so a memory sharing one common word stays out, while a
 *     question about two things ("Where do my wife and I work?") still brings a memory for each.
 *   A memory holding a word the question wrote as a name ("Any tips for a weekend in Porto?" and "Lives in Porto")
 *   is relevant whatever the floors say: a name says what a question is about, where a common word that the store
 *   happens to hold once ("flat" in "How do I fix a flat tyre?") does not.
 *   Both were chosen on the retrieval-quality set (bench/suites/retrieval-quality.bench.ts) for no memory in at least
 *   90% of the prompts for unanswerable questions with the fewest answers lost; the report of that choice is in
 *   docs/BENCHMARKS.md.
 */
import type { MeaningfulTerm } from '../text/meaningful-terms';

/** The least share of a question's weight that its keyword matches together must hold (see the file comment). */
export const QUESTION_FLOOR = 0.4;
/** The least share of a question's weight that one memory must hold to be a relevant keyword match. */
export const MEMORY_FLOOR = 0.25;
/**
 * How much a CJK bigram that no memory holds weighs, relative to an English word no memory holds: such a bigram is
 * as likely the boundary between two words (我住在哪个城市 -> 个城) as a word the store does not know.
 */
const UNSEEN_CJK_SHARE = 0.5;
/**
 * Weights are computed as if the store held at least this many memories: in a store of ten, every word of the only
 * memory about coffee is in a tenth of it and IDF would call it common, so a question's unseen words would outweigh
 * it and a new user's first memories would never pass the floor.
 */
const MIN_STORE_FOR_WEIGHTS = 1000;

export interface WeightedTerm {
  key: string;
  weight: number;
  /** Written as a name (meaningful-terms.ts): a memory holding it is relevant whatever the floors say. */
  name?: boolean;
  /**
   * A word of the question's time phrase ("last week", 去年; time/time-window.ts): it counts for a memory that holds
   * it ("Went to Japan last year"), never against one that lacks it, since a time is a filter, not a subject.
   */
  optional?: boolean;
}

/** A meaningful term of a message with the index tokens that stand for it and how many memories hold them. */
export interface IndexedTerm {
  term: MeaningfulTerm;
  /** Index tokens: the term's words as written in memories; for a lone CJK character, the character (a prefix). */
  tokens: string[];
  /** Memories holding one of the tokens (an upper bound is enough: a memory may hold several). */
  documents: number;
}

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** An FTS5 MATCH expression ORing every token of the terms, or null when there are none. */
export function anyOf(terms: readonly IndexedTerm[]): string | null {
  const alternatives = terms.flatMap((t) => t.tokens.map((token) => (t.term.kind === 'cjk-char' ? `${quote(token)}*` : quote(token))));
  return alternatives.length === 0 ? null : [...new Set(alternatives)].join(' OR ');
}

/**
 * The rarest terms whose document counts add up to at most `budget`, rarest first; the rarest matching term is kept
 * even when it alone exceeds the budget (the caller bounds that case by other means). Terms that match nothing are
 * dropped. `documents` is a term's document count (an estimate is enough).
 */
export function rarestTerms<T>(terms: readonly T[], documents: (term: T) => number, budget: number): T[] {
  const counted = terms.map((term) => ({ term, n: documents(term) })).filter((c) => c.n > 0);
  counted.sort((a, b) => a.n - b.n);
  const kept: T[] = [];
  let total = 0;
  for (const c of counted) {
    if (kept.length > 0 && total + c.n > budget) break;
    kept.push(c.term);
    total += c.n;
  }
  return kept;
}

/**
 * How much a term says, from how many of `total` memories hold it: BM25's IDF in the form that is never negative,
 * ln(1 + (N - n + 0.5) / (n + 0.5)) with N at least MIN_STORE_FOR_WEIGHTS; positive, largest for a term no memory
 * holds, decreasing in n. An unseen CJK bigram weighs UNSEEN_CJK_SHARE of that.
 */
export function termWeight(term: MeaningfulTerm, documents: number, total: number): number {
  const all = Math.max(total, MIN_STORE_FOR_WEIGHTS);
  const n = Math.max(0, Math.min(documents, all));
  const idf = Math.log(1 + (all - n + 0.5) / (n + 0.5));
  return n === 0 && term.kind === 'cjk' ? idf * UNSEEN_CJK_SHARE : idf;
}

/**
 * The weighted share of the terms whose key is in `keys` (termKeys of meaningful-terms.ts); 0 without terms. An
 * optional term adds to what is held, not to the whole: in [0, 1] without optional terms, possibly above with them.
 */
export function termCoverage(terms: readonly WeightedTerm[], keys: ReadonlySet<string>): number {
  let all = 0;
  let found = 0;
  for (const t of terms) {
    if (t.optional !== true) all += t.weight;
    if (keys.has(t.key)) found += t.weight;
  }
  return all > 0 ? found / all : found > 0 ? 1 : 0;
}

/**
 * Which candidates are relevant keyword matches for a question with these terms (the floors of the file comment);
 * `keys` are each candidate's termKeys. A question of several parts (text/question-parts.ts; `parts`: each part's
 * term keys) is judged whole and part by part: a candidate relevant to one part is relevant, so "Where do I work,
 * and what did the dentist say?" keeps the work memory though the dentist's words are most of the question's weight.
 * Order-independent, and holding more keys never makes a candidate irrelevant.
 */
export function relevantMatches(terms: readonly WeightedTerm[], keys: ReadonlyArray<ReadonlySet<string>>, parts: ReadonlyArray<ReadonlySet<string>> = []): boolean[] {
  const judged = [terms, ...(parts.length > 1 ? parts.map((p) => terms.filter((t) => p.has(t.key))) : [])].filter((ts) => ts.length > 0);
  const verdicts = judged.map((ts) => floorsFor(ts, keys));
  return keys.map((_, i) => verdicts.some((v) => v[i]!));
}

function floorsFor(terms: readonly WeightedTerm[], keys: ReadonlyArray<ReadonlySet<string>>): boolean[] {
  const held = new Set<string>();
  for (const k of keys) for (const t of terms) if (k.has(t.key)) held.add(t.key);
  const known = termCoverage(terms, held) >= QUESTION_FLOOR;
  return keys.map((k) => terms.some((t) => t.name === true && k.has(t.key)) || (known && termCoverage(terms, k) >= MEMORY_FLOOR));
}
