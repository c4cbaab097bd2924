/**
 * Keyword search over memories_fts (drizzle/0001_search_indexes.sql; text encoded by fts-text.ts), for the memory
 * service. Reads only: the service writes the entries and calls `changed()` after each.
 *
 * - strict: a search-box query, every term required (toFtsQuery), the last word as a prefix while typing.
 * - relevant: a sentence (a chat message, a question typed into search): its meaningful terms ORed, ranked by BM25,
 *   with the terms' weights for the relevance floor (keyword-query.ts, relevantMatches).
 *
 * Stems (word-stem.ts) are not stored: the index keeps words as written, so existing databases need no re-index and
 * messages_fts (same encoding) is untouched. A stem becomes the words of the index that have it, read from FTS5's
 * own vocabulary (an fts5vocab table in this connection's temp schema: nothing is stored).
 *
 * Caches, so a message or a keystroke does not re-read the vocabulary:
 * - document counts (for choosing rare terms and for IDF) move little between messages and an estimate is all they
 *   serve; they are dropped after DF_STALE_AFTER writes through this connection. A zero is never cached: the next
 *   memory may hold the term, and a stale zero would hide it.
 * - the words of a stem must be exact (a word missing from them is a memory not found), so they are dropped at every
 *   write through this connection and whenever another connection (the CLI) has committed (PRAGMA data_version).
 */
import type Database from 'better-sqlite3';
import type { Sqlite } from '../db/open-database';
import { isShortPrefixQuery, toFtsQuery } from '../text/fts-text';
import { meaningfulTerms, termKeys, type MeaningfulTerm } from '../text/meaningful-terms';
import { questionParts } from '../text/question-parts';
import { stemPrefix, stemWord } from '../text/word-stem';
import { anyOf, rarestTerms, termWeight, type IndexedTerm, type WeightedTerm } from './keyword-query';

/** Keyword matches ranked per query at most: the newest ones (see `search` below). */
const KEYWORD_SCAN = 5000;
/** A sentence's query keeps its rarest terms whose documents add up to at most this (keyword-query.ts). */
const ANY_TERMS_BUDGET = 5000;
/** Cached document counts: at most this many, dropped after this many keyword writes. */
const DF_CACHE_SIZE = 20_000;
const DF_STALE_AFTER = 1000;
/** Index words read per stem at most (a stem with more spellings than this is not a word). */
const MAX_STEM_WORDS = 64;

export interface KeywordHit {
  id: number;
  /** Higher is better (-BM25, or the id for the newest matches of a short prefix). */
  score: number;
}

export interface RelevantMatches {
  hits: KeywordHit[];
  /** The query's meaningful terms with their weights, for the relevance floor (keyword-query.ts, relevantMatches). */
  terms: WeightedTerm[];
  /** Each part's term keys when the query asks several things (text/question-parts.ts); [] for one. */
  parts: Array<Set<string>>;
}

export interface KeywordIndex {
  /** Every term of a search-box query; null when it has nothing searchable. */
  strict(query: string, opts: { prefix: boolean; depth: number }): KeywordHit[] | null;
  /**
   * The meaningful terms of a sentence, ORed; null when it has none (only function words, or nothing searchable).
   * `topic`: the sentence without its time phrase (time/time-window.ts): the phrase's terms are optional for the
   * relevance floor (keyword-query.ts WeightedTerm), so "last week" counts against no memory; the whole sentence ranks.
   */
  relevant(query: string, opts: { depth: number; topic?: string | undefined }): RelevantMatches | null;
  /** This connection changed memories_fts. */
  changed(): void;
}

/**
 * Which index: an FTS5 table encoded by fts-text.ts whose rowids are the ids of `documents`. Memories by default;
 * episodes (episodes/episode.store.ts) search theirs by the same rules. Names are the code's, never input.
 */
export interface KeywordTables {
  fts: 'memories_fts' | 'episodes_fts';
  documents: 'memories' | 'episodes';
}

/** The term keys of each part of a question that asks several things; [] for one part. */
function questionPartKeys(query: string): Array<Set<string>> {
  const parts = questionParts(query);
  return parts.length > 1 ? parts.map(termKeys).filter((keys) => keys.size > 0) : [];
}

