/**
 * Incremental thread summaries and automatic titles, as background jobs (never on the reply's path).
 *
 * A summary job folds "previous summary + messages since" into a new summary with the background model. Its write
 * applies only if nobody moved the summary past this job meanwhile. On failure the old text stays and pending_count
 * records how many messages are not yet summarized; the queue retries with backoff.
 */
import type { Settings, ThreadSummary } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { Sqlite } from '../db/open-database';
import type { EventBus } from '../event-bus';
import { detectSecret, secretEchoCheck } from '../extraction/secret-detector';
import type { JobHandler } from '../jobs/job-queue';
import type { LlmPort } from '../llm/llm.port';
import type { Clock } from '../ports/clock.port';

interface SummaryRow {
  thread_id: number;
  content: string;
  from_message_id: number | null;
  to_message_id: number | null;
  covered_count: number;
  pending_count: number;
  edited_by_user: number;
  updated_at: number;
}

function toSummary(r: SummaryRow): ThreadSummary {
  return {
    threadId: r.thread_id,
    content: r.content,
    fromMessageId: r.from_message_id,
    toMessageId: r.to_message_id,
    coveredCount: r.covered_count,
    pendingCount: r.pending_count,
    editedByUser: r.edited_by_user === 1,
    updatedAt: r.updated_at,
  };
}

export function loadSummary(sqlite: Sqlite, threadId: number): ThreadSummary | null {
  const r = sqlite.prepare('SELECT * FROM thread_summaries WHERE thread_id = ?').get(threadId) as SummaryRow | undefined;
  return r ? toSummary(r) : null;
}

/** Due when at least minNewMessages or more than minNewTokens have accumulated since the last summary. */
export function summaryIsDue(sqlite: Sqlite, threadId: number, thresholds: Settings['summary']): boolean {
  const since = loadSummary(sqlite, threadId)?.toMessageId ?? 0;
  const row = sqlite
    .prepare(`SELECT count(*) AS n, coalesce(sum(estimated_tokens), 0) AS tokens FROM messages WHERE thread_id = ? AND id > ? AND status != 'error'`)
    .get(threadId, since) as { n: number; tokens: number };
  return row.n >= thresholds.minNewMessages || row.tokens > thresholds.minNewTokens;
}

export function updateSummaryByUser(sqlite: Sqlite, clock: Clock, threadId: number, content: string): ThreadSummary {
  const now = clock.now();
  sqlite
    .prepare(
      `INSERT INTO thread_summaries (thread_id, content, covered_count, pending_count, edited_by_user, updated_at) VALUES (?, ?, 0, 0, 1, ?)
       ON CONFLICT(thread_id) DO UPDATE SET content = excluded.content, edited_by_user = 1, updated_at = excluded.updated_at`,
    )
    .run(threadId, content, now);
  return loadSummary(sqlite, threadId)!;
}

export function summaryPrompt(previous: string | null, transcript: string): string {
  return [
    'You maintain a running summary of a conversation between a user and an assistant.',
    'Update the summary with the new messages. Keep facts, decisions, open questions, names and numbers; drop small talk.',
    'Write in the language the conversation uses. At most 250 words. Reply with the summary text only.',
    '',
    previous ? `Current summary:\n${previous}` : 'There is no summary yet.',
    '',
    `New messages:\n${transcript}`,
  ].join('\n');
}

const TRANSCRIPT_CHAR_BUDGET = 24_000;

