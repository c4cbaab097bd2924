import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isShortPrefixQuery, MAX_QUERY_TERMS, searchTerms, toFtsDocument, toFtsQuery } from '../../electron/core/text/fts-text';

// One FTS5 string ("..." with "" as the only escape), optionally a prefix query.
const TERM = String.raw`"(?:[^"]|"")+"\*?`;
const ALL_QUERY = new RegExp(`^${TERM}(?: AND ${TERM})*$`, 'u');
const ANY_QUERY = new RegExp(`^${TERM}(?: OR ${TERM})*$`, 'u');

// Inputs biased towards what breaks naive FTS5 queries, mixed with CJK and arbitrary code points.
const hostileQuery = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc
    .array(
      fc.oneof(
        fc.constantFrom('"', "'", '(', ')', '*', ':', '^', '-', '+', '{', '}', 'NEAR', 'AND', 'OR', 'NOT', 'body:', ' '),
        fc.constantFrom('咖', '啡', '茶', '한', 'カ', 'é', 'x', '1', '\u0301', '\u19b0', '\u0000', '\ud800', '😀'),
        fc.string({ maxLength: 3 }),
      ),
      { maxLength: 20 },
    )
    .map((parts) => parts.join('')),
);

describe('toFtsDocument', () => {
  it('turns a CJK run into its bigrams plus the last character', () => {
    expect(toFtsDocument('我喜欢喝咖啡和茶')).toBe('我喜 喜欢 欢喝 喝咖 咖啡 啡和 和茶 茶');
  });

  it('keeps a lone CJK character as a unigram and words as words', () => {
    expect(toFtsDocument('我在用 React 写 Mnemo 项目')).toBe('我在 在用 用 react 写 mnemo 项目 目');
  });

  it('separates CJK from adjacent Latin without spaces', () => {
    expect(toFtsDocument('用React写代码')).toBe('用 react 写代 代码 码');
  });

  it('folds full-width forms and Latin accents, drops punctuation and emoji', () => {
    expect(toFtsDocument('ＲＥＡＣＴ１２３ Café, naïve! 😀 node.js')).toBe('react123 cafe naive node js');
  });

  it('breaks CJK runs at CJK punctuation', () => {
    expect(toFtsDocument('咖啡、茶。')).toBe('咖啡 啡 茶');
  });

  it('bigrams kana and Hangul too', () => {
    expect(toFtsDocument('カタカナ')).toBe('カタ タカ カナ ナ');
    expect(toFtsDocument('한국어')).toBe('한국 국어 어');
  });

  it('is empty for text with nothing searchable', () => {
    expect(toFtsDocument('')).toBe('');
    expect(toFtsDocument('!!! 😀 ...')).toBe('');
  });

  it('emits only letters, digits and marks, one space between tokens', () => {
    fc.assert(
      fc.property(hostileQuery, (text) => {
        const doc = toFtsDocument(text);
        if (doc === '') return;
        for (const token of doc.split(' ')) expect(token).toMatch(/^[\p{L}\p{N}\p{M}\p{Co}]+$/u);
      }),
    );
  });

  it('gives a CJK run of n characters n tokens, every character starting exactly one of them', () => {
    const cjkRun = fc.array(fc.integer({ min: 0x4e00, max: 0x9fa5 }), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(cjkRun, (codes) => {
        const chars = codes.map((c) => String.fromCodePoint(c));
        const tokens = toFtsDocument(chars.join('')).split(' ');
        expect(tokens.map((t) => Array.from(t)[0])).toEqual(chars);
      }),
    );
  });
});

describe('toFtsQuery', () => {
  it('makes a CJK word the phrase of its bigrams', () => {
    expect(toFtsQuery('咖啡店')).toBe('"咖啡 啡店"');
    expect(toFtsQuery('咖啡')).toBe('"咖啡"');
  });

  it('makes a single CJK character a prefix query', () => {
    expect(toFtsQuery('茶')).toBe('"茶"*');
  });

  it('joins terms with AND by default and OR in any mode', () => {
    expect(toFtsQuery('mnemo 项目')).toBe('"mnemo" AND "项目"');
    expect(toFtsQuery('mnemo 项目', { mode: 'any' })).toBe('"mnemo" OR "项目"');
  });

  it('puts the prefix star on the last word only', () => {
    expect(toFtsQuery('react hoo', { prefix: true })).toBe('"react" AND "hoo"*');
    expect(toFtsQuery('react hoo')).toBe('"react" AND "hoo"');
    expect(toFtsQuery('hoo 项目', { prefix: true })).toBe('"hoo" AND "项目"');
  });

  it('keeps punctuation-joined words together as a phrase', () => {
    expect(toFtsQuery('node.js')).toBe('"node js"');
    expect(toFtsQuery('e-ma', { prefix: true })).toBe('"e ma"*');
  });

  it('neutralizes operators, quotes and column filters', () => {
    expect(toFtsQuery('NOT "foo" OR (bar) NEAR(a b) body:x ^y -z *')).toBe(
      '"not" AND "foo" AND "or" AND "bar" AND "near a" AND "b" AND "body x" AND "y" AND "z"',
    );
  });

  it('splits CJK from Latin inside one chunk', () => {
    expect(toFtsQuery('React写Mnemo')).toBe('"react" AND "写"* AND "mnemo"');
  });

  it('drops repeated terms', () => {
    expect(toFtsQuery('react React REACT')).toBe('"react"');
  });

  it('returns null when nothing searchable remains', () => {
    expect(toFtsQuery('')).toBeNull();
    expect(toFtsQuery('   ')).toBeNull();
    expect(toFtsQuery('"" () * : ^ - 😀 ！？')).toBeNull();
    expect(toFtsQuery('\u19b0')).toBeNull();
  });

  it('caps the number of terms', () => {
    const many = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    expect(toFtsQuery(many)?.split(' AND ')).toHaveLength(MAX_QUERY_TERMS);
  });

  it('always returns null or a well-formed expression of quoted terms', () => {
    const opts = fc.record({ mode: fc.constantFrom('all' as const, 'any' as const), prefix: fc.boolean() });
    fc.assert(
      fc.property(hostileQuery, opts, (q, o) => {
        const result = toFtsQuery(q, o);
        if (result === null) {
          expect(searchTerms(q)).toEqual([]);
          return;
        }
        expect(result).toMatch(o.mode === 'any' ? ANY_QUERY : ALL_QUERY);
      }),
    );
  });
});

describe('isShortPrefixQuery', () => {
  it('is a lone word of one or two characters, or a lone CJK character', () => {
    for (const q of ['e', 'Ab', ' n ', 'é', '茶', '"e"', '(x']) expect(isShortPrefixQuery(q), q).toBe(true);
    for (const q of ['', '  ', '!!', 'tea', 'green t', 'e x', '咖啡', '喝 茶', 'node.js', 'a.b']) expect(isShortPrefixQuery(q), q).toBe(false);
  });
});

describe('searchTerms', () => {
  it('lists words and CJK bigrams, symmetric for queries and documents', () => {
    expect(searchTerms('我喝茶 tea')).toEqual(['我喝', '喝茶', 'tea']);
    expect(searchTerms('茶')).toEqual(['茶']);
  });

  it('is a subsequence of the document tokens', () => {
    fc.assert(
      fc.property(hostileQuery, (text) => {
        const doc = toFtsDocument(text).split(' ');
        let at = 0;
        for (const term of searchTerms(text)) {
          at = doc.indexOf(term, at);
          expect(at).toBeGreaterThanOrEqual(0);
          at++;
        }
      }),
    );
  });
});
