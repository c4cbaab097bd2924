import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toFtsDocument, toFtsQuery, type FtsQueryOptions } from '../../electron/core/text/fts-text';

// Checks the encoding against SQLite's real FTS5 parser and tokenizer, which is the only judge of "never a syntax
// error". The table is hand-written here on purpose: this tests the text functions, not Mnemo's schema.
let db: Database.Database;

beforeAll(() => {
  db = new Database(':memory:');
  db.exec("CREATE VIRTUAL TABLE t USING fts5(body, tokenize='unicode61 remove_diacritics 2')");
});

afterAll(() => db.close());

function insert(text: string): number {
  return Number(db.prepare('INSERT INTO t(body) VALUES (?)').run(toFtsDocument(text)).lastInsertRowid);
}

function match(expression: string, onlyRowid?: number): number[] {
  const sql = 'SELECT rowid FROM t WHERE t MATCH ?' + (onlyRowid === undefined ? '' : ' AND rowid = ?');
  // BigInt on purpose: better-sqlite3 binds a JS number as REAL, and FTS5 (SQLite 3.53) silently drops a
  // `rowid = <real>` constraint next to MATCH, returning every matching row.
  const args = onlyRowid === undefined ? [expression] : [expression, BigInt(onlyRowid)];
  return db
    .prepare(sql)
    .all(...args)
    .map((r) => (r as { rowid: number }).rowid);
}

function search(userQuery: string, opts?: FtsQueryOptions): number[] {
  const q = toFtsQuery(userQuery, opts);
  return q === null ? [] : match(q);
}

const anyOpts = fc.record({ mode: fc.constantFrom('all' as const, 'any' as const), prefix: fc.boolean() });

const hostileQuery = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom('"', "'", '(', ')', '*', ':', '^', '-', '+', '{', '}', ',', 'NEAR', 'AND', 'OR', 'NOT', 'body:'),
        fc.constantFrom(' ', '咖', '啡', '茶', '한', 'カ', 'é', 'x', '1', '\u0301', '\u19b0', '\u0000', '\ud800', '😀'),
        fc.string({ maxLength: 3 }),
      ),
      { maxLength: 20 },
    )
    .map((parts) => parts.join('')),
);

describe('FTS5 accepts every generated query', () => {
  beforeAll(() => {
    insert('我喜欢喝咖啡和茶 coffee and tea');
  });

  it('rejects raw user syntax, so the harness can tell a bad query', () => {
    expect(() => match('"unbalanced')).toThrow(/syntax|unterminated/i);
    expect(() => match('AND')).toThrow();
    expect(() => match('nosuchcolumn:x')).toThrow();
  });

  it('never raises an SQLite error for hostile input', () => {
    fc.assert(
      fc.property(hostileQuery, anyOpts, (q, opts) => {
        const expression = toFtsQuery(q, opts);
        if (expression !== null) match(expression);
      }),
      { numRuns: 2000 },
    );
  });

  it('stores any text without error', () => {
    fc.assert(
      fc.property(hostileQuery, (text) => {
        insert(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe('recall', () => {
  let coffee: number;
  let beijing: number;
  let project: number;
  let mixed: number;
  let english: number;
  let tea: number;

  beforeAll(() => {
    db.exec('DELETE FROM t');
    coffee = insert('我喜欢喝咖啡和茶，但是今天没喝');
    beijing = insert('明天我们去北京出差开会');
    project = insert('这个项目的进度有点慢');
    mixed = insert('我在用 React 写 Mnemo 项目');
    english = insert('Searching for documents with prefixes and naïve café accents');
    tea = insert('我喜欢喝茶');
  });

  it('finds two-character Chinese words inside longer runs', () => {
    expect(search('咖啡')).toEqual([coffee]);
    expect(search('北京')).toEqual([beijing]);
    expect(search('项目').sort()).toEqual([project, mixed].sort());
  });

  it('finds a longer Chinese word only as a contiguous substring', () => {
    expect(search('喝咖啡')).toEqual([coffee]);
    expect(search('咖啡茶')).toEqual([]);
  });

  it('finds mixed Chinese and English text by either language', () => {
    expect(search('react')).toEqual([mixed]);
    expect(search('REACT')).toEqual([mixed]);
    expect(search('mnemo 项目')).toEqual([mixed]);
    expect(search('mnemo项目')).toEqual([mixed]);
  });

  it('finds a single CJK character wherever it sits in a run', () => {
    // 茶 ends the run in one document and precedes a comma in the other.
    expect(search('茶').sort()).toEqual([coffee, tea].sort());
    expect(search('写')).toEqual([mixed]);
    expect(search('京')).toEqual([beijing]);
  });

  it('searches English by prefix only when asked', () => {
    expect(search('docum')).toEqual([]);
    expect(search('docum', { prefix: true })).toEqual([english]);
    expect(search('searching pref', { prefix: true })).toEqual([english]);
  });

  it('ignores case and accents', () => {
    expect(search('NAIVE Cafe')).toEqual([english]);
  });

  it('requires all terms by default and any term in any mode', () => {
    expect(search('react 北京')).toEqual([]);
    expect(search('react 北京', { mode: 'any' }).sort()).toEqual([beijing, mixed].sort());
  });

  it('returns nothing for a query with no hits', () => {
    expect(search('kubernetes')).toEqual([]);
    expect(search('火车站')).toEqual([]);
  });

  it('finds any document by a query made of its own text', () => {
    fc.assert(
      fc.property(hostileQuery, anyOpts, (text, opts) => {
        const expression = toFtsQuery(text, opts);
        fc.pre(expression !== null);
        const id = insert(text);
        expect(match(expression!, id)).toEqual([id]);
      }),
      { numRuns: 500 },
    );
  });

  it('finds any CJK substring of a CJK run', () => {
    const cjk = fc.string({
      unit: fc.oneof(fc.integer({ min: 0x4e00, max: 0x4e80 }), fc.integer({ min: 0x3041, max: 0x3060 })).map((c) =>
        String.fromCodePoint(c),
      ),
      maxLength: 8,
    });
    fc.assert(
      fc.property(cjk, cjk.filter((w) => w.length > 0), cjk, (before, word, after) => {
        const id = insert(before + word + after);
        expect(match(toFtsQuery(word)!, id)).toEqual([id]);
      }),
      { numRuns: 500 },
    );
  });
});