export function createSummaryJob(deps: { sqlite: Sqlite; clock: Clock; events: EventBus; llm: () => LlmPort; settings: () => Settings }): JobHandler {
  const { sqlite, clock, events } = deps;
  return {
    kind: 'summarize',
    async run({ job, signal }) {
      const threadId = job.threadId;
      if (threadId === null) return null;
      const upTo = Number(job.payload.upToMessageId);
      const previous = loadSummary(sqlite, threadId);
      const since = previous?.toMessageId ?? 0;
      if (upTo <= since) return null; // an earlier or later job already covered this range
      const rows = sqlite
        .prepare(`SELECT id, role, content FROM messages WHERE thread_id = ? AND id > ? AND id <= ? AND status != 'error' AND content != '' ORDER BY id`)
        .all(threadId, since, upTo) as Array<{ id: number; role: string; content: string }>;
      if (rows.length === 0) return null;
      // Thinking is never part of a transcript: only message content is used.
      let transcript = rows.map((r) => `${r.role === 'user' ? 'User' : 'Assistant'}: ${r.content}`).join('\n\n');
      if (transcript.length > TRANSCRIPT_CHAR_BUDGET) transcript = transcript.slice(transcript.length - TRANSCRIPT_CHAR_BUDGET);
      const result = await deps.llm().chat({
        model: deps.settings().backgroundModel,
        messages: [{ role: 'user', content: summaryPrompt(previous?.content || null, transcript) }],
        signal,
        firstChunkTimeoutMs: deps.settings().modelLoadTimeoutSeconds * 1000,
        options: { temperature: 0.2 },
      });
      const text = result.content.trim();
      if (!text) throw new MnemoError('LLM_BAD_OUTPUT', 'The background model returned an empty summary.');
      const first = previous?.fromMessageId ?? rows[0]!.id;
      const last = rows[rows.length - 1]!.id;
      return () => {
        const current = loadSummary(sqlite, threadId);
        if ((current?.toMessageId ?? 0) > since) return; // the summary moved on meanwhile: this result is stale
        const now = clock.now();
        sqlite
          .prepare(
            `INSERT INTO thread_summaries (thread_id, content, from_message_id, to_message_id, covered_count, pending_count, edited_by_user, updated_at)
             VALUES (?, ?, ?, ?, ?, 0, 0, ?)
             ON CONFLICT(thread_id) DO UPDATE SET content = excluded.content, from_message_id = excluded.from_message_id,
               to_message_id = excluded.to_message_id, covered_count = excluded.covered_count, pending_count = 0, updated_at = excluded.updated_at`,
          )
          .run(threadId, text, first, last, (current?.coveredCount ?? 0) + rows.length, now);
        sqlite
          .prepare(`INSERT INTO events (kind, thread_id, data, created_at) VALUES ('thread_summarized', ?, ?, ?)`)
          .run(threadId, JSON.stringify({ messages: rows.length, toMessageId: last }), now);
        const summary = loadSummary(sqlite, threadId)!;
        queueMicrotask(() => events.emit('summary.updated', { summary }));
      };
    },
    onFailure(job) {
      if (job.threadId === null) return;
      const since = loadSummary(sqlite, job.threadId)?.toMessageId ?? 0;
      const pending = (sqlite.prepare(`SELECT count(*) AS n FROM messages WHERE thread_id = ? AND id > ? AND status != 'error'`).get(job.threadId, since) as { n: number }).n;
      sqlite
        .prepare(
          `INSERT INTO thread_summaries (thread_id, content, pending_count, updated_at) VALUES (?, '', ?, ?)
           ON CONFLICT(thread_id) DO UPDATE SET pending_count = excluded.pending_count, updated_at = excluded.updated_at`,
        )
        .run(job.threadId, pending, clock.now());
    },
  };
}

/** Cleans a model's title: no quotes, no trailing period, one line, at most 80 characters. */
export function cleanTitle(raw: string): string {
  const line = raw.replace(/<think>[\s\S]*?<\/think>/g, '').trim().split('\n')[0] ?? '';
  return line
    .replace(/^(title|标题)\s*[:：]\s*/i, '')
    .replace(/^["'“”‘’「」《》*#\s]+|["'“”‘’「」《》*\s]+$/g, '')
    .replace(/[.。]$/, '')
    .slice(0, 80)
    .trim();
}

export function createTitleJob(deps: { sqlite: Sqlite; clock: Clock; events: EventBus; llm: () => LlmPort; settings: () => Settings; onTitled: (threadId: number) => void }): JobHandler {
  const { sqlite, clock } = deps;
  return {
    kind: 'title',
    async run({ job, signal }) {
      if (job.threadId === null) return null;
      const ids = [Number(job.payload.userMessageId), Number(job.payload.assistantMessageId)];
      const rows = sqlite.prepare(`SELECT role, content FROM messages WHERE id IN (?, ?) ORDER BY id`).all(...ids) as Array<{ role: string; content: string }>;
      if (rows.length === 0) return null;
      const exchange = rows.map((r) => `${r.role === 'user' ? 'User' : 'Assistant'}: ${r.content.slice(0, 2000)}`).join('\n\n');
      const result = await deps.llm().chat({
        model: deps.settings().backgroundModel,
        messages: [
          {
            role: 'user',
            content: `Write a short title (at most 6 words) for this conversation, in the language the user wrote in. Reply with the title only.\n\n${exchange}`,
          },
        ],
        signal,
        firstChunkTimeoutMs: deps.settings().modelLoadTimeoutSeconds * 1000,
        options: { temperature: 0.2 },
      });
      const title = cleanTitle(result.content);
      if (!title) throw new MnemoError('LLM_BAD_OUTPUT', 'The background model returned an empty title.');
      // A title is shown in the thread list, exported with every memory's provenance and kept in backups: one that
      // quotes a secret from the exchange ("Router password hunter2") is not written; the thread stays untitled.
      const userText = rows.find((r) => r.role === 'user')?.content ?? '';
      if (detectSecret(title) || secretEchoCheck(userText)(title)) return null;
      const threadId = job.threadId;
      return () => {
        // A title the user chose is never overwritten.
        const changed = sqlite.prepare(`UPDATE threads SET title = ?, title_source = 'auto', updated_at = ? WHERE id = ? AND title_source IS NULL`).run(title, clock.now(), threadId).changes;
        if (changed > 0) queueMicrotask(() => deps.onTitled(threadId));
      };
    },
  };
}
