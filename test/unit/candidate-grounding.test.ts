import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentGrounding, countTerms, evidenceGrounding, indexUserWords } from '../../electron/core/safety/candidate-grounding';
import { detectLanguage, otherLanguageReason } from '../../electron/core/safety/message-language';
import { PROPERTY_TEST_TIMEOUT_MS } from '../support/timeouts';

const content = (text: string, userText: string) => contentGrounding(text, indexUserWords(userText));
const evidence = (text: string, userText: string) => evidenceGrounding(text, indexUserWords(userText));

describe('contentGrounding: every term of the content is the user\'s', () => {
  it('ignores the words that frame a statement about a person', () => {
    const user = 'I moved to Porto last year.';
    expect(content('The user mentioned that they currently live in Porto', user)).toBeNull();
    expect(content('Lives in Porto', user)).toBeNull();
    expect(content('用户提到自己住在杭州', '我去年搬到了杭州')).toBeNull();
  });

  it('refuses a content of framing alone, which says nothing', () => {
    expect(content('Likes it a lot', 'I like it a lot, honestly')).toBe('content_too_short');
    expect(content('喜欢', '我很喜欢')).toBe('content_too_short');
  });

  it('accepts word forms the stemmer does not join, not unrelated words', () => {
    expect(content('Has a peanut allergy', "I'm allergic to peanuts")).toBeNull();
    expect(content('Is a backend developer', "I'm a backend dev")).toBeNull();
    expect(content('Is a frontend developer', "I'm a backend dev")).toBe('content_not_in_user_text');
  });

  it('takes numbers as the user wrote them, in words, digits or Chinese numerals', () => {
    expect(content('Has 2 cats', 'We have two cats')).toBeNull();
    expect(content('Has run twenty marathons', 'I have run 20 marathons')).toBeNull();
    expect(content('Has three cats', 'We have 2 cats')).toBe('content_not_in_user_text');
    expect(content('老大8岁', '老大八岁')).toBeNull();
    expect(content('有三个孩子', '三年前我有了两个孩子')).toBe('content_not_in_user_text');
  });

  it('counts a new CJK word as invented even when one of its characters is the user\'s', () => {
    expect(countTerms('住在苏州', indexUserWords('我住在杭州，去过广州'))).toMatchObject({ invented: 1 });
    // The model's 叫 does not vouch for 小: 小米 is a word the user never wrote.
    expect(content('女儿叫小米', '我女儿叫小美')).toBe('content_not_in_user_text');
    expect(content('女儿叫小美', '我女儿叫小美')).toBeNull();
  });

  it('accepts the user\'s one-character words in new places, not a character the user never wrote', () => {
    expect(content('每天喝咖啡', '我每天早上都要喝一杯美式咖啡')).toBeNull();
    expect(content('喜欢吃面条', '我喜欢吃面包')).toBe('content_not_in_user_text');
  });
});

describe('evidenceGrounding: most terms, and every name and number, are the user\'s', () => {
  const user = "I'm allergic to peanuts, had to use my epipen last week at a work lunch";

  it('accepts third person and restatements', () => {
    expect(evidence('The user is allergic to peanuts', user)).toBeNull();
    expect(evidence('User had to use an EpiPen at a work lunch last week because of peanuts', user)).toBeNull();
  });

  it('refuses a name or number the user did not write, however much else matches', () => {
    expect(evidence('I had to use my epipen last week at a work lunch in Madrid', user)).toBe('evidence_not_in_user_text');
    expect(evidence('had to use my epipen 3 times last week at a work lunch', user)).toBe('evidence_not_in_user_text');
  });

  it('needs at least one term of its own: a pronoun or framing vouches for nothing', () => {
    expect(evidence('I', user)).toBe('evidence_too_short');
    expect(evidence('The user said so', user)).toBe('evidence_too_short');
    expect(evidence('香菜', '我不吃香菜')).toBeNull();
  });
});

describe('grounding properties', { timeout: PROPERTY_TEST_TIMEOUT_MS }, () => {
  const vocabulary = ['garden', 'tomato', 'balcony', 'bicycle', 'violin', 'museum', 'kayak', 'lemon', 'winter', 'chess', 'harbour', 'pottery'];
  const userWords = fc.uniqueArray(fc.constantFrom(...vocabulary), { minLength: 2, maxLength: 8 });

  it('content made of the user\'s own words is grounded, in any order', () => {
    fc.assert(
      fc.property(userWords, fc.integer({ min: 0, max: 1000 }), (words, seed) => {
        const userText = `I talk about ${words.join(' and ')} a lot.`;
        const picked = words.filter((_, i) => (seed >> i) & 1 || i === 0).reverse();
        expect(content(`Likes ${picked.join(', ')}`, userText)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('content with one word the user never wrote is refused', () => {
    const invented = fc.stringMatching(/^zq[a-y]{3,6}$/); // no vocabulary word starts with z, none of them starts this one
    fc.assert(
      fc.property(userWords, invented, (words, extra) => {
        const userText = `I talk about ${words.join(' and ')} a lot.`;
        expect(content(`Likes ${[...words, extra].join(', ')}`, userText)).toBe('content_not_in_user_text');
      }),
      { numRuns: 300 },
    );
  });

  it('Chinese content taken from the user\'s text is grounded; with two characters the user never wrote it is not', () => {
    const userChars = Array.from('猫狗茶花书画山河湖海风雨雪云');
    const absent = Array.from('鱼鸟虎龙');
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...userChars), { minLength: 6, maxLength: 20 }), fc.nat(), fc.constantFrom(...absent), fc.constantFrom(...absent), (chars, at, a, b) => {
        const userText = chars.join('');
        const start = at % (chars.length - 2);
        const slice = chars.slice(start, start + 3).join('');
        expect(content(slice, userText)).toBeNull();
        expect(content(`${slice}${a}${b}`, userText)).toBe('content_not_in_user_text');
      }),
      { numRuns: 300 },
    );
  });
});

describe('message language', () => {
  it('flags content without a letter of the message\'s script', () => {
    expect(otherLanguageReason('Has an orange cat named Doudou', 'zh')).toBe('content in English, message in Chinese');
    expect(otherLanguageReason('住在波尔图', 'en')).toBe('content in Chinese, message in English');
  });

  it('keeps content that mixes in the other script, as users do', () => {
    expect(otherLanguageReason('在用 React 写前端', 'zh')).toBeNull();
    expect(otherLanguageReason('Cooks 麻婆豆腐 every Sunday', 'en')).toBeNull();
    expect(otherLanguageReason('Пьёт чай', 'zh')).toBeNull(); // neither script: the rule knows only en/zh
  });

  it('reads the message\'s language as the prompt does', () => {
    expect(detectLanguage('我在用React和TypeScript写项目')).toBe('zh');
    expect(detectLanguage('I love 寿司')).toBe('en');
  });
});
