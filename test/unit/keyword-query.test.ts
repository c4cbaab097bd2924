import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyOf, MEMORY_FLOOR, QUESTION_FLOOR, rarestTerms, relevantMatches, termCoverage, termWeight, type WeightedTerm } from '../../electron/core/search/keyword-query';
import type { MeaningfulTerm } from '../../electron/core/text/meaningful-terms';

const word = (key: string): MeaningfulTerm => ({ key, kind: 'word' });

describe('anyOf', () => {
  it('ORs every token of every term, a lone CJK character as a prefix, each once', () => {
    expect(
      anyOf([
        { term: word('live'), tokens: ['lives', 'living'], documents: 3 },
        { term: { key: '咖啡', kind: 'cjk' }, tokens: ['咖啡'], documents: 1 },
        { term: { key: '茶', kind: 'cjk-char' }, tokens: ['茶'], documents: 1 },
        { term: word('say'), tokens: ['say "hi"', 'lives'], documents: 1 },
      ]),
    ).toBe('"lives" OR "living" OR "咖啡" OR "茶"* OR "say ""hi"""');
  });

  it('is null when no term has a token (nothing in the index has them)', () => {
    expect(anyOf([])).toBeNull();
    expect(anyOf([{ term: word('zebra'), tokens: [], documents: 0 }])).toBeNull();
  });
});

describe('rarestTerms', () => {
  const counts: Record<string, number> = { the: 9000, user: 8000, espresso: 3, walking: 40, tea: 2000, zebra: 0 };
  const rarest = (terms: string[], budget: number) => rarestTerms(terms, (t) => counts[t] ?? 0, budget);

  it('keeps the rarest terms, rarest first, while their documents fit the budget', () => {
    expect(rarest(['the', 'user', 'espresso', 'walking', 'tea'], 5000)).toEqual(['espresso', 'walking', 'tea']);
    expect(rarest(['the', 'user', 'espresso', 'walking', 'tea'], 2043)).toEqual(['espresso', 'walking', 'tea']);
    expect(rarest(['the', 'user', 'espresso', 'walking', 'tea'], 2042)).toEqual(['espresso', 'walking']);
  });

  it('keeps the rarest matching term even above the budget, and drops terms that match nothing', () => {
    expect(rarest(['the', 'user'], 100)).toEqual(['user']);
    expect(rarest(['zebra', 'the'], 100)).toEqual(['the']);
    expect(rarest(['zebra'], 100)).toEqual([]);
    expect(rarest([], 100)).toEqual([]);
  });
});

describe('termWeight', () => {
  const kinds = fc.constantFrom<MeaningfulTerm['kind']>('word', 'cjk', 'cjk-char');

  it('is positive and never grows with the number of memories holding the term', () => {
    fc.assert(
      fc.property(kinds, fc.nat(200_000), fc.nat(200_000), fc.nat(200_000), (kind, a, b, total) => {
        const term = { key: 'x', kind };
        const [fewer, more] = a < b ? [a, b] : [b, a];
        expect(termWeight(term, fewer, total)).toBeGreaterThan(0);
        if (fewer > 0) expect(termWeight(term, fewer, total)).toBeGreaterThanOrEqual(termWeight(term, more, total));
      }),
    );
  });

  it('an unseen word weighs most; an unseen CJK bigram half of that; a small store weighs like one of 1,000', () => {
    const unseen = termWeight(word('france'), 0, 5000);
    expect(unseen).toBeGreaterThan(termWeight(word('france'), 1, 5000));
    expect(termWeight({ key: '个城', kind: 'cjk' }, 0, 5000)).toBeCloseTo(unseen / 2, 10);
    expect(termWeight({ key: '茶', kind: 'cjk-char' }, 0, 5000)).toBeCloseTo(unseen, 10);
    expect(termWeight(word('coffee'), 1, 3)).toBeCloseTo(termWeight(word('coffee'), 1, 1000), 10);
  });
});

