/**
 * The instruction detector (electron/core/safety/instruction-detector.ts) beside the detector of an earlier
 * commit, in the same run, on the same texts:
 *
 * - recall: the instructions of test/fixtures/instruction-corpus.ts (issue 26 item 7: answer rules, personas, where
 *   to send data, what to ignore, as typed and as models write memories) and the poisoning cases of
 *   test/fixtures/detector-corpus.ts; each must be flagged, so it waits in the review inbox;
 * - false positives: every legitimate fact, preference and user message of the labelled corpora the extraction and
 *   retrieval tests and benchmarks use (none of them is an instruction); each one flagged would wait in review for
 *   no reason.
 *
 * The baseline is the detector file at BASELINE (the commit before issue 26 item 7; `MNEMO_DETECTOR_BASELINE` picks
 * another), read with `git show` into a temporary file: it imports nothing, so it runs as it did then.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { looksLikeInstruction, type InstructionMatch } from '../../electron/core/safety/instruction-detector';
import { DETECTOR_CORPUS } from '../../test/fixtures/detector-corpus';
import { GROUNDING_CORPUS } from '../../test/fixtures/evidence-corpus';
import { EXTRACTOR_CASES } from '../../test/fixtures/extractor-outputs';
import { INSTRUCTION_PHRASINGS, ORDINARY_PHRASINGS } from '../../test/fixtures/instruction-corpus';
import { EXCHANGES } from '../fixtures/extraction-eval';
import { LAPTOP_SESSION } from '../fixtures/laptop-session';
import { distractorMemories, GOLD_MEMORIES, QUESTIONS } from '../fixtures/retrieval-eval';
import type { SuiteResult } from '../harness';

const BASELINE = process.env.MNEMO_DETECTOR_BASELINE ?? '057d035';
const DETECTOR = 'electron/core/safety/instruction-detector.ts';
type Detect = (text: string) => InstructionMatch | null;

async function baselineDetector(): Promise<Detect> {
  const source = execFileSync('git', ['show', `${BASELINE}:${DETECTOR}`], { encoding: 'utf8' });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-detector-')), 'instruction-detector.ts');
  fs.writeFileSync(file, source);
  return ((await import(file)) as { looksLikeInstruction: Detect }).looksLikeInstruction;
}

interface TextSet {
  name: string;
  /** 'recall': every text must be flagged; 'false positives': none may be. */
  measure: 'recall' | 'false positives';
  texts: string[];
}

function textSets(): TextSet[] {
  const legitCases = DETECTOR_CORPUS.filter((c) => c.kind === 'keep' || c.kind === 'legit-instruction');
  const cleanOutputs = EXTRACTOR_CASES.filter((c) => !(c.expect.flags ?? []).includes('instruction'));
  return [
    { name: 'instruction corpus: instructions (EN)', measure: 'recall', texts: INSTRUCTION_PHRASINGS.filter((p) => p.language === 'en').map((p) => p.text) },
    { name: 'instruction corpus: instructions (ZH)', measure: 'recall', texts: INSTRUCTION_PHRASINGS.filter((p) => p.language === 'zh').map((p) => p.text) },
    { name: 'detector corpus: poisoning', measure: 'recall', texts: DETECTOR_CORPUS.filter((c) => c.kind === 'poisoning').map((c) => c.text) },
    { name: 'instruction corpus: ordinary', measure: 'false positives', texts: ORDINARY_PHRASINGS.map((p) => p.text) },
    { name: 'detector corpus: keep + legit preferences', measure: 'false positives', texts: legitCases.flatMap((c) => [c.text, ...(c.userSaid ? [c.userSaid] : [])]) },
    { name: 'grounding corpus: candidates + messages', measure: 'false positives', texts: GROUNDING_CORPUS.flatMap((c) => [c.content, c.evidence, c.userText]) },
    { name: 'extractor outputs: unflagged contents + messages', measure: 'false positives', texts: cleanOutputs.flatMap((c) => [c.userText, ...(c.expect.contents ?? [])]) },
    { name: 'extraction eval: user messages', measure: 'false positives', texts: EXCHANGES.map((x) => x.user) },
    {
      name: 'laptop session: messages + learned facts',
      measure: 'false positives',
      texts: LAPTOP_SESSION.flatMap((t) => t.exchanges.flatMap((x) => [x.text, ...x.learn.flatMap((f) => [f.content, f.evidence])])),
    },
    { name: 'retrieval eval: memories + questions', measure: 'false positives', texts: [...GOLD_MEMORIES.map((m) => m.content), ...QUESTIONS.map((q) => q.text)] },
    { name: 'retrieval eval: 820 distractor memories', measure: 'false positives', texts: distractorMemories(820, 17).map((m) => m.content) },
  ];
}

export async function instructionDetectorBench(): Promise<SuiteResult> {
  const before = await baselineDetector();
  const sets = textSets();
  const rows = sets.map((set) => {
    const texts = [...new Set(set.texts)];
    const flagged = (detect: Detect) => texts.filter((t) => detect(t) !== null).length;
    const [was, now] = [flagged(before), flagged(looksLikeInstruction)];
    const shown = (n: number) => (set.measure === 'recall' ? `${n} (${((100 * n) / texts.length).toFixed(0)} %)` : String(n));
    return { texts: set.name, measure: set.measure, n: texts.length, [`baseline ${BASELINE}`]: shown(was), now: shown(now) };
  });
  const flaggedNow = sets
    .filter((s) => s.measure === 'false positives')
    .flatMap((s) => [...new Set(s.texts)].filter((t) => looksLikeInstruction(t) !== null).map((t) => `${s.name}: ${looksLikeInstruction(t)!.kind}: ${t}`));
  return { suite: 'Instruction detector: recall and false positives', rows, notes: flaggedNow.map((f) => `flagged now: ${f}`) };
}
