import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { searchTerms } from '../../electron/core/text/fts-text';
import { meaningfulTerms, termKeys } from '../../electron/core/text/meaningful-terms';
import { isStopTerm } from '../../electron/core/text/stop-words';

const keys = (text: string) => meaningfulTerms(text).map((t) => t.key);

describe('isStopTerm', () => {
  it('English function words and the pieces of contractions', () => {
    for (const w of ['where', 'do', 'i', 'now', 'what', 'the', 'for', 'is', 'of', 'don', 't', 's']) expect(isStopTerm(w), w).toBe(true);
    for (const w of ['live', 'porto', 'pets', 'dinner', 'capital', 'france', 'work']) expect(isStopTerm(w), w).toBe(false);
  });

  it('Chinese: bigrams with a particle, pronoun, the copula, a question word, 一 or 有, pairs of function characters, listed function words', () => {
    for (const t of ['什么', '我的', '是什', '在哪', '哪里', '我住', '写一', '有好', '多少', '怎样', '时候', '的', '吗', '我']) expect(isStopTerm(t), t).toBe(true);
    for (const t of ['住在', '过敏', '不吃', '咖啡', '喜欢', '工作', '茶', '猫']) expect(isStopTerm(t), t).toBe(false);
  });
});

describe('meaningfulTerms', () => {
  it('the issue’s questions keep what they are about, as stems', () => {
    expect(keys('Where do I live now?')).toEqual(['live']);
    expect(keys('What pets do I have?')).toEqual(['pet']);
    expect(keys('Where do I work?')).toEqual(['work']);
    expect(keys('What should I cook for dinner tonight?')).toEqual(['cook', 'dinner', 'tonight']);
    expect(keys('What is the capital of France?')).toEqual(['capit', 'franc']);
  });

  it('Chinese: the bigrams that are words stay, lone characters match as prefixes', () => {
    expect(keys('附近有好喝的咖啡吗')).toEqual(['附近', '好喝', '咖啡']);
    // 在住 straddles two words but holds no edge character: it stays, and weighs little (no memory holds it).
    expect(keys('我现在住在哪里？')).toEqual(['现在', '在住', '住在']);
    expect(meaningfulTerms('喝 茶')).toEqual([
      { key: '喝', kind: 'cjk-char' },
      { key: '茶', kind: 'cjk-char' },
    ]);
    expect(meaningfulTerms('咖啡 tea')).toEqual([
      { key: '咖啡', kind: 'cjk' },
      { key: 'tea', kind: 'word' },
    ]);
  });

  it('marks the words written as names: capitalised inside a sentence, or in capitals', () => {
    const names = (text: string) => meaningfulTerms(text).filter((t) => t.name).map((t) => t.key);
    expect(names('Any tips for a weekend in Porto?')).toEqual(['porto']);
    expect(names("When is Sofia's birthday?")).toEqual(['sofia']);
    expect(names('How do I centre a div in CSS?')).toEqual(['css']);
    expect(names('Porto: any tips? And Lisbon?')).toEqual(['lisbon']);
    expect(names('“Porto” first.\nLisbon next')).toEqual([]);
    expect(names('how do I fix a flat tyre')).toEqual([]);
  });

  it('a question made only of function words has none', () => {
    expect(meaningfulTerms('What is it? 是什么？')).toEqual([]);
    expect(meaningfulTerms('')).toEqual([]);
  });

  it('the query side and the document side agree: a text holds every meaningful term of its own', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.array(fc.constantFrom('Lives', 'living', 'in', 'Porto', 'the', 'pets', '我', '住在', '咖啡', '喝', '的', '茶', 'Café', 'ＲＥＡＣＴ', "don't", ' ', '，'), { maxLength: 12 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, (t) => {
        const held = termKeys(t);
        for (const term of meaningfulTerms(t)) expect(held.has(term.key), `${t}: ${term.key}`).toBe(true);
      }),
    );
  });

  it('leaves CJK as fts-text cuts it: every CJK key is one of its search terms, unchanged', () => {
    const cjk = fc.array(fc.constantFrom(...Array.from('我住在波尔图喜欢喝咖啡和绿茶的了吗什么哪里过敏不吃有一是')), { minLength: 1, maxLength: 12 }).map((a) => a.join(''));
    fc.assert(
      fc.property(cjk, (t) => {
        const terms = new Set(searchTerms(t));
        for (const term of meaningfulTerms(t)) {
          expect(term.kind).not.toBe('word');
          expect(terms.has(term.key)).toBe(true);
        }
      }),
    );
  });

  it('word forms share keys: a memory in one form holds the key of a question in another', () => {
    expect(termKeys('Lives in Porto').has(keys('Where do I live now?')[0]!)).toBe(true);
    expect(termKeys('Has a pet rabbit').has(keys('What pets do I have?')[0]!)).toBe(true);
    expect(termKeys('Works at Acme Robotics').has(keys('Where do I work?')[0]!)).toBe(true);
    expect(termKeys('我每天早上喝茶').has('茶')).toBe(true);
  });
});
