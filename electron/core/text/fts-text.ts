/**
 * Text encoding for SQLite FTS5 columns declared with `tokenize='unicode61 remove_diacritics 2'`.
 *
 * unicode61 cuts only at separators, so an unspaced Chinese/Japanese/Korean run would index as one huge token and
 * 咖啡 inside 我喜欢喝咖啡和茶 could never match. We therefore rewrite text in JS, identically for documents and
 * queries, so that FTS5 only ever sees space-separated tokens:
 *
 * - non-CJK words (letters, digits, marks) pass through, lowercased and with Latin combining accents removed;
 * - a CJK run (Han, Hiragana, Katakana, Hangul) becomes its overlapping character bigrams, plus its last character
 *   as a unigram: 喝咖啡 -> 喝咖 咖啡 啡. That trailing unigram makes "every character of the run starts exactly
 *   one token", so a one-character query is a plain prefix query ("茶"*) and still finds 茶 at the end of a run.
 *   A lone CJK character is just its unigram;
 * - everything else (punctuation, symbols, emoji, controls) is a separator and is dropped.
 *
 * The encoded document is for the index only (not for display, snippet() or highlight()): keep the original text
 * in its own column or table.
 *
 * Word forms and function words are not part of this encoding: the index keeps words as written, and relevance
 * search reaches a stem's other forms through the index's vocabulary (meaningful-terms.ts, search/keyword-index.ts).
 *
 * Hand-written, not FTS5's trigram tokenizer or a word segmenter (checked on the example above): trigram matches no
 * query shorter than three characters (咖啡 finds nothing), and Intl.Segmenter cuts by context (喜欢喝茶 -> 喜欢 | 喝茶),
 * so the query 茶 misses a text the bigrams find.
 */

export type FtsQueryMode = 'all' | 'any';

export interface FtsQueryOptions {
  /** 'all' (default): every term must match (AND). 'any': at least one (OR). */
  mode?: FtsQueryMode;
  /** Treat the last word as a prefix (search-as-you-type). CJK terms need no prefix: they match as substrings. */
  prefix?: boolean;
}

/** Bounds the cost of one MATCH (each term is a posting-list scan); a pasted essay is not a sensible query. */
export const MAX_QUERY_TERMS = 64;

// Letters/digits of the four scripts FTS5 cannot segment. The lookahead keeps CJK punctuation (、。・, whose
// Script_Extensions include Han) out of runs. The `v` flag would allow set intersection but needs ES2024.
const CJK_CHAR = String.raw`(?:(?=[\p{L}\p{N}])[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}])`;
// unicode61's token characters are "L* N* Co". Measured against SQLite 3.53 over every code point, JS letters are a
// subset of them except these 21 (Lo in current Unicode, marks in SQLite's older tables): a word made only of them
// would reach FTS5 as an empty phrase, and in an AND query an empty phrase matches nothing. They may continue a
// word but cannot start one.
const NOT_FTS_TOKEN_CHAR = String.raw`[\u19B0-\u19C0\u19C8\u19C9\u1CF2\u1CF3]`;
const WORD_START = String.raw`(?:(?!${CJK_CHAR}|${NOT_FTS_TOKEN_CHAR})[\p{L}\p{N}\p{Co}])`;
const WORD_CONTINUE = String.raw`(?:(?!${CJK_CHAR})[\p{L}\p{N}\p{M}\p{Co}])`;
// Characters matched by none of the groups are separators; whitespace is reported because it ends a query phrase.
const SEGMENT = new RegExp(
  String.raw`(?<cjk>${CJK_CHAR}+)|(?<word>${WORD_START}${WORD_CONTINUE}*)|(?<space>\s+)`,
  'gu',
);
const LATIN_COMBINING_MARKS = /[\u0300-\u036f]/g;

type QueryTerm = { kind: 'words'; words: string[] } | { kind: 'cjk'; chars: string[] };

/** NFKC folds full-width forms (ＲＥＡＣＴ１２３ -> react123, ｶﾞ -> ガ); the accent strip mirrors remove_diacritics. */
function fold(text: string): string {
  return text.normalize('NFKC').toLowerCase().normalize('NFD').replace(LATIN_COMBINING_MARKS, '').normalize('NFC');
}

/**
 * Splits text into query terms. Words joined by punctuation inside one whitespace-delimited chunk stay together
 * ("node.js", "don't", "e-mail") so the query can require them adjacent, as they are in any document containing them.
 */
function toTerms(text: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  let words: string[] | null = null;
  for (const m of fold(text).matchAll(SEGMENT)) {
    const g = m.groups ?? {};
    if (g.word !== undefined) {
      if (words === null) {
        words = [];
        terms.push({ kind: 'words', words });
      }
      words.push(g.word);
      continue;
    }
    words = null;
    if (g.cjk !== undefined) terms.push({ kind: 'cjk', chars: Array.from(g.cjk) });
  }
  return terms;
}

