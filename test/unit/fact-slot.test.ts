import { describe, expect, it } from 'vitest';
import { candidateSlots, factSlots, sameValue, slotCues, type FactSlot } from '../../electron/core/extraction/fact-slot';
import { searchTerms } from '../../electron/core/text/fts-text';

/** [text, expected slot and value terms ("slot=key key"), or null for no slot]. */
const CORPUS: Array<[string, string | null]> = [
  // Residence, English.
  ['Lives in Porto', 'residence=porto'],
  ['The user lives in Porto', 'residence=porto'],
  ['I live in Porto with my partner', 'residence=porto'],
  ['Moved to Berlin', 'residence=berlin'],
  ['I moved to Berlin last month for a new job', 'residence=berlin'],
  ['Last year, I moved from Paris to Berlin', 'residence=berlin'],
  ["I'm based in Lisbon", 'residence=lisbon'],
  ['Is now living in New York', 'residence=new york'],
  ['i moved to berlin', 'residence=berlin'],
  ['Moved to the Netherlands', 'residence=netherland'],
  ['My sister lives in Lisbon', null],
  ["The user's sister lives in Lisbon", null],
  ['My sister lives in Lisbon, works at Acme', null],
  ['I used to live in Paris', null],
  ['Lived in Paris for five years', null],
  ['Plans to move to Berlin next year', null],
  ['Moved to a new flat', null],
  ['I live in fear of spiders', null],
  ['The company is based in Porto', null],
  // Residence, Chinese.
  ['住在杭州', 'residence=杭州'],
  ['用户住在杭州', 'residence=杭州'],
  ['我去年搬到了上海', 'residence=上海'],
  ['我搬到柏林了', 'residence=柏林'],
  ['我家在成都', 'residence=成都'],
  ['我妹妹住在里斯本', null],
  ['我以前住在北京', null],
  ['我打算搬到深圳', null],
  ['我住在学校附近', null],
  // Employer.
  ['Works at Acme Robotics', 'employer=acm robot'],
  ['I work at Acme and volunteer at the shelter', 'employer=acm'],
  ['The user works for Globex as a designer', 'employer=globex'],
  ['Joined Initech last week', 'employer=initech'],
  ['Joined a gym', null],
  ['Works at home', null],
  ['Used to work at Google', null],
  ['在阿里巴巴工作', 'employer=巴巴 里巴 阿里'],
  ['我现在在腾讯上班', 'employer=腾讯'],
  ['就职于华为', 'employer=华为'],
  ['入职了字节跳动', 'employer=字节 节跳 跳动'],
  ['加入了一个读书会', null],
  ['我以前在百度工作', null],
  ['我朋友在腾讯上班', null],
  // Occupation.
  ['Works as a nurse', 'occupation=nurs'],
  ["The user's job is software engineer", 'occupation=engin softwar'],
  ['Is a vegetarian', null],
  ['我是一名程序员', 'occupation=序员 程序'],
  ['我的职业是律师', 'occupation=律师'],
  // Age.
  ['I am 34 years old', 'age=34'],
  ['Turned 35 last week', 'age=35'],
  ['My son is 5 years old', null],
  ['今年30岁', 'age=30'],
  ['我30岁的时候去过日本', null],
  ['我儿子5岁', null],
  // Relationship.
  ['Married to Ana', 'relationship=married ana'],
  ['Is single', 'relationship=single'],
  ['Has a girlfriend named Mia', 'relationship=relationship mia'],
  ['Is engaged in an open-source project', null],
  ['Single malt whisky is a favourite drink', null],
  ['已婚', 'relationship=married'],
  ['我单身', 'relationship=single'],
  ['我有女朋友了', 'relationship=relationship'],
  // Favourites.
  ['My favourite colour is blue', 'favourite:color=blue'],
  ["The user's favorite color is green", 'favourite:color=green'],
  ["My sister's favourite colour is red", null],
  ['我最喜欢的颜色是蓝色', 'favourite:颜色=蓝色'],
  // Unrelated facts.
  ['Has a cat named Doudou', null],
  ['Likes hiking in the Alps', null],
  ['养了一只叫豆豆的橘猫', null],
];

