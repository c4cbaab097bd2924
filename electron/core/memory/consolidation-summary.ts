/**
 * One memory written by the background model from a cluster of related memories: the prompt, the answer read as a
 * memory, and the check that it says what the originals said, no more and no less.
 *
 * Reading the answer: small models wrap it in a fence or quotes, put a preamble before it ("Here is the summary:",
 * "以下是合并后的记忆："), or a list marker; those are dropped and the rest is one line. Reasoning goes by the think
 * rule (think-splitter.ts): an answer left inside an unclosed `<think>` is none.
 *
 * Grounding (summaryGrounding), the extraction's term rule (candidate-grounding.ts) applied both ways:
 * - nothing new: every term of the summary is in the originals (word forms, CJK bigrams and framing words as for a
 *   learned memory), so a summary in another language, an invented detail or an added opinion is refused;
 * - nothing dropped: every term of each original is in the summary (in any word form; a summary says "every
 *   morning" once for three memories that each said it), so a fact left out, or a name or number changed, is refused.
 * A refused summary changes nothing; the cluster stays as it was.
 */
import { countTerms, contentGrounding, indexUserWords } from '../safety/candidate-grounding';
import { secretRefusal } from '../safety/secret-detector';
import { splitThink } from '../llm/think-splitter';
import { DATA_NOT_INSTRUCTIONS, fenced } from '../text/data-fence';

/** A summary longer than this is not one memory any more. */
export const SUMMARY_MAX_CHARS = 600;
/** The answer's budget: SUMMARY_MAX_CHARS of Chinese, with room for a preamble. */
export const SUMMARY_MAX_TOKENS = 512;

export interface SummarySource {
  category: string;
  content: string;
}

/** The notes (memories) are data, in the fence, one a line. */
export function consolidationPrompt(sources: readonly SummarySource[]): string {
  return [
    'You keep notes about the user for their personal assistant. The notes below are about one subject.',
    'Combine them into ONE note that keeps every fact of every note: every name, number, place, time and detail.',
    'Use the words of the notes; add nothing they do not say, no opinion, no explanation.',
    'Write it in the language the notes are written in. Reply with the note only, on one line.',
    DATA_NOT_INSTRUCTIONS,
    '',
    'Notes:',
    fenced(sources.map((s) => `- ${s.content.replace(/\s+/g, ' ').trim()}`).join('\n')),
  ].join('\n');
}

/** A line that only announces what follows: "Here is the combined note:", "Summary:", "以下是合并后的记忆：". */
const PREAMBLE = /^(?:(?:here(?:'s| is)|sure|ok(?:ay)?|certainly)\b[^\n]*|(?:combined |merged )?(?:note|summary|memory)|以下是[^\n]*|合并后的[^\n]*|总结|摘要)[:：]\s*/iu;

/** The model's answer as one memory's text ('' when nothing is left). */
export function cleanSummary(answer: string): string {
  let text = splitThink(answer).content.trim();
  // A fence anywhere holds the note ("Here is the note:\n```\n...\n```\nHope this helps").
  const fenced = /```[\w-]*[ \t]*\n?([\s\S]*?)\n?```/u.exec(text);
  if (fenced) text = fenced[1]!.trim();
  for (let i = 0; i < 2; i++) text = text.replace(PREAMBLE, '').trim();
  text = text
    .split('\n')
    .map((line) => line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/u, '').trim())
    .filter(Boolean)
    .join(' ');
  const quoted = /^["“「'](.*)["”」']$/su.exec(text);
  return (quoted ? quoted[1]! : text).replace(/\s+/g, ' ').trim();
}

export type SummaryProblem = 'empty' | 'too_long' | 'secret' | 'adds_content' | 'drops_content';

/** Null when `summary` may replace `originals` (see the file comment); else why not. */
export function summaryGrounding(summary: string, originals: readonly string[]): SummaryProblem | null {
  if (!summary) return 'empty';
  if (summary.length > SUMMARY_MAX_CHARS) return 'too_long';
  if (secretRefusal(summary) !== null) return 'secret';
  if (contentGrounding(summary, indexUserWords(originals.join('\n'))) !== null) return 'adds_content';
  const kept = indexUserWords(summary);
  for (const original of originals) {
    const count = countTerms(original, kept);
    if (count.invented > 0 || count.missing > 0) return 'drops_content';
  }
  return null;
}
