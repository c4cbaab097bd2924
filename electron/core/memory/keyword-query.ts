/**
 * The keyword half of prompt retrieval. A chat message is not a search-box query: it is a sentence, and a memory
 * matters if it shares some of its terms, not all of them. toFtsQuery's 'any' mode ORs whitespace-separated chunks,
 * but an unspaced Chinese sentence is one chunk (附近有好喝的咖啡吗 would have to appear whole), so here every
 * search term (each word, each CJK bigram) is its own alternative and BM25 ranks memories by how many rare terms
 * they share.
 *
 * Cost: FTS5 scores every document an OR matches before it can return the best few, so a sentence of common words
 * ("what does the user like to do on a weekend") would score most of the store (about 150 ms at 100k memories).
 * Common terms weigh almost nothing in BM25 anyway (low IDF); rarestTerms keeps the rare ones, whose matches add up
 * to a bounded number of documents.
 */
import { MAX_QUERY_TERMS, searchTerms } from '../text/fts-text';

export interface KeywordTerm {
  text: string;
  /** A lone CJK character is indexed only as the first character of tokens (fts-text.ts), hence a prefix. */
  prefix: boolean;
}

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
const LONE_CJK = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]$/u;

/** The distinct search terms of a message, at most MAX_QUERY_TERMS, in order of first appearance. */
export function messageTerms(text: string): KeywordTerm[] {
  return [...new Set(searchTerms(text))].slice(0, MAX_QUERY_TERMS).map((t) => ({ text: t, prefix: LONE_CJK.test(t) }));
}

/** An FTS5 MATCH expression ORing the terms, or null when there are none. */
export function anyOf(terms: readonly KeywordTerm[]): string | null {
  if (terms.length === 0) return null;
  return terms.map((t) => (t.prefix ? `${quote(t.text)}*` : quote(t.text))).join(' OR ');
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
