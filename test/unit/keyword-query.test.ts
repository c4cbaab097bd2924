import { describe, expect, it } from 'vitest';
import { anyTermQuery } from '../../electron/core/memory/keyword-query';

describe('anyTermQuery', () => {
  it('ORs every word and CJK bigram as its own quoted term', () => {
    expect(anyTermQuery('附近有咖啡吗')).toBe('"附近" OR "近有" OR "有咖" OR "咖啡" OR "啡吗"');
    expect(anyTermQuery('Any "coffee" tips? 茶')).toBe('"any" OR "coffee" OR "tips" OR "茶"*');
    expect(anyTermQuery('?!')).toBeNull();
  });
});