export function createKeywordIndex(sqlite: Sqlite, tables: KeywordTables = { fts: 'memories_fts', documents: 'memories' }): KeywordIndex {
  const { fts, documents } = tables;
  // FTS5 sorts by rank only when asked in the query that MATCHes; the caller filters the result.
  // BM25 among the newest KEYWORD_SCAN matches: FTS5 scores every match before ORDER BY rank can stop, so an
  // unbounded query costs as much as its matches are many (about 100 ms for 64k at 100k memories); the inner
  // rowid-ordered LIMIT stops early. Queries with fewer matches are ranked exactly as without it.
  const search = sqlite.prepare(
    `SELECT id, rank FROM (SELECT rowid AS id, rank FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid DESC LIMIT ?) ORDER BY rank LIMIT ?`,
  );
  // FTS5 walks a doclist in rowid order and stops after LIMIT: cost follows the limit, not the number of matches.
  const newest = sqlite.prepare(`SELECT rowid AS id FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid DESC LIMIT ?`);
  const total = sqlite.prepare(`SELECT count(*) AS n FROM ${documents}`);

  let vocab: { exact: Database.Statement; prefix: Database.Statement; range: Database.Statement } | null = null;
  function vocabulary() {
    if (!vocab) {
      sqlite.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${fts}_terms USING fts5vocab(main, ${fts}, row)`);
      vocab = {
        exact: sqlite.prepare(`SELECT doc AS n FROM temp.${fts}_terms WHERE term = ?`),
        // Tokens starting with the character: an upper bound of the documents (one may hold several).
        prefix: sqlite.prepare(`SELECT coalesce(sum(doc), 0) AS n FROM temp.${fts}_terms WHERE term >= ? AND term < ?`),
        range: sqlite.prepare(`SELECT term, doc FROM temp.${fts}_terms WHERE term >= ? AND term < ?`),
      };
    }
    return vocab;
  }

  const documentCounts = new Map<string, number>();
  let totalDocuments: number | null = null;
  let writesSinceCount = 0;
  const stemWords = new Map<string, { tokens: string[]; documents: number }>();
  let dataVersion = -1;

  /** Drops the words of stems when another connection has committed since they were read. */
  function checkOtherWriters(): void {
    const version = sqlite.pragma('data_version', { simple: true }) as number;
    if (version !== dataVersion) {
      stemWords.clear();
      dataVersion = version;
    }
  }

  function documentsWith(token: string, prefix: boolean): number {
    const key = `${prefix ? '*' : '='}${token}`;
    const cached = documentCounts.get(key);
    if (cached !== undefined) return cached;
    const v = vocabulary();
    const row = (prefix ? v.prefix.get(token, `${token}\u{10FFFF}`) : v.exact.get(token)) as { n: number } | undefined;
    const n = row?.n ?? 0;
    if (n === 0) return 0;
    if (documentCounts.size >= DF_CACHE_SIZE) documentCounts.clear();
    documentCounts.set(key, n);
    return n;
  }

  function memoryCount(): number {
    totalDocuments ??= (total.get() as { n: number }).n;
    return totalDocuments;
  }

  /** The index's words with this stem, and the memories holding one of them (an upper bound). */
  function wordsOf(stem: string): { tokens: string[]; documents: number } {
    const cached = stemWords.get(stem);
    if (cached) return cached;
    const from = stemPrefix(stem);
    const rows = vocabulary().range.all(from, `${from}\u{10FFFF}`) as Array<{ term: string; doc: number }>;
    const same = rows.filter((r) => stemWord(r.term) === stem).sort((a, b) => b.doc - a.doc).slice(0, MAX_STEM_WORDS);
    const found = { tokens: same.map((r) => r.term), documents: same.reduce((n, r) => n + r.doc, 0) };
    stemWords.set(stem, found);
    return found;
  }

  function indexed(term: MeaningfulTerm): IndexedTerm {
    if (term.kind === 'word') return { term, ...wordsOf(term.key) };
    return { term, tokens: [term.key], documents: documentsWith(term.key, term.kind === 'cjk-char') };
  }

  function ranked(match: string, depth: number): KeywordHit[] {
    return (search.all(match, KEYWORD_SCAN, depth) as Array<{ id: number; rank: number }>).map((r) => ({ id: r.id, score: -r.rank }));
  }

  return {
    strict(query, { prefix, depth }) {
      const match = toFtsQuery(query, { mode: 'all', prefix });
      if (match === null) return null;
      // A lone short prefix being typed ("e", "茶"): its newest matches, newest best, since ranking would have to
      // score most of the store and says little (fts-text.ts, isShortPrefixQuery).
      if (prefix && isShortPrefixQuery(query)) {
        return (newest.all(match, depth) as Array<{ id: number }>).map((r) => ({ id: r.id, score: r.id }));
      }
      return ranked(match, depth);
    },

    relevant(query, { depth, topic }) {
      const terms = meaningfulTerms(query);
      if (terms.length === 0) return null;
      checkOtherWriters();
      const all = terms.map(indexed);
      const topicKeys = topic === undefined ? null : new Set(meaningfulTerms(topic).map((t) => t.key));
      const n = memoryCount();
      const match = anyOf(rarestTerms(all, (t) => t.documents, ANY_TERMS_BUDGET));
      return {
        // No term occurs in any memory: nothing to rank.
        hits: match === null ? [] : ranked(match, depth),
        terms: all.map((t) => ({
          key: t.term.key,
          weight: termWeight(t.term, t.documents, n),
          ...(t.term.name ? { name: true } : {}),
          ...(topicKeys && !topicKeys.has(t.term.key) ? { optional: true } : {}),
        })),
        parts: questionPartKeys(topic ?? query),
      };
    },

    changed() {
      stemWords.clear();
      if (++writesSinceCount > DF_STALE_AFTER) {
        documentCounts.clear();
        totalDocuments = null;
        writesSinceCount = 0;
      }
    },
  };
}
