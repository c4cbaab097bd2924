/**
 * The keyword half of prompt retrieval. A chat message is not a search-box query: it is a sentence, and a memory
 * matters if it shares some of its terms, not all of them. toFtsQuery's 'any' mode ORs whitespace-separated chunks,
 * but an unspaced Chinese sentence is one chunk (附近有好喝的咖啡吗 would have to appear whole), so here every
 * search term (each word, each CJK bigram) is its own alternative and BM25 ranks memories by how many rare terms
 * they share.
 */
import { MAX_QUERY_TERMS, searchTerms } from '../text/fts-text';

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
const LONE_CJK = /^[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]$/u;

/** An FTS5 MATCH expression ORing the text's terms, or null when it has none. */
export function anyTermQuery(text: string): string | null {
  const terms = [...new Set(searchTerms(text))].slice(0, MAX_QUERY_TERMS);
  if (terms.length === 0) return null;
  // A lone CJK character is indexed only as the first character of tokens (fts-text.ts), hence a prefix query.
  return terms.map((t) => (LONE_CJK.test(t) ? `${quote(t)}*` : quote(t))).join(' OR ');
}
