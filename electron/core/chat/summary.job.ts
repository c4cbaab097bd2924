/**
 * Incremental thread summaries, as a background job (never on the reply's path).
 *
 * A summary job folds "previous summary + messages since" into a new summary with the background model. The request
 * fits the model's context window: the answer is capped at SUMMARY_MAX_TOKENS and the new messages are taken oldest
 * first while they fit; the summary then covers up to the last one taken, and the rest stay in the prompt verbatim
 * until a later summary takes them (nothing is skipped). Its write applies only if nobody moved the summary past this
 * job meanwhile. On failure the old text stays and pending_count records how many messages are not yet summarized;
 * the queue retries with backoff.
 *
 * Branches (message-branches.ts): a summary covers a range of one path. "Since the summary" is the path from the
 * reply up to the summary's last message; when that message is not on the reply's path (the user edited or
 * regenerated at or before it), an automatic summary is rebuilt from the path's first message, and one the user
 * edited is left as written (it is not sent while it describes another branch).
 */
import type { Settings, ThreadSummary } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { EventBus } from '../runtime/event-bus';
import { modelTextSecretCheck } from '../safety/secret-detector';
import type { JobHandler } from '../jobs/job-queue';
import type { BackgroundModel } from '../llm/background-model';
import { splitThink } from '../llm/think-splitter';
import type { Clock } from '../ports/clock.port';
import { DATA_NOT_INSTRUCTIONS, fenced } from '../text/data-fence';
import { estimateTokens } from '../text/token-estimate';
import type { TimelineWriter } from '../db/timeline-writer';
import { fitToTokens, MESSAGE_OVERHEAD_TOKENS } from '../llm/context-budget';
import { summaryAsShown, summaryForPath, type MessageBranches } from '../conversation/message-branches';
import { isReadable } from '../conversation/readable-message';
import type { SummaryStore } from '../conversation/summary.store';

/**
 * Due when at least minNewMessages or more than minNewTokens have accumulated on the active path since the summary
 * (all of the path when the summary is another branch's); never for a summary the user edited on another branch.
 */
export function summaryIsDue(summaries: SummaryStore, branches: MessageBranches, threadId: number, thresholds: Settings['summary']): boolean {
  const leaf = branches.leaf(threadId);
  const stored = summaries.get(threadId);
  const summary = summaryForPath(stored, leaf, branches);
  if (stored?.editedByUser && !summary) return false;
  const since = summary?.toMessageId ?? 0;
  let n = 0;
  let tokens = 0;
  for (const r of branches.pathUp<{ id: number; parent_id: number | null; role: string; status: string; content: string; estimated_tokens: number }>(leaf)) {
    if (r.id <= since) break;
    if (!isReadable(r)) continue;
    n += 1;
    tokens += r.estimated_tokens;
    if (n >= thresholds.minNewMessages || tokens > thresholds.minNewTokens) return true;
  }
  return false;
}

/**
 * The user's text replaces the summary's. A summary of another branch (message-branches.ts) becomes the current
 * path's: its range is dropped, so it is sent again and the next summary folds this path's messages into it.
 */
export function updateSummaryByUser(summaries: SummaryStore, branches: MessageBranches, threadId: number, content: string, now: number): ThreadSummary {
  const stored = summaries.get(threadId);
  const detach = stored !== null && summaryForPath(stored, branches.leaf(threadId), branches) === null;
  return summaries.writeByUser(threadId, content, detach, now);
}

/** The previous summary (the model's or the user's words) and the new messages are data, each in its fence. */
export function summaryPrompt(previous: string | null, transcript: string): string {
  return [
    'You maintain a running summary of a conversation between a user and an assistant.',
    'Update the summary with the new messages. Keep facts, decisions, open questions, names and numbers; drop small talk.',
    'Write in the language the conversation uses. At most 250 words. Reply with the summary text only.',
    DATA_NOT_INSTRUCTIONS,
    '',
    previous ? `Current summary:\n${fenced(previous)}` : 'There is no summary yet.',
    '',
    `New messages:\n${fenced(transcript)}`,
  ].join('\n');
}

/**
 * The model's summary without what holds a secret (`holdsSecret`: secret-detector.ts, and echoes of the secrets in
 * the user's messages it read); '' when nothing is left. A summary is sent with every later prompt of the thread,
 * shown in its panel, exported and kept in backups, so a password the user pasted must not live on in it.
 *
 * Redacted, not refused: a refused summary keeps the old one and leaves the messages unsummarised, so the next job
 * reads the same secret, the model likely repeats it, and the summary never moves on while the unsummarised tail in
 * every prompt grows. Dropping the sentence that holds the secret keeps the rest (facts, decisions, open questions).
 * Sentences come from Intl.Segmenter (Chinese included), within each line so a list keeps its shape; a secret the
 * sentence split cut in two is caught by the check of each remaining line, which is then dropped whole.
 */
export function summaryWithoutSecrets(summary: string, holdsSecret: (text: string) => boolean): string {
  const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });
  const lines = summary.split('\n').flatMap((line) => {
    if (!holdsSecret(line)) return [line];
    const kept = [...sentences.segment(line)].map((s) => s.segment).filter((s) => !holdsSecret(s)).join('').trimEnd();
    // A line left empty, or still holding the secret, goes (with no blank line in its place).
    return kept.trim() === '' || holdsSecret(kept) ? [] : [kept];
  });
  const text = lines.join('\n').trim();
  // A secret spread over lines (a key on the line after its label) leaves no line holding it: the whole text is
  // checked last, and a summary that still holds one is not kept at all.
  return holdsSecret(text) ? '' : text;
}

