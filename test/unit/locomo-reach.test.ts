import { describe, expect, it } from 'vitest';
import { questionReach, scoreLocomo, type LocomoConversation, type LocomoQuestion } from '../../bench/locomo';

/** Twenty memories that all name Caroline (a speaker's name: common), one of them the grandmother's. */
function conversation(questions: LocomoQuestion[]): LocomoConversation {
  const facts = ['Caroline grandmother lives in Sweden.', ...Array.from({ length: 19 }, (_, i) => `Caroline painted picture number ${i}.`)];
  return {
    id: 't',
    askedAt: null,
    memories: facts.map((content, i) => ({ content, diaIds: new Set([`D1:${i + 1}`]), sessionDate: '', learnedAt: null })),
    questions,
  };
}

const ask = (text: string, evidence: string[]): LocomoQuestion => ({ text, category: 4, evidence });

describe('LoCoMo reach (bench/locomo.ts questionReach): what retrieval could find, from the texts alone', () => {
  it('tells a question matching words can answer from one only meaning can, and one no observation cites', () => {
    const c = conversation([
      ask('Where does Caroline’s grandmother live?', ['D1:1']),
      ask("What country is Caroline's grandma from?", ['D1:1']),
      ask('What did Caroline say about the weather?', ['D7:7']),
      ask('What did Caroline paint?', ['D1:2', 'D1:3']),
    ]);
    // "grandmother" is held by one memory of twenty (under a tenth); "Caroline" by all; "grandma" by none; "paint" by nineteen.
    expect(questionReach(c)).toEqual(['shared words', 'names only', 'unreachable', 'names only']);
  });

  it('splits a run\'s hits by reach', () => {
    const c = conversation([ask('Where does Caroline’s grandmother live?', ['D1:1']), ask("What country is Caroline's grandma from?", ['D1:1']), ask('Weather?', ['D7:7'])]);
    const score = scoreLocomo([c], [[[0], [5], [0]]]);
    expect(score.byReach).toEqual({ 'shared words': { hit: 1, of: 1 }, 'names only': { hit: 0, of: 1 }, unreachable: { hit: 0, of: 1 } });
  });
});
