/**
 * Which memories a request to forget means (electron/core/memory/memory-forget.ts chooseForgetTargets), and what the
 * extractor must not learn again once trashed (repeatsTrashed): pure rules, both languages.
 */
import { describe, expect, it } from 'vitest';
import { chooseForgetTargets, MAX_CANDIDATES, repeatsTrashed } from '../../electron/core/memory/memory-forget';

const found = (...contents: string[]) => contents.map((content, i) => ({ id: i + 1, content }));

describe('chooseForgetTargets', () => {
  it('one clear match is trashed; a memory sharing only a word is not even offered beside it', () => {
    expect(chooseForgetTargets('I live in Berlin', found('Lives in Berlin', 'Works at a startup in Berlin', 'Has a cat'))).toEqual({ trash: [1], candidates: [] });
  });

  it('several clear matches: none trashed, all offered', () => {
    expect(chooseForgetTargets('Berlin', found('Lives in Berlin', 'Was born in Berlin', 'Has a cat'))).toEqual({ trash: [], candidates: [1, 2] });
  });

  it('only partial matches: offered best first, never trashed', () => {
    expect(chooseForgetTargets('my old job at Acme in Lisbon', found('Visited Lisbon once', 'Worked at Acme in Lisbon as a nurse'))).toEqual({ trash: [], candidates: [2, 1] });
  });

  it('a neighbour in meaning that shares no word with the request is never touched', () => {
    expect(chooseForgetTargets('my address', found('Lives in Berlin', 'Phone number ends in 42'))).toEqual({ trash: [], candidates: [] });
  });

  it('a name the request writes must be in a clear match', () => {
    expect(chooseForgetTargets('my sister Anna', found('Has a sister called Maria'))).toEqual({ trash: [], candidates: [1] });
  });

  it('Chinese: by bigrams', () => {
    expect(chooseForgetTargets('我住在柏林', found('住在柏林', '喜欢喝绿茶'))).toEqual({ trash: [1], candidates: [] });
    expect(chooseForgetTargets('柏林', found('住在柏林', '在柏林出生'))).toEqual({ trash: [], candidates: [1, 2] });
  });

  it('at most MAX_CANDIDATES are offered', () => {
    const many = Array.from({ length: MAX_CANDIDATES + 3 }, (_, i) => `Visited Berlin in ${2000 + i}`);
    expect(chooseForgetTargets('Berlin', found(...many)).candidates).toHaveLength(MAX_CANDIDATES);
  });
});

describe('repeatsTrashed', () => {
  it('the same fact in other words, either way round', () => {
    expect(repeatsTrashed('Lives in Berlin', 'The user lives in Berlin')).toBe(true);
    expect(repeatsTrashed('The user lives in Berlin', 'Lives in Berlin')).toBe(true);
    expect(repeatsTrashed('用户住在柏林', '住在柏林')).toBe(true);
  });

  it('another fact is learned', () => {
    expect(repeatsTrashed('Works in Berlin', 'Lives in Berlin')).toBe(false);
    expect(repeatsTrashed('Has a dog', 'Lives in Berlin')).toBe(false);
  });

  it('a one-term trashed memory does not keep every later mention of its word out', () => {
    expect(repeatsTrashed('The cat is called Miso', 'Cat')).toBe(false);
  });
});
