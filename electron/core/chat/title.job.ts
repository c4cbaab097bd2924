/**
 * Automatic thread titles, as a background job after a thread's first answer (never on the reply's path).
 *
 * The request is bounded both ways: the exchange is cut to fit the model's context window, and the answer to
 * TITLE_MAX_TOKENS (a model that rambles or starts to reason is stopped there). The stored title is cleaned and cut to
 * TITLE_MAX_COLUMNS at a word boundary (in Chinese, between words or characters), never inside a character.
 */
import { MnemoError } from '../../../shared/errors';
import type { MessagesStore } from '../conversation/messages.store';
import type { ThreadsStore } from '../conversation/threads.store';
import { modelTextSecretCheck } from '../safety/secret-detector';
import type { JobHandler } from '../jobs/job-queue';
import type { BackgroundModel } from '../llm/background-model';
import { splitThink } from '../llm/think-splitter';
import type { Clock } from '../ports/clock.port';
import { DATA_NOT_INSTRUCTIONS, fenced } from '../text/data-fence';
import { estimateTokens } from '../text/token-estimate';
import { fitToTokens, MESSAGE_OVERHEAD_TOKENS } from '../llm/context-budget';

/** "At most 6 words" is about 10 tokens in English, 15 in Chinese; the rest is room for a stray quote or prefix. */
export const TITLE_MAX_TOKENS = 48;
/** Display columns (a CJK character takes two): about 60 Latin letters or 30 Chinese characters in the thread list. */
export const TITLE_MAX_COLUMNS = 60;
/** The user's message is cut to at most this many characters before the token budget applies: it says what the thread is about. */
const USER_CHARS = 2000;
/**
 * The reply is read only this far: its opening says what it answers (a title needs no more), and a whole reply was
 * most of the request (a 2,000-character reply is about 480 tokens in English, 2,000 in Chinese: 8 s and 33 s of a CPU
 * laptop reading 60 a second). 100 tokens are about 400 English characters or 100 Chinese ones, two or three sentences
 * in either language; a request then reads about 210 tokens with a short question (docs/BENCHMARKS.md "Model lane").
 */
export const REPLY_OPENING_TOKENS = 100;
const INSTRUCTION = 'Write a short title (at most 6 words) for this conversation, in the language the user wrote in. Reply with the title only.';

/** The exchange ("User: ...", "Assistant: ...", each already cut) is data, in the fence. */
export function titlePrompt(exchange: string): string {
  return `${INSTRUCTION}\n${DATA_NOT_INSTRUCTIONS}\n\n${fenced(exchange)}`;
}