const show = (slots: FactSlot[]) => slots.map((s) => `${s.slot}=${s.keys.join(' ')}`);

describe('factSlots: single-valued facts about the user', () => {
  it.each(CORPUS)('%s -> %s', (text, expected) => {
    expect(show(factSlots(text))).toEqual(expected === null ? [] : [expected]);
  });

  it('has at least 40 cases, with negatives in both languages', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(CORPUS.filter(([, e]) => e === null).length).toBeGreaterThanOrEqual(15);
  });

  it('finds every slot of a text with two facts', () => {
    expect(show(factSlots('Lives in Porto and works at Acme'))).toEqual(['residence=porto', 'employer=acm']);
    expect(show(factSlots('我住在杭州，在阿里巴巴工作'))).toEqual(['residence=杭州', 'employer=巴巴 里巴 阿里']);
    expect(show(factSlots('My sister lives in Lisbon and I live in Porto'))).toEqual(['residence=porto']);
  });

  it('every text with a slot holds one of its cue words, so the keyword lookup finds it', () => {
    for (const [text] of CORPUS) {
      for (const slot of factSlots(text)) {
        const terms = searchTerms(text);
        const cueFound = slotCues(slot.slot).some((cue) => searchTerms(cue).every((t) => terms.some((x) => x === t || x.startsWith(t))));
        expect(cueFound, `${text}: ${slot.slot}`).toBe(true);
      }
    }
  });
});

describe('sameValue', () => {
  const one = (text: string) => factSlots(text)[0]!;
  it('one value within the other is the same value', () => {
    expect(sameValue(one('Works at Acme'), one('Works at Acme Robotics'))).toBe(true);
    expect(sameValue(one('Lives in Porto'), one('Moved to Porto last year'))).toBe(true);
    expect(sameValue(one('住在杭州'), one('住在杭州市'))).toBe(true);
    expect(sameValue(one('Is married'), one('Married to Ana'))).toBe(true);
  });
  it('different names, or a different status, are different values', () => {
    expect(sameValue(one('Lives in Porto'), one('Moved to Berlin'))).toBe(false);
    expect(sameValue(one('在阿里巴巴工作'), one('在腾讯工作'))).toBe(false);
    expect(sameValue(one('Is single'), one('Married to Ana'))).toBe(false);
    expect(sameValue(one('Has a girlfriend named Mia'), one('Has a girlfriend named Zoe'))).toBe(false);
  });
});

describe('candidateSlots: only what the user\'s own words state', () => {
  it('keeps a slot the evidence states with the same value', () => {
    expect(show(candidateSlots('Lives in Berlin', ['I moved to Berlin']))).toEqual(['residence=berlin']);
    expect(show(candidateSlots('在腾讯工作', ['我现在在腾讯上班了']))).toEqual(['employer=腾讯']);
    expect(show(candidateSlots('在腾讯上班', ['我现在在腾讯上班']))).toEqual(['employer=腾讯']);
  });
  it('drops a slot read into a past, planned or someone else\'s fact', () => {
    expect(candidateSlots('Lives in Paris', ['I used to live in Paris'])).toEqual([]);
    expect(candidateSlots('Lives in Lisbon', ['My sister lives in Lisbon'])).toEqual([]);
    expect(candidateSlots('Lives in Berlin', ['We are thinking of moving to Berlin'])).toEqual([]);
    expect(candidateSlots('住在北京', ['我以前住在北京'])).toEqual([]);
  });
  it('keeps the current fact of a message that also tells a past one', () => {
    expect(show(candidateSlots('Lives in Berlin', ['I used to live in Paris, but now I live in Berlin']))).toEqual(['residence=berlin']);
    expect(candidateSlots('Lives in Paris', ['I used to live in Paris, but now I live in Berlin'])).toEqual([]);
  });
});
