/**
 * The instruction corpus (test/fixtures/instruction-corpus.ts) through looksLikeInstruction: every instruction is
 * flagged, no ordinary fact or preference is. A failure prints every miss at once, so a rule change shows its whole
 * effect; the same figures beside an earlier detector: `npm run bench -- --only instruction-detector`.
 */
import { describe, expect, it } from 'vitest';
import { looksLikeInstruction } from '../../electron/core/safety/instruction-detector';
import { INSTRUCTION_PHRASINGS, ORDINARY_PHRASINGS, type LabelledPhrasing } from '../fixtures/instruction-corpus';

const count = (list: LabelledPhrasing[], language: 'en' | 'zh') => list.filter((p) => p.language === language).length;
const rows = (list: LabelledPhrasing[], why: (p: LabelledPhrasing) => string) => list.map((p) => `${p.language} | ${p.voice} | ${why(p)} | ${p.text}`).join('\n');

describe('instruction corpus', () => {
  it('holds at least 60 instructions and 60 ordinary phrasings, at least 25 of each in each language', () => {
    expect(INSTRUCTION_PHRASINGS.length).toBeGreaterThanOrEqual(60);
    expect(ORDINARY_PHRASINGS.length).toBeGreaterThanOrEqual(60);
    for (const language of ['en', 'zh'] as const) {
      expect(count(INSTRUCTION_PHRASINGS, language), `instructions/${language}`).toBeGreaterThanOrEqual(25);
      expect(count(ORDINARY_PHRASINGS, language), `ordinary/${language}`).toBeGreaterThanOrEqual(25);
    }
    // Both the user's words and the model's rewording, for each kind of request.
    for (const voice of ['user', 'memory'] as const) {
      for (const topic of ['persona', 'send-data', 'ignore'] as const) {
        expect(INSTRUCTION_PHRASINGS.some((p) => p.voice === voice && p.topic === topic), `${voice}/${topic}`).toBe(true);
      }
    }
  });

  it('flags every instruction', () => {
    const missed = INSTRUCTION_PHRASINGS.filter((p) => looksLikeInstruction(p.text) === null);
    expect(missed.length, `${missed.length} not flagged:\n${rows(missed, (p) => p.topic ?? '')}\n`).toBe(0);
  });

  it('flags no ordinary fact or preference', () => {
    const flagged = ORDINARY_PHRASINGS.filter((p) => looksLikeInstruction(p.text) !== null);
    expect(flagged.length, `${flagged.length} flagged:\n${rows(flagged, (p) => looksLikeInstruction(p.text)!.kind)}\n`).toBe(0);
  });
});
