import { describe, expect, it } from 'vitest';
import { ANSWER_MAX_CHARS, closingQuestion, QUESTION_MAX_CHARS } from '../../electron/core/extraction/answered-question';
import { parseExtraction } from '../../electron/core/extraction/extract-parse';
import { buildExtractionRequest } from '../../electron/core/extraction/extract-prompt';
import { TWO_TURN_CASES, type TwoTurnCase } from '../fixtures/two-turn-corpus';

const MESSAGE_DATE = Date.UTC(2026, 4, 12, 10);
const answer = (c: TwoTurnCase) =>
  JSON.stringify({ memories: [{ content: c.content, category: 'knowledge', importance: 0.6, confidence: 0.9, validity: 'permanent', evidence: c.evidence }] });
const learned = (c: TwoTurnCase, asked: string | null) => parseExtraction(answer(c), { userText: c.user, messageDate: MESSAGE_DATE, asked }).candidates.length === 1;

describe('two-turn facts: the corpus', () => {
  it('has at least 30 cases in both languages, learned and refused', () => {
    expect(TWO_TURN_CASES.length).toBeGreaterThanOrEqual(30);
    expect(new Set(TWO_TURN_CASES.map((c) => c.name)).size).toBe(TWO_TURN_CASES.length);
    for (const lang of ['en ', 'zh ']) {
      const of = TWO_TURN_CASES.filter((c) => c.name.startsWith(lang));
      expect(of.filter((c) => c.learned).length).toBeGreaterThanOrEqual(5);
      expect(of.filter((c) => !c.learned).length).toBeGreaterThanOrEqual(4);
    }
  });

  for (const c of TWO_TURN_CASES) {
    it(`${c.name}: ${c.learned ? 'learned' : 'refused'} with the question before it`, () => {
      expect(learned(c, closingQuestion(c.assistant))).toBe(c.learned);
      // Without the question: a fact that needs its words is not learned; the others do not depend on it.
      expect(learned(c, null)).toBe(c.learned && !c.needsQuestion);
      // Refused for where the question stands: the same fact against the whole reply would pass.
      if (c.liftedByWholeReply !== undefined) expect(learned(c, c.assistant)).toBe(c.liftedByWholeReply);
    });
  }
});

describe('closingQuestion', () => {
  it('takes the closing question sentences only, at most two', () => {
    expect(closingQuestion('That sounds great. What is your dog called?')).toBe('What is your dog called?');
    expect(closingQuestion('Nice. Do you have pets? What kind? How old?')).toBe('What kind? How old?');
    expect(closingQuestion('谢谢分享。你养宠物吗？养的是什么？')).toBe('你养宠物吗？ 养的是什么？');
    expect(closingQuestion('**Which city do you live in?**')).toBe('**Which city do you live in?');
  });

  it('is null when the reply ends in a statement or is empty', () => {
    expect(closingQuestion('Do you own a car? Either way, the train is cheaper.')).toBeNull();
    expect(closingQuestion('')).toBeNull();
    expect(closingQuestion('Here is the recipe.\n\n1. Boil water.')).toBeNull();
  });

  it('keeps the end of a very long question', () => {
    const q = closingQuestion(`${'a very long clause, '.repeat(40)}is that right?`)!;
    expect(q.length).toBeLessThanOrEqual(QUESTION_MAX_CHARS);
    expect(q.endsWith('is that right?')).toBe(true);
  });
});

describe('the extraction request with the question', () => {
  it('carries the question inside the data fence, before the user, and says what it is', () => {
    const req = buildExtractionRequest({ asked: 'What is your dog called?', userText: 'Rex', messageDate: MESSAGE_DATE });
    const user = req.messages[1]!.content;
    expect(user).toMatch(/"asked": "What is your dog called\?",\s*"user": "Rex"/);
    expect(user.indexOf('"asked"')).toBeGreaterThan(user.indexOf('```'));
    expect(req.messages[0]!.content).toContain('"asked" is the question the user answers');
    // The evidence is still the user's words only.
    expect(req.userWords).toBe('Rex');
  });

  it('costs nothing when no question was asked', () => {
    const without = buildExtractionRequest({ userText: 'Rex', messageDate: MESSAGE_DATE });
    expect(without.messages[1]!.content).not.toContain('"asked"');
    expect(without.messages[0]!.content).not.toContain('"asked"');
  });

  it('in Chinese too', () => {
    const req = buildExtractionRequest({ asked: '你的狗叫什么？', userText: '旺财', messageDate: MESSAGE_DATE });
    expect(req.messages[0]!.content).toContain('"asked" 是用户所回答的问题');
    expect(req.messages[1]!.content).toContain('"asked": "你的狗叫什么？"');
  });

  it('reads a message as an answer only when it is short', () => {
    const long = 'x'.repeat(ANSWER_MAX_CHARS + 1);
    const c = { content: 'Has a dog named Rex', evidence: 'Rex' };
    const raw = JSON.stringify({ memories: [{ ...c, category: 'knowledge', importance: 0.6, confidence: 0.9, validity: 'permanent' }] });
    expect(parseExtraction(raw, { userText: `Rex ${long}`, messageDate: MESSAGE_DATE, asked: 'What is your dog called?' }).candidates).toHaveLength(0);
    expect(parseExtraction(raw, { userText: 'Rex', messageDate: MESSAGE_DATE, asked: 'What is your dog called?' }).candidates).toHaveLength(1);
  });
});
