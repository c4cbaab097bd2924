/**
 * The `thread_summaries` table: one running summary per thread, its covered range and how many messages wait. Typed
 * rows in and out, statements prepared once. Which summary applies to which path, and when one is due, are rules of
 * message-branches.ts and chat/summary.job.ts; this file only stores what they decide.
 */
import type { ThreadSummary } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';

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

export function createSummaryStore(sqlite: Sqlite) {
  const byThread = sqlite.prepare('SELECT * FROM thread_summaries WHERE thread_id = ?');
  const byUser = sqlite.prepare(
    `INSERT INTO thread_summaries (thread_id, content, covered_count, pending_count, edited_by_user, updated_at) VALUES (?, ?, 0, 0, 1, ?)
     ON CONFLICT(thread_id) DO UPDATE SET content = excluded.content, edited_by_user = 1, updated_at = excluded.updated_at`,
  );
  const dropRange = sqlite.prepare('UPDATE thread_summaries SET from_message_id = NULL, to_message_id = NULL, covered_count = 0 WHERE thread_id = ?');
  const byModel = sqlite.prepare(
    `INSERT INTO thread_summaries (thread_id, content, from_message_id, to_message_id, covered_count, pending_count, edited_by_user, updated_at)
     VALUES (?, ?, ?, ?, ?, 0, 0, ?)
     ON CONFLICT(thread_id) DO UPDATE SET content = excluded.content, from_message_id = excluded.from_message_id,
       to_message_id = excluded.to_message_id, covered_count = excluded.covered_count, pending_count = 0, updated_at = excluded.updated_at`,
  );
  const pending = sqlite.prepare(
    `INSERT INTO thread_summaries (thread_id, content, pending_count, updated_at) VALUES (?, '', ?, ?)
     ON CONFLICT(thread_id) DO UPDATE SET pending_count = excluded.pending_count, updated_at = excluded.updated_at`,
  );
  const imported = sqlite.prepare(
    `INSERT INTO thread_summaries (thread_id, content, from_message_id, to_message_id, covered_count, pending_count, edited_by_user, updated_at)
     VALUES (?, ?, ?, ?, ?, 0, ?, ?)`,
  );

  return {
    get(threadId: number): ThreadSummary | null {
      const r = byThread.get(threadId) as SummaryRow | undefined;
      return r ? toSummary(r) : null;
    },
    /** The user's text, marked as theirs; `detach` also drops the covered range (it becomes the current path's). */
    writeByUser(threadId: number, content: string, detach: boolean, now: number): ThreadSummary {
      byUser.run(threadId, content, now);
      if (detach) dropRange.run(threadId);
      return this.get(threadId)!;
    },
    /** The model's summary of messages `fromMessageId`..`toMessageId` of one path; nothing waits any more. */
    writeByModel(threadId: number, s: { content: string; fromMessageId: number; toMessageId: number; coveredCount: number }, now: number): ThreadSummary {
      byModel.run(threadId, s.content, s.fromMessageId, s.toMessageId, s.coveredCount, now);
      return this.get(threadId)!;
    },
    /** How many messages wait to be summarized (after a failed summary job); the text stays. */
    recordPending(threadId: number, count: number, now: number): void {
      pending.run(threadId, count, now);
    },
    /** A summary read from a thread export (threads/thread-import.ts), for a thread just written. */
    insertImported(threadId: number, s: { content: string; fromMessageId: number; toMessageId: number; coveredCount: number; editedByUser: boolean }, now: number): void {
      imported.run(threadId, s.content, s.fromMessageId, s.toMessageId, s.coveredCount, s.editedByUser ? 1 : 0, now);
    },
  };
}

export type SummaryStore = ReturnType<typeof createSummaryStore>;