describe('termCoverage and relevantMatches', () => {
  const terms: WeightedTerm[] = [
    { key: 'capit', weight: 7 },
    { key: 'franc', weight: 7 },
  ];

  it('coverage is the weighted share of the terms held', () => {
    expect(termCoverage(terms, new Set(['capit', 'franc', 'other']))).toBe(1);
    expect(termCoverage(terms, new Set(['franc']))).toBe(0.5);
    expect(termCoverage(terms, new Set())).toBe(0);
    expect(termCoverage([], new Set(['x']))).toBe(0);
  });

  it('a question whose matches together hold too little of it gets none (the store does not know its subject)', () => {
    // "How do I fix a flat tyre?" beside "Rents a two-bedroom flat": fix and tyre are in no memory.
    const tyre: WeightedTerm[] = [
      { key: 'fix', weight: 7.6 },
      { key: 'flat', weight: 6.5 },
      { key: 'tyre', weight: 7.6 },
    ];
    expect(termCoverage(tyre, new Set(['flat']))).toBeGreaterThan(MEMORY_FLOOR);
    expect(termCoverage(tyre, new Set(['flat']))).toBeLessThan(QUESTION_FLOOR);
    expect(relevantMatches(tyre, [new Set(['rent', 'flat', 'bedroom'])])).toEqual([false]);
  });

  it('a question about two things keeps a memory for each; a memory sharing only a common word stays out', () => {
    const q: WeightedTerm[] = [
      { key: 'wife', weight: 6.5 },
      { key: 'work', weight: 2.9 },
      { key: 'the', weight: 0.1 },
    ];
    expect(relevantMatches(q, [new Set(['wife', 'sofia']), new Set(['work', 'acm']), new Set(['the', 'dog'])])).toEqual([true, true, false]);
    expect(termCoverage(q, new Set(['the']))).toBeLessThan(MEMORY_FLOOR);
  });

  it('a question of several parts is judged part by part too: a part the store does not know keeps no other part out', () => {
    // "Where do I work, and what is my blood type?": blood and type are in no memory.
    const q: WeightedTerm[] = [
      { key: 'work', weight: 4 },
      { key: 'blood', weight: 7.6 },
      { key: 'type', weight: 7.6 },
    ];
    const memories = [new Set(['work', 'nurse']), new Set(['split', 'keyboard'])];
    expect(relevantMatches(q, memories)).toEqual([false, false]);
    const parts = [new Set(['where', 'do', 'i', 'work']), new Set(['what', 'is', 'my', 'blood', 'type'])];
    expect(relevantMatches(q, memories, parts)).toEqual([true, false]);
    // One part alone is the whole question: no second judgement.
    expect(relevantMatches(q, memories, [parts[0]!])).toEqual([false, false]);
  });

  it('a time phrase counts for a memory that holds it, never against one that lacks it', () => {
    // "What did the dentist say last week?": last and week are in no memory about the dentist.
    const q: WeightedTerm[] = [
      { key: 'dentist', weight: 5 },
      { key: 'last', weight: 7.6 },
      { key: 'week', weight: 7.6 },
    ];
    const dentist = [new Set(['dentist', 'tooth'])];
    expect(relevantMatches(q, dentist)).toEqual([false]);
    const timed = q.map((t) => (t.key === 'dentist' ? t : { ...t, optional: true }));
    expect(relevantMatches(timed, dentist)).toEqual([true]);
    // "Where did I travel last year?" and "Went to Japan last year": the phrase's words still help the memory holding them.
    const travel: WeightedTerm[] = [
      { key: 'travel', weight: 7.6 },
      { key: 'trip', weight: 3 },
      { key: 'last', weight: 4, optional: true },
      { key: 'year', weight: 4, optional: true },
    ];
    expect(termCoverage(travel, new Set(['trip']))).toBeLessThan(MEMORY_FLOOR + 0.05);
    expect(termCoverage(travel, new Set(['trip', 'last', 'year']))).toBeGreaterThan(termCoverage(travel, new Set(['trip'])));
    expect(termCoverage([{ key: 'year', weight: 2, optional: true }], new Set(['year']))).toBe(1);
    expect(termCoverage([{ key: 'year', weight: 2, optional: true }], new Set(['day']))).toBe(0);
  });

  it('parts never make a candidate irrelevant (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd', 'e'), weight: fc.double({ min: 0.1, max: 10, noNaN: true }) }), { maxLength: 5 }),
        fc.array(fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'x')).map((k) => new Set(k)), { maxLength: 6 }),
        fc.array(fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e')).map((k) => new Set(k)), { maxLength: 3 }),
        (terms, candidates, parts) => {
          const whole = relevantMatches(terms, candidates);
          relevantMatches(terms, candidates, parts).forEach((kept, i) => {
            if (whole[i]) expect(kept).toBe(true);
          });
        },
      ),
    );
  });

  it('a memory holding a word the question wrote as a name is relevant whatever the floors say', () => {
    const porto: WeightedTerm[] = [
      { key: 'tip', weight: 7.6 },
      { key: 'weekend', weight: 7.6 },
      { key: 'porto', weight: 6.5, name: true },
    ];
    expect(termCoverage(porto, new Set(['live', 'porto']))).toBeLessThan(QUESTION_FLOOR);
    expect(relevantMatches(porto, [new Set(['live', 'porto'])])).toEqual([true]);
    expect(relevantMatches(porto.map((t) => ({ ...t, name: false })), [new Set(['live', 'porto'])])).toEqual([false]);
  });

  const question = fc.uniqueArray(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd', 'e'), weight: fc.double({ min: 0.01, max: 10, noNaN: true }), name: fc.boolean() }), {
    selector: (t) => t.key,
    maxLength: 5,
  });
  const keySet = fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'z'), { maxLength: 6 }).map((a) => new Set(a));

  it('does not depend on the order of the candidates', () => {
    fc.assert(
      fc.property(question, fc.array(keySet, { maxLength: 6 }), (terms, candidates) => {
        const forward = relevantMatches(terms, candidates);
        const backward = relevantMatches(terms, [...candidates].reverse());
        expect(backward).toEqual([...forward].reverse());
      }),
    );
  });

  it('holding more keys never makes a candidate irrelevant, nor the others', () => {
    fc.assert(
      fc.property(question, fc.array(keySet, { minLength: 1, maxLength: 6 }), fc.nat(5), fc.constantFrom('a', 'b', 'c', 'd', 'e'), (terms, candidates, i, extra) => {
        const before = relevantMatches(terms, candidates);
        const grown = candidates.map((k, j) => (j === i % candidates.length ? new Set([...k, extra]) : k));
        relevantMatches(terms, grown).forEach((kept, j) => {
          if (before[j]) expect(kept).toBe(true);
        });
      }),
    );
  });

  it('a candidate holding every term is relevant; no terms, nothing is', () => {
    fc.assert(
      fc.property(question, fc.array(keySet, { maxLength: 4 }), (terms, others) => {
        const all = new Set(terms.map((t) => t.key));
        expect(relevantMatches(terms, [all, ...others])[0]).toBe(terms.length > 0);
        expect(relevantMatches([], [all, ...others]).every((k) => !k)).toBe(true);
      }),
    );
  });
});
