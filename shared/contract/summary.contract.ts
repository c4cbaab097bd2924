/** A thread's running summary: what the background model wrote, or the user's edit that later summaries build on. */
import { z } from 'zod';
import { Id, Timestamp, operation } from './define';

export const ThreadSummary = z.object({
  threadId: Id,
  content: z.string(),
  fromMessageId: z.number().int().nullable(),
  toMessageId: z.number().int().nullable(),
  coveredCount: z.number().int().nonnegative(),
  /** Messages not yet folded in because the background model failed (shown as a marker; retried by the queue). */
  pendingCount: z.number().int().nonnegative(),
  editedByUser: z.boolean(),
  updatedAt: Timestamp,
  /**
   * True when it was written from messages of another version of the conversation than the one shown (the user edited
   * or switched versions after it): prompts leave it out until it is rewritten for this version, or, one the user
   * edited, until the user saves it again. Absent: false.
   */
  otherVersion: z.boolean().optional(),
});
export type ThreadSummary = z.output<typeof ThreadSummary>;

export const summaryOperations = {
  'summary.get': operation('The thread summary, or null before the first one.', z.object({ threadId: Id }).strict(), ThreadSummary.nullable()),
  'summary.update': operation(
    'Replaces the summary text with the user’s edit; later summaries build on it.',
    z.object({ threadId: Id, content: z.string().max(50_000) }).strict(),
    ThreadSummary,
  ),
};

export const summaryEvents = {
  'summary.updated': z.object({ summary: ThreadSummary }),
};
