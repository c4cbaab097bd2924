/**
 * What a text is about, as comparable keys: each English word's stem (word-stem.ts), each CJK bigram, a lone CJK
 * character, minus function words (stop-words.ts). "Where do I live now?" -> ["live"]; "Lives in Porto" ->
 * ["live", "porto"]; 附近有好喝的咖啡吗 -> ["附近", "好喝", "咖啡"]. Two texts that share a key share a meaningful
 * term, whatever the word form. meaningfulTerms is the query side; termKeys the document side, and every meaningful
 * term of a text is among its own keys (property-tested).
 *
 * Built on searchTerms (fts-text.ts), so the keys line up with what the full-text index holds: a CJK key is an
 * index token as it is; a word key is a stem, which keyword-index.ts turns back into the index's words.
 */
import { MAX_QUERY_TERMS, searchTerms } from './fts-text';
import { isStopTerm } from './stop-words';
import { stemWord } from './word-stem';

const CJK = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}]/u;

export interface MeaningfulTerm {
  /** The stem of a word, or a CJK bigram, or a lone CJK character. */
  key: string;
  /**
   * The word was written as a name: capitalised inside a sentence ("a weekend in Porto", "Sofia's birthday") or in
   * capitals ("CSS"). A name says what a question is about more surely than a common word that happens to be rare
   * in the store ("flat" in "How do I fix a flat tyre?"); see keyword-query.ts.
   */
  name?: true;
  /**
   * 'word': key is a stem; 'cjk': a CJK bigram, an index token as it is; 'cjk-char': a lone CJK character, which in
   * the index starts tokens (fts-text.ts), so it matches as a prefix.
   */
  kind: 'word' | 'cjk' | 'cjk-char';
}

/** The distinct meaningful terms of a text, in order of first appearance, at most MAX_QUERY_TERMS. */
export function meaningfulTerms(text: string): MeaningfulTerm[] {
  const seen = new Set<string>();
  const out: MeaningfulTerm[] = [];
  const names = nameKeys(text);
  for (const term of searchTerms(text)) {
    if (isStopTerm(term)) continue;
    const cjk = CJK.test(term);
    const key = cjk ? term : stemWord(term);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ key, kind: !cjk ? 'word' : Array.from(term).length === 1 ? 'cjk-char' : 'cjk', ...(names.has(key) ? { name: true as const } : {}) });
    if (out.length === MAX_QUERY_TERMS) break;
  }
  return out;
}

const WRITTEN_WORD = /\p{L}[\p{L}\p{N}]*/gu;
const ALL_CAPS = /^\p{Lu}{2,}[\p{Lu}\p{N}]*$/u;
// The start of the text, of a line or of a sentence (quotes and brackets aside) capitalises any word.
const SENTENCE_START = /(?:^|[.!?。！？\n])[\s"'“‘(（]*$/u;

/** The keys of the words written as names (see MeaningfulTerm.name). */
function nameKeys(text: string): Set<string> {
  const keys = new Set<string>();
  for (const m of text.matchAll(WRITTEN_WORD)) {
    const word = m[0];
    if (!/^\p{Lu}/u.test(word)) continue;
    if (!ALL_CAPS.test(word) && SENTENCE_START.test(text.slice(Math.max(0, m.index - 8), m.index))) continue;
    for (const t of searchTerms(word)) if (!CJK.test(t) && !isStopTerm(t)) keys.add(stemWord(t));
  }
  return keys;
}

/**
 * Every key a text holds (function words included: no meaningful term equals one), plus each of its CJK characters,
 * so that a lone-character term is found wherever its character is. `terms` of one text are in another when
 * each key is in this set.
 */
export function termKeys(text: string): Set<string> {
  const keys = new Set<string>();
  for (const term of searchTerms(text)) {
    if (CJK.test(term)) {
      keys.add(term);
      for (const c of term) keys.add(c);
    } else {
      keys.add(stemWord(term));
    }
  }
  return keys;
}
