import { describe, expect, it } from 'vitest';
import { anyOf, messageTerms, rarestTerms } from '../../electron/core/memory/keyword-query';

describe('anyOf(messageTerms(text))', () => {
  const anyTermQuery = (text: string) => anyOf(messageTerms(text));
  it('ORs every word and CJK bigram as its own quoted term', () => {
    expect(anyTermQuery('附近有咖啡吗')).toBe('"附近" OR "近有" OR "有咖" OR "咖啡" OR "啡吗"');
    expect(anyTermQuery('Any "coffee" tips? 茶')).toBe('"any" OR "coffee" OR "tips" OR "茶"*');
    expect(anyTermQuery('?!')).toBeNull();
  });

  it('messageTerms: distinct, in order, a lone CJK character as a prefix; anyOf of none is null', () => {
    expect(messageTerms('tea, TEA and 茶')).toEqual([
      { text: 'tea', prefix: false },
      { text: 'and', prefix: false },
      { text: '茶', prefix: true },
    ]);
    expect(anyOf([])).toBeNull();
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
