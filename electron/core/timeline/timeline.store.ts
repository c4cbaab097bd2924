/**
 * Reading the events table (the timeline; its one writer is db/timeline-writer.ts): a page of events newest first and
 * the activity counts of a range. Prepared once where the statement is fixed; a page's filters (any kinds, any
 * categories) build its WHERE per call, as they always did. Which pages the user sees and how ranges are cut is
 * timeline.service.ts's.
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
  /** Only events before this time; with beforeId, the events after (time, id) in the page's order. */
  before?: number | undefined;
  beforeId?: number | undefined;
  /** Only these kinds, these categories (empty or absent: any). */
  kinds?: readonly string[] | undefined;
  categories?: readonly string[] | undefined;
  /** Whether 'maintained' events of runs that merged, lowered, trashed and erased nothing are included. */
  idleMaintenance: boolean;
  limit: number;
}

/** A 'maintained' event whose run merged, lowered, trashed and erased nothing (see MaintenanceReport). */
const IDLE_MAINTENANCE = `(kind = 'maintained' AND coalesce(json_extract(data, '$.merged'), 0) + coalesce(json_extract(data, '$.decayed'), 0)
  + coalesce(json_extract(data, '$.trashedForCap'), 0) + coalesce(json_extract(data, '$.purged'), 0) = 0)`;

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(',');

export function createTimelineStore(sqlite: Sqlite) {
  // One range count per bucket through the created_at index.
  const activity = sqlite.prepare(
    `SELECT coalesce(sum(kind = 'learned'), 0) AS learned, coalesce(sum(kind != 'learned'), 0) AS changed
     FROM events WHERE created_at >= ? AND created_at < ? AND memory_id IS NOT NULL`,
  );
  return {
    /** A page of events, newest first (time, then id). */
    page(input: EventPageQuery): EventRow[] {
      const where: string[] = input.idleMaintenance ? ['1 = 1'] : [`NOT ${IDLE_MAINTENANCE}`];
      const params: unknown[] = [];
      if (input.before !== undefined && input.beforeId !== undefined) {
        // Keyset on the sort order (time, then id): the page continues exactly after the last event shown.
        where.push('(created_at < ? OR (created_at = ? AND id < ?))');
        params.push(input.before, input.before, input.beforeId);
      } else if (input.before !== undefined) {
        where.push('created_at < ?');
        params.push(input.before);
      }
      if (input.kinds?.length) {
        where.push(`kind IN (${placeholders(input.kinds.length)})`);
        params.push(...input.kinds);
      }
      if (input.categories?.length) {
        where.push(`category IN (${placeholders(input.categories.length)})`);
        params.push(...input.categories);
      }
      return sqlite.prepare(`SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`).all(...params, input.limit) as EventRow[];
    },
    /** Events about memories in [start, end): how many are 'learned', how many any other kind. */
    activity: (start: number, end: number) => activity.get(start, end) as { learned: number; changed: number },
  };
}

export type TimelineStore = ReturnType<typeof createTimelineStore>;
