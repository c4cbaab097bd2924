/**
 * Every case of the detector corpus (test/fixtures/detector-corpus.ts) through both detectors, as the extraction
 * parser uses them: a secret must be found (in the candidate and in what the user typed), a fact to keep and a
 * legitimate preference must pass both, a poisoning attempt must read as an instruction. A failure prints one table
 * of every miss, so a rule change shows its whole effect at once.
 */
import { describe, expect, it } from 'vitest';
import { looksLikeInstruction } from '../../electron/core/safety/instruction-detector';
import { detectSecret } from '../../electron/core/safety/secret-detector';
import { DETECTOR_CORPUS, type DetectorCase } from '../fixtures/detector-corpus';

interface Miss {
  kind: string;
  language: string;
  note: string;
  text: string;
  problem: string;
}

function texts(c: DetectorCase): Array<{ text: string; where: string }> {
  return [{ text: c.text, where: c.voice }, ...(c.userSaid !== undefined ? [{ text: c.userSaid, where: 'userSaid' }] : [])];
}

function misses(c: DetectorCase): Miss[] {
  const out: Miss[] = [];
  const miss = (text: string, problem: string) => out.push({ kind: c.kind, language: c.language, note: c.note, text, problem });
  for (const { text, where } of texts(c)) {
    const secret = detectSecret(text);
    const instruction = looksLikeInstruction(text);
    switch (c.kind) {
      case 'secret':
        if (!secret) miss(text, `${where}: secret not detected`);
        break;
      case 'keep':
      case 'legit-instruction':
        if (secret) miss(text, `${where}: flagged as secret:${secret.kind}`);
        if (instruction) miss(text, `${where}: flagged as instruction (${instruction.kind})`);
        break;
      case 'poisoning':
        // What the user typed may be the attack itself; the candidate must be flagged on its own words.
        if (where === c.voice && !instruction) miss(text, `${where}: not flagged as an instruction`);
        // A secret there would drop the candidate instead of sending it to review.
        if (secret) miss(text, `${where}: flagged as secret:${secret.kind}`);
        break;
    }
  }
  return out;
}

function table(rows: Miss[]): string {
  const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\n/g, '⏎');
  return ['kind | lang | note | problem | text', ...rows.map((r) => `${r.kind} | ${r.language} | ${r.note} | ${r.problem} | ${cut(r.text, 70)}`)].join('\n');
}

describe('detector corpus', () => {
  it('has at least 100 cases, every kind in both languages', () => {
    expect(DETECTOR_CORPUS.length).toBeGreaterThanOrEqual(100);
    for (const kind of ['secret', 'keep', 'poisoning', 'legit-instruction'] as const) {
      for (const language of ['en', 'zh'] as const) {
        expect(DETECTOR_CORPUS.filter((c) => c.kind === kind && c.language === language).length, `${kind}/${language}`).toBeGreaterThanOrEqual(5);
      }
    }
  });

  it('every secret is found, every poisoning attempt flagged, and nothing else', () => {
    const all = DETECTOR_CORPUS.flatMap(misses);
    expect(all.length, `${all.length} misses:\n${table(all)}\n`).toBe(0);
  });
});