/** "At most 250 words" is about 350 tokens in English and 500 in Chinese. */
export const SUMMARY_MAX_TOKENS = 640;
/**
 * The share of the room left in the window that the transcript may take by estimate: estimates and the model's real
 * tokenizer disagree by up to about 30% (text/token-estimate.ts), and an overflowing prompt loses its beginning, the
 * instructions, to Ollama's truncation.
 */
const TRANSCRIPT_SHARE = 0.75;
/** Whatever the window: a summary always reads at least this much of the new messages (a tiny model's window may overflow). */
const MIN_TRANSCRIPT_TOKENS = 256;

interface TranscriptRow {
  id: number;
  role: string;
  content: string;
}

/**
 * The rows a summary takes, oldest first, while their transcript fits `budgetTokens`; a first row that alone is too
 * long is cut to fit (it is never skipped, or the summary could not move on). Thinking is never part of a transcript.
 */
export function transcriptWithin(rows: TranscriptRow[], budgetTokens: number): { taken: TranscriptRow[]; text: string } {
  const taken: TranscriptRow[] = [];
  const lines: string[] = [];
  let used = 0;
  for (const row of rows) {
    const line = `${row.role === 'user' ? 'User' : 'Assistant'}: ${row.content}`;
    const cost = estimateTokens(line) + 1; // the blank line between turns
    if (used + cost > budgetTokens) {
      if (taken.length === 0) {
        taken.push(row);
        lines.push(fitToTokens(line, budgetTokens, estimateTokens));
      }
      break;
    }
    used += cost;
    taken.push(row);
    lines.push(line);
  }
  return { taken, text: lines.join('\n\n') };
}

export function createSummaryJob(deps: { summaries: SummaryStore; branches: MessageBranches; timeline: TimelineWriter; clock: Clock; events: EventBus; model: BackgroundModel }): JobHandler {
  const { summaries, branches, timeline, clock, events } = deps;
  return {
    kind: 'summarize',
    usesModel: true,
    async run({ job, signal }) {
      const threadId = job.threadId;
      if (threadId === null) return null;
      const upTo = Number(job.payload.upToMessageId);
      const stored = summaries.get(threadId);
      // The summary this reply's path continues; null when it is another branch's (then rebuilt from the first message).
      const previous = summaryForPath(stored, upTo, branches);
      if (stored?.editedByUser && !previous) return null; // the user's text for another branch is kept as written
      const since = previous?.toMessageId ?? 0;
      if (upTo <= since) return null; // an earlier or later job already covered this range
      const all: TranscriptRow[] = [];
      for (const r of branches.pathUp<TranscriptRow & { parent_id: number | null; status: string }>(upTo)) {
        if (r.id <= since) break;
        if (isReadable(r)) all.push({ id: r.id, role: r.role, content: r.content });
      }
      all.reverse();
      if (all.length === 0) return null;
      // The window less the answer and the instructions; a previous summary (one the user wrote may be long) takes at
      // most half of it, the new messages the rest.
      const room = (await deps.model.contextWindow()) - SUMMARY_MAX_TOKENS - estimateTokens(summaryPrompt(null, '')) - MESSAGE_OVERHEAD_TOKENS;
      const previousText = previous?.content ? fitToTokens(previous.content, Math.floor(room / 2), estimateTokens) : null;
      const budget = Math.max(MIN_TRANSCRIPT_TOKENS, Math.floor((room - estimateTokens(previousText ?? '')) * TRANSCRIPT_SHARE));
      const { taken: rows, text: transcript } = transcriptWithin(all, budget);
      const answer = await deps.model.ask({
        purpose: 'summary',
        messages: [{ role: 'user', content: summaryPrompt(previousText, transcript) }],
        answerTokens: SUMMARY_MAX_TOKENS,
        temperature: 0.2,
        signal,
      });
      // Reasoning is not a summary: an answer left inside an unclosed <think> is no answer (the think rule).
      const written = splitThink(answer.text).content.trim();
      if (!written) throw new MnemoError('LLM_BAD_OUTPUT', 'The background model returned an empty summary.');
      const text = summaryWithoutSecrets(written, modelTextSecretCheck(rows.filter((r) => r.role === 'user').map((r) => r.content).join('\n')));
      if (!text) throw new MnemoError('LLM_BAD_OUTPUT', 'The background model’s summary held nothing but secrets; it was not kept.');
      const first = previous?.fromMessageId ?? rows[0]!.id;
      const last = rows[rows.length - 1]!.id;
      return (tx) => {
        const current = summaries.get(threadId);
        if ((current?.toMessageId ?? null) !== (stored?.toMessageId ?? null)) return; // the summary moved meanwhile: this result is stale
        const now = clock.now();
        const written = summaries.writeByModel(threadId, { content: text, fromMessageId: first, toMessageId: last, coveredCount: (previous?.coveredCount ?? 0) + rows.length }, now);
        timeline.record('thread_summarized', { threadId }, { messages: rows.length, toMessageId: last }, now);
        // Written for the reply's path: the user may have switched versions since (then the panel says so).
        const summary = summaryAsShown(written, branches.leaf(threadId), branches)!;
        tx.afterCommit(() => events.emit('summary.updated', { summary }));
      };
    },
    onFailure(job) {
      if (job.threadId === null) return;
      // Counted on the conversation shown, as the summary panel says it: its messages after what the summary covers
      // there (all of them when the summary is another version's); other versions' messages are never summarized here.
      const leaf = branches.leaf(job.threadId);
      const since = summaryForPath(summaries.get(job.threadId), leaf, branches)?.toMessageId ?? 0;
      let pending = 0;
      for (const r of branches.pathUp<{ id: number; parent_id: number | null; role: string; status: string; content: string }>(leaf)) {
        if (r.id <= since) break;
        if (isReadable(r)) pending += 1;
      }
      summaries.recordPending(job.threadId, pending, clock.now());
    },
  };
}