/** A code fence's line (a model may wrap its answer in one, or copy the prompt's). */
const FENCE_LINE = /^\s*(?:`{3,}|~{3,})[\w-]*\s*$/;
/** The prompt's own wording, which a small model may repeat instead of answering (compared as words: wordsOf). */
const PROMPT_WORDS = wordsOf(`${INSTRUCTION} ${DATA_NOT_INSTRUCTIONS}`);
/** A line of at least this many words found in the prompt's wording repeats it; a shorter one may be a real title. */
const ECHO_MIN_WORDS = 3;

/**
 * A model's title as one clean line: no reasoning (the think rule, think-splitter.ts), quotes, "Title:" or a role
 * label, trailing period. The first such line that is not a code fence and does not repeat the prompt's wording
 * (Gemma 3 270M answered with "```text", and with the instruction itself); '' when there is none. Not yet cut to
 * length.
 */
export function titleLine(raw: string): string {
  for (const line of splitThink(raw).content.split('\n')) {
    if (FENCE_LINE.test(line)) continue;
    const clean = line
      .replace(/^(title|标题|user|assistant)\s*[:：]\s*/i, '')
      .replace(/^["'“”‘’「」《》*#\s]+|["'“”‘’「」《》*\s.。…]+$/g, '')
      .trim();
    if (clean && !repeatsPrompt(clean)) return clean;
  }
  return '';
}

function repeatsPrompt(line: string): boolean {
  const words = wordsOf(line);
  return words.split(' ').length >= ECHO_MIN_WORDS && ` ${PROMPT_WORDS} `.includes(` ${words} `);
}

/** Lower-case words and numbers separated by single spaces, nothing else. */
function wordsOf(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * `text` if it fits in `maxColumns`, else its longest prefix of whole words that fits with an ellipsis; a first word
 * longer than that (a URL, a long compound) is cut between characters (grapheme clusters: an emoji or an accented
 * letter stays whole). Word boundaries come from Intl.Segmenter, which also segments Chinese and Japanese.
 */
export function cutToColumns(text: string, maxColumns: number): string {
  if (columnsOf(text) <= maxColumns) return text;
  const room = maxColumns - 1; // the ellipsis
  const take = (granularity: 'word' | 'grapheme'): string => {
    let out = '';
    let used = 0;
    for (const { segment } of new Intl.Segmenter(undefined, { granularity }).segment(text)) {
      const w = columnsOf(segment);
      if (used + w > room) break;
      out += segment;
      used += w;
    }
    // A cut after "Plans for" leaves no dangling space or comma before the ellipsis.
    return out.replace(/[\s\p{P}]+$/u, '');
  };
  const words = take('word');
  return `${words || take('grapheme')}…`;
}

/** Display width: East Asian wide and full-width characters and emoji take two columns, everything else one. */
export function columnsOf(text: string): number {
  let n = 0;
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    n += isWide(c) ? 2 : c === 0x200d || (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0x300 && c <= 0x36f) ? 0 : 1;
  }
  return n;
}

function isWide(c: number): boolean {
  return (
    (c >= 0x1100 && c <= 0x115f) || // Hangul jamo initials
    (c >= 0x2e80 && c <= 0x303e) || // CJK radicals, Kangxi, CJK symbols and punctuation
    (c >= 0x3041 && c <= 0x33ff) || // kana, bopomofo, Hangul compatibility jamo, enclosed CJK
    (c >= 0x3400 && c <= 0x4dbf) || // CJK extension A
    (c >= 0x4e00 && c <= 0x9fff) || // CJK unified ideographs
    (c >= 0xa000 && c <= 0xa4cf) || // Yi
    (c >= 0xac00 && c <= 0xd7a3) || // Hangul syllables
    (c >= 0xf900 && c <= 0xfaff) || // CJK compatibility ideographs
    (c >= 0xfe30 && c <= 0xfe4f) || // CJK compatibility forms
    (c >= 0xff00 && c <= 0xff60) || // full-width forms
    (c >= 0xffe0 && c <= 0xffe6) ||
    (c >= 0x1f300 && c <= 0x1faff) || // emoji and pictographs
    (c >= 0x20000 && c <= 0x3fffd) // CJK extensions B and beyond
  );
}

export function createTitleJob(deps: {
  messages: Pick<MessagesStore, 'texts'>;
  threads: Pick<ThreadsStore, 'setAutoTitle'>;
  clock: Clock;
  model: BackgroundModel;
  onTitled: (threadId: number) => void;
}): JobHandler {
  const { messages, threads, clock } = deps;
  return {
    kind: 'title',
    usesModel: true,
    async run({ job, signal }) {
      if (job.threadId === null) return null;
      const rows = messages.texts(Number(job.payload.userMessageId), Number(job.payload.assistantMessageId));
      if (rows.length === 0) return null;
      // Both messages share what the window leaves after the instruction and the title itself.
      const room = (await deps.model.contextWindow()) - TITLE_MAX_TOKENS - estimateTokens(titlePrompt('')) - MESSAGE_OVERHEAD_TOKENS;
      const perMessage = Math.max(0, Math.floor(room / rows.length) - MESSAGE_OVERHEAD_TOKENS);
      const exchange = rows
        .map((r) =>
          r.role === 'user'
            ? `User: ${fitToTokens(r.content.slice(0, USER_CHARS), perMessage, estimateTokens)}`
            : `Assistant: ${fitToTokens(r.content, Math.min(perMessage, REPLY_OPENING_TOKENS), estimateTokens)}`,
        )
        .join('\n\n');
      const { text } = await deps.model.ask({
        purpose: 'title',
        messages: [{ role: 'user', content: titlePrompt(exchange) }],
        answerTokens: TITLE_MAX_TOKENS,
        temperature: 0.2,
        signal,
      });
      const line = titleLine(text);
      const title = cutToColumns(line, TITLE_MAX_COLUMNS);
      if (!title) throw new MnemoError('LLM_BAD_OUTPUT', 'The background model returned no title (nothing, or only the instructions back).');
      // A title is shown in the thread list, exported with every memory's provenance and kept in backups: one that
      // quotes a secret from the exchange ("Router password hunter2") is not written; the thread stays untitled.
      // Checked before the cut as well, which could leave half a secret the detectors no longer recognise.
      const holdsSecret = modelTextSecretCheck(rows.find((r) => r.role === 'user')?.content ?? '');
      if ([line, title].some(holdsSecret)) return null;
      const threadId = job.threadId;
      return (tx) => {
        // A title the user chose is never overwritten (threads.store.ts).
        if (threads.setAutoTitle(threadId, title, clock.now())) tx.afterCommit(() => deps.onTitled(threadId));
      };
    },
  };
}
