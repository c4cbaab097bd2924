/**
 * Reading the events table (the timeline; its one writer is db/timeline-writer.ts): a page of events newest first and
 * the activity counts of a range. Prepared once where the statement is fixed; a page's filters (any kinds, any
 * categories) build its WHERE per call. What a page leaves out and how ranges are cut is timeline.service.ts's.
 */
import type { Sqlite } from '../db/open-database';

export interface EventRow {
  id: number;
  kind: string;
  memory_id: number | null;
  thread_id: number | null;
  message_id: number | null;
  category: string | null;
  data: string;
  created_at: number;
}

export interface EventPageQuery {
  /** SQL conditions over the events table, joined by AND, with their parameters in order. */
  where: string[];
  params: unknown[];
  limit: number;
}

export function createTimelineStore(sqlite: Sqlite) {
  // One range count per bucket through the created_at index.
  const activity = sqlite.prepare(
    `SELECT coalesce(sum(kind = 'learned'), 0) AS learned, coalesce(sum(kind != 'learned'), 0) AS changed
     FROM events WHERE created_at >= ? AND created_at < ? AND memory_id IS NOT NULL`,
  );
  return {
    /** Events passing every condition, newest first (time, then id). */
    page: (input: EventPageQuery): EventRow[] =>
      sqlite.prepare(`SELECT * FROM events WHERE ${input.where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`).all(...input.params, input.limit) as EventRow[],
    /** Events about memories in [start, end): how many are 'learned', how many any other kind. */
    activity: (start: number, end: number) => activity.get(start, end) as { learned: number; changed: number },
  };
}

export type TimelineStore = ReturnType<typeof createTimelineStore>;
