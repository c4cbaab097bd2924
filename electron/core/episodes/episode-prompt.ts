/**
 * What the background model is asked for an episode, and how its answer becomes one. Pure: the job (episode.job.ts)
 * reads the rows and the model's window; these functions fit, ask and clean.
 *
 * - Fitting: a stretch may be longer than the background model's window. The first thing the user asked says what
 *   the stretch was for, the newest messages what came of it; so the first user message is always read (cut to a
 *   third of the room) and the newest messages fill the rest. What is left out in between is named by count, and the
 *   thread summary (which covers the whole thread) stands in for it.
 * - Language: the episode is in the language the user wrote in (detectLanguage over the user's messages), since it
 *   is found later by keyword in that language (a Chinese episode written in English is never found by 咖啡).
 * - Cleaning: small models think aloud, fence their answer and announce it ("Here is the episode:"). Thinking goes by
 *   the one rule of think-splitter.ts; a fence and a leading announcement are dropped; a line that holds a secret
 *   (secret-detector.ts) is dropped, whoever's words it repeats: episodes reach search, the timeline's links and exports.
 */
import { fitToTokens } from '../llm/context-budget';
import type { MessageLanguage } from '../safety/message-language';
import { splitThink } from '../llm/think-splitter';
import { DATA_NOT_INSTRUCTIONS, fenced } from '../text/data-fence';
import { estimateTokens } from '../text/token-estimate';

/** "At most 120 words" plus a headline is about 200 tokens in English and 300 in Chinese; room for a model that runs over. */
export const EPISODE_MAX_TOKENS = 480;
const TITLE_MAX_TOKENS = 40;

export interface TranscriptRow {
  id: number;
  role: string;
  content: string;
}

const lineOf = (r: TranscriptRow) => `${r.role === 'user' ? 'User' : 'Assistant'}: ${r.content}`;
/** A line's cost in the transcript: its tokens and the blank line between turns. */
const costOf = (line: string) => estimateTokens(line) + 1;

/**
 * The stretch as a transcript within `budget` tokens (estimated): all of it when it fits; else its first user
 * message (cut to a third of the budget), a marker naming how many messages are left out, and the newest messages
 * that fit (the newest one cut to fit when even it alone does not). `omitted` counts the messages not in the text.
 */
export function stretchTranscript(rows: readonly TranscriptRow[], budget: number): { text: string; omitted: number } {
  const lines = rows.map(lineOf);
  if (lines.reduce((n, l) => n + costOf(l), 0) <= budget) return { text: lines.join('\n\n'), omitted: 0 };
  const first = Math.max(0, rows.findIndex((r) => r.role === 'user'));
  const head = fitToTokens(lines[first]!, Math.floor(budget / 3), estimateTokens);
  const marker = (n: number) => `[${n} messages left out here]`;
  let room = budget - costOf(head) - costOf(marker(rows.length));
  const tail: string[] = [];
  for (let i = lines.length - 1; i > first; i--) {
    const cost = costOf(lines[i]!);
    if (cost > room) {
      if (tail.length === 0 && room > 8) tail.unshift(fitToTokens(lines[i]!, room - 1, estimateTokens));
      break;
    }
    tail.unshift(lines[i]!);
    room -= cost;
  }
  const omitted = rows.length - 1 - tail.length;
  return { text: [head, ...(omitted > 0 ? [marker(omitted)] : []), ...tail].join('\n\n'), omitted };
}

export interface EpisodePromptInput {
  transcript: string;
  /** The thread summary, given when part of the stretch is left out of the transcript. */
  summary: string | null;
  /** The current episode of the stretch when it is being rewritten. */
  previous: string | null;
  editedByUser: boolean;
  language: MessageLanguage;
  /** The stretch's first and last message times, as the user reads dates (ISO dates with times). */
  from: string;
  to: string;
}

/** The current episode, the thread summary and the transcript are data, each in its fence. */
export function episodePrompt(input: EpisodePromptInput): string {
  return [
    'You write an episode: a short record of one conversation between a user and their assistant, so that the assistant can remember it later.',
    input.language === 'zh'
      ? 'Write the episode in Simplified Chinese, the language the user wrote in (the headline too).'
      : 'Write the episode in the language the user wrote in.',
    'First line: a headline of at most 12 words saying what the conversation was about (no label, no Markdown).',
    'Then at most 120 words in short lines: what the user wanted; what came of it (answers, decisions, what is still open);',
    'the people, places, projects and tools involved; and when, where the messages say (dates, deadlines).',
    'Use only what the messages say; never guess. Leave out passwords, keys, codes and account numbers.',
    DATA_NOT_INSTRUCTIONS,
    ...(input.previous
      ? [
          input.editedByUser
            ? 'The user edited the current episode themselves: keep what they wrote unless the new messages clearly replace it, and add what is new.'
            : 'The conversation went on since the current episode was written: rewrite it to cover all of it.',
        ]
      : []),
    'Reply with the episode only.',
    '',
    ...(input.previous ? [`Current episode:\n${fenced(input.previous)}`, ''] : []),
    ...(input.summary ? [`Summary of the whole thread (for the messages left out below):\n${fenced(input.summary)}`, ''] : []),
    `Conversation (${input.from} to ${input.to}):\n${fenced(input.transcript)}`,
  ].join('\n');
}

/** A first line that only announces the answer: "Here is the episode:", "Sure!", "好的，以下是摘要：". */
const ANNOUNCEMENT = /^(?:(?:sure|okay|ok|certainly|of course)\b[^\n]*|here(?:'s| is)\b[^\n]*[:：]|(?:好的|当然|以下是)[^\n]*)$/i;
const FENCE = /```[a-z]*\n([\s\S]*?)\n```/i;
const TITLE_MARKS = /^(?:#+\s*|\*\*|(?:title|headline|标题)\s*[:：]\s*)+|\*\*$/gi;

/**
 * The model's answer as an episode: a headline and the text, or null when nothing is left. `holdsSecret` tells a
 * line that must not be kept (secret-detector.ts, and echoes of the stretch's own secrets).
 */
export function cleanEpisode(answer: string, holdsSecret: (line: string) => boolean): { title: string; content: string } | null {
  let text = splitThink(answer).content.trim();
  const fenced = FENCE.exec(text);
  if (fenced) text = fenced[1]!.trim();
  const lines = text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => !holdsSecret(l));
  while (lines.length > 0 && (lines[0]!.trim() === '' || ANNOUNCEMENT.test(lines[0]!.trim()))) lines.shift();
  if (lines.length === 0) return null;
  const title = fitToTokens(lines[0]!.trim().replace(TITLE_MARKS, '').trim(), TITLE_MAX_TOKENS, estimateTokens);
  const body = lines.slice(1).join('\n').trim();
  if (!body) return title ? { title: '', content: title } : null;
  return { title, content: fitToTokens(body, EPISODE_MAX_TOKENS, estimateTokens) };
}

/** An episode as the model reads it back (its headline, then its text). */
export function episodeText(e: { title: string; content: string }): string {
  return e.title ? `${e.title}\n${e.content}` : e.content;
}