function bigrams(chars: string[]): string[] {
  if (chars.length < 2) return chars.slice();
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** An FTS5 string: inside double quotes nothing is an operator, and a quote is escaped by doubling it. */
function quote(s: string): string {
  return `"${s.replaceAll('"', '""')}"`;
}

/**
 * The terms a text contributes to search, symmetric for queries and documents: words, CJK bigrams, and the
 * character itself for a lone CJK character. Meant for index-free overlap scoring (e.g. Jaccard between texts);
 * "我喝茶 tea" -> ["我喝", "喝茶", "tea"].
 */
export function searchTerms(text: string): string[] {
  const out: string[] = [];
  for (const term of toTerms(text)) {
    if (term.kind === 'words') out.push(...term.words);
    else out.push(...bigrams(term.chars));
  }
  return out;
}

export type TextSegment = { kind: 'word'; word: string } | { kind: 'cjk'; chars: string[] };

/**
 * The text as searchTerms reads it, in order: each folded word, and each CJK run as its characters. For rules that
 * must see where a run's bigrams come from (safety/candidate-grounding.ts), so that they read text this one way.
 */
export function textSegments(text: string): TextSegment[] {
  const out: TextSegment[] = [];
  for (const term of toTerms(text)) {
    if (term.kind === 'words') for (const word of term.words) out.push({ kind: 'word', word });
    else out.push({ kind: 'cjk', chars: term.chars });
  }
  return out;
}

/** A segment of textSegments with the characters as the text writes them (case, accents, width), for showing to people. */
export type WrittenSegment = { kind: 'word'; word: string; written: string } | { kind: 'cjk'; chars: string[]; written: string[] };

/**
 * textSegments, each with its written form: "Café au LAIT" -> cafe/Café, au/au, lait/LAIT. Each piece of the text
 * that SEGMENT finds is folded and read by toTerms on its own, so the folded forms are those search uses; a piece
 * that folding splits (NFKC's ½ -> 1⁄2) gives each of its words the whole piece as written.
 */
export function writtenSegments(text: string): WrittenSegment[] {
  const out: WrittenSegment[] = [];
  for (const m of text.normalize('NFC').matchAll(SEGMENT)) {
    if (m.groups?.space !== undefined) continue;
    for (const term of toTerms(m[0])) {
      if (term.kind === 'words') for (const word of term.words) out.push({ kind: 'word', word, written: m[0] });
      else out.push({ kind: 'cjk', chars: term.chars, written: term.chars.length === Array.from(m[0]).length ? Array.from(m[0]) : term.chars });
    }
  }
  return out;
}

/** A word prefix shorter than this matches a large share of any store ("e"* matched 64% of 100k benchmark memories). */
export const SHORT_PREFIX = 3;

/**
 * Whether the query, searched as you type (toFtsQuery with `prefix`), is only a short prefix: one word of fewer than
 * SHORT_PREFIX characters, or one lone CJK character. FTS5 computes BM25 for every match before ORDER BY rank can
 * return the best few, so such a query costs as much as the store is large, while its ranking says little (every
 * word starting with "e" is a hit). Callers take the newest matches instead. A second term narrows the matches to an
 * intersection, which BM25 ranks cheaply, so only a lone term counts.
 */
export function isShortPrefixQuery(userQuery: string): boolean {
  const terms = toTerms(userQuery);
  if (terms.length !== 1) return false;
  const [term] = terms;
  if (term!.kind === 'cjk') return term!.chars.length === 1;
  return term!.words.length === 1 && Array.from(term!.words[0]!).length < SHORT_PREFIX;
}

/** The value to store in an FTS5 column; see the file comment for the encoding. */
export function toFtsDocument(text: string): string {
  const out: string[] = [];
  for (const term of toTerms(text)) {
    if (term.kind === 'words') {
      out.push(...term.words);
    } else {
      out.push(...bigrams(term.chars));
      if (term.chars.length >= 2) out.push(term.chars[term.chars.length - 1]!);
    }
  }
  return out.join(' ');
}

/**
 * A MATCH expression for arbitrary user input that FTS5 always accepts, or null when nothing searchable remains
 * (the caller then skips the FTS query rather than matching everything or nothing).
 *
 * Every term is a quoted FTS5 string, so user-typed quotes, parentheses, AND/OR/NOT/NEAR, `*`, `^`, `:`, `-`, `+`
 * and column filters are plain text. Terms:
 * - words of one chunk: a phrase, `node.js` -> "node js", with `*` on the last chunk when `prefix` is set;
 * - a CJK run of 2+ characters: the phrase of its bigrams, 咖啡店 -> "咖啡 啡店", i.e. the run as a substring;
 * - a single CJK character: "茶"*, every token starting with 茶; by the document encoding that is every occurrence
 *   (the unigram "茶" itself is among them, so no separate OR is needed).
 */
export function toFtsQuery(userQuery: string, opts: FtsQueryOptions = {}): string | null {
  const terms = toTerms(userQuery);
  const rendered: string[] = [];
  terms.forEach((term, i) => {
    if (term.kind === 'cjk') {
      rendered.push(term.chars.length === 1 ? `${quote(term.chars[0]!)}*` : quote(bigrams(term.chars).join(' ')));
    } else {
      const last = i === terms.length - 1;
      rendered.push(quote(term.words.join(' ')) + (opts.prefix === true && last ? '*' : ''));
    }
  });
  const unique = [...new Set(rendered)].slice(0, MAX_QUERY_TERMS);
  if (unique.length === 0) return null;
  return unique.join(opts.mode === 'any' ? ' OR ' : ' AND ');
}
