/**
 * A secret the user gave must not come back through a candidate that repeats its value without the keyword that
 * made it a secret ("my bank PIN 4821" -> "Has a bank PIN (4821)"), which the detector alone cannot see.
 */
import { describe, expect, it } from 'vitest';
import { parseExtraction } from '../../electron/core/extraction/extract-parse';
import { detectSecret, secretEchoCheck } from '../../electron/core/safety/secret-detector';

const DATE = Date.UTC(2025, 2, 10);
const answer = (content: string, evidence: string) => JSON.stringify({ memories: [{ content, category: 'knowledge', importance: 0.6, confidence: 0.9, validity: 'permanent', evidence }] });

describe('a secret of the user message repeated in a candidate', () => {
  const cases: Array<{ user: string; content: string; evidence: string; kind: string }> = [
    { user: 'my bank PIN 4821 and I bank with ING in Amsterdam', content: 'Has a bank PIN (4821)', evidence: 'I bank with ING in Amsterdam', kind: 'secret:pin' },
    { user: '我把支付密码改成135790了，我用招商银行', content: '用户用招商银行，常用数字135790', evidence: '我用招商银行', kind: 'secret:password' },
    { user: 'my social security number is 536 22 1784 for the tax form', content: 'Tax form reference 5362 21784', evidence: 'for the tax form', kind: 'secret:id_number' },
    { user: "I'm using hunter2 as my password everywhere, is that bad?", content: 'Reuses hunter2 everywhere', evidence: 'as my password everywhere', kind: 'secret:password' },
  ];
  for (const c of cases) {
    it(`drops: ${c.content}`, () => {
      // The detector alone does not see a secret in what the model wrote: the user's message is what makes it one.
      expect(detectSecret(c.content)).toBeNull();
      const result = parseExtraction(answer(c.content, c.evidence), { userText: c.user, messageDate: DATE });
      expect(result.candidates).toEqual([]);
      expect(result.dropped).toEqual([{ index: 0, reason: c.kind }]);
    });
  }

  it('keeps a candidate from the same message that does not repeat the secret', () => {
    const result = parseExtraction(answer('Banks with ING in Amsterdam', 'I bank with ING in Amsterdam'), { userText: 'my bank PIN 4821 and I bank with ING in Amsterdam', messageDate: DATE });
    expect(result.candidates.map((c) => c.content)).toEqual(['Banks with ING in Amsterdam']);
  });

  it('compares numbers by their digits and ignores values shorter than 4 characters', () => {
    const check = secretEchoCheck('card 4539 1488 0343 6467 exp 12/27');
    expect(check('paid with 4539-1488-0343-6467')).toEqual({ kind: 'card_number' });
    expect(check('paid with 4539148803436467 again')).toEqual({ kind: 'card_number' });
    expect(check('paid on 12/27')).toBeNull();
    expect(secretEchoCheck('the cvv is 123')('Room 123')).toBeNull();
  });
});
