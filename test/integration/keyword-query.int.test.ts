import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyOf } from '../../electron/core/search/keyword-query';
import { toFtsDocument } from '../../electron/core/text/fts-text';
import { meaningfulTerms } from '../../electron/core/text/meaningful-terms';

// Against SQLite's real FTS5 parser and tokenizer. The table is hand-written on purpose: this tests the query text,
// not Mnemo's schema (memories_fts has the same tokenizer). Tokens are the terms' own keys here; in the product a word's
// tokens come from the index vocabulary (keyword-index.int.test.ts).
let db: Database.Database;

beforeAll(() => {
  db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 2')");
  db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)').run(1, toFtsDocument('我每天早上喝咖啡'));
  db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)').run(2, toFtsDocument('Plays chess (on "Sundays")'));
});

afterAll(() => db.close());

const match = (text: string) => {
  const q = anyOf(meaningfulTerms(text).map((term) => ({ term, tokens: [term.key], documents: 1 })));
  return q === null ? [] : (db.prepare('SELECT rowid AS id FROM t WHERE t MATCH ? ORDER BY rank').all(q) as Array<{ id: number }>).map((r) => r.id);
};

describe('anyOf(meaningful terms) in FTS5', () => {
  it('finds a memory sharing one term of a long sentence, Chinese or English', () => {
    expect(match('附近有好喝的咖啡吗')).toEqual([1]);
    expect(match('Who NEAR( "AND" OR chess')).toEqual([2]);
    expect(match('早')).toEqual([1]);
    expect(match('茶')).toEqual([]);
  });

  it('is never a syntax error, whatever the user typed', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.array(fc.constantFrom('"', '*', '(', ')', 'NEAR', 'OR', 'NOT', '^', ':', '咖', '啡', 'é', ' '), { maxLength: 20 }).map((a) => a.join(''))), (text) => {
        expect(() => match(text)).not.toThrow();
      }),
    );
  });
});
