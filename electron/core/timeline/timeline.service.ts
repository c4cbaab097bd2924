/**
 * Reading the timeline (the events table, written only by timeline-writer.ts, in the transaction of the change each
 * event records), the activity chart, and "as of a date" (memory versions valid then). Per-thread memory exclusions
 * live in threads/thread-exclusions.store.ts.
 */
import type { OpOutput, TimelineEvent } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';
import type { Clock } from '../ports/clock.port';
import { toVersion, type VersionRow } from '../memory/memory.repo';

interface EventRow {
  id: number;
  kind: string;
  memory_id: number | null;
  thread_id: number | null;
  message_id: number | null;
  category: string | null;
  data: string;
  created_at: number;
}

function toEvent(r: EventRow): TimelineEvent {
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(r.data) as Record<string, unknown>;
  } catch {}
  return { id: r.id, kind: r.kind, memoryId: r.memory_id, threadId: r.thread_id, messageId: r.message_id, category: r.category, data, createdAt: r.created_at };
}

/** Not a 'maintained' event whose run merged, lowered, trashed and erased nothing (see MaintenanceReport). */
const NOTHING_MAINTAINED = `NOT (kind = 'maintained' AND coalesce(json_extract(data, '$.merged'), 0) + coalesce(json_extract(data, '$.decayed'), 0)
  + coalesce(json_extract(data, '$.trashedForCap'), 0) + coalesce(json_extract(data, '$.purged'), 0) = 0)`;

export function createTimelineService(deps: { sqlite: Sqlite; clock: Clock }) {
  const { sqlite } = deps;

  return {
    list(input: { before?: number | undefined; beforeId?: number | undefined; kinds?: string[] | undefined; categories?: string[] | undefined; limit: number }): OpOutput<'timeline.list'> {
      // A maintenance run that changed nothing is not news (its row stays: it holds the merge watermark).
      const where: string[] = [NOTHING_MAINTAINED];
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
        where.push(`kind IN (${input.kinds.map(() => '?').join(',')})`);
        params.push(...input.kinds);
      }
      if (input.categories?.length) {
        where.push(`category IN (${input.categories.map(() => '?').join(',')})`);
        params.push(...input.categories);
      }
      const rows = sqlite
        .prepare(`SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`)
        .all(...params, input.limit + 1) as EventRow[];
      return { events: rows.slice(0, input.limit).map(toEvent), hasMore: rows.length > input.limit };
    },

    versions(input: { refs: Array<{ memoryId: number; at: number; version?: number | undefined }> }): OpOutput<'timeline.versions'> {
      // Events hold no text by design: the text an event speaks of is the memory's version then (its own number in the
      // event's data, else the latest written by that time, which shares the event's transaction and timestamp).
      const byNumber = sqlite.prepare('SELECT * FROM memory_versions WHERE memory_id = ? AND version = ?');
      const byTime = sqlite.prepare('SELECT * FROM memory_versions WHERE memory_id = ? AND created_at <= ? ORDER BY version DESC LIMIT 1');
      const before = sqlite.prepare('SELECT * FROM memory_versions WHERE memory_id = ? AND version < ? ORDER BY version DESC LIMIT 1');
      return {
        items: input.refs.map((ref) => {
          const row = (ref.version !== undefined ? byNumber.get(ref.memoryId, ref.version) : byTime.get(ref.memoryId, ref.at)) as VersionRow | undefined;
          if (!row) return null;
          const previous = before.get(ref.memoryId, row.version) as VersionRow | undefined;
          return { version: toVersion(row), previous: previous ? toVersion(previous) : null };
        }),
      };
    },

    activity(input: { edges: number[] }): OpOutput<'timeline.activity'> {
      // One range count per bucket through the created_at index: the work follows the events in range, and the
      // calendar (local midnights, daylight saving) stays with the caller.
      const count = sqlite.prepare(
        `SELECT coalesce(sum(kind = 'learned'), 0) AS learned, coalesce(sum(kind != 'learned'), 0) AS changed
         FROM events WHERE created_at >= ? AND created_at < ? AND memory_id IS NOT NULL`,
      );
      const buckets = input.edges.slice(1).map((end, k) => {
        const start = input.edges[k]!;
        const r = count.get(start, end) as { learned: number; changed: number };
        return { start, end, learned: r.learned, changed: r.changed };
      });
      return { buckets };
    },

    asOf(input: { at: number; limit: number; offset: number }): OpOutput<'memory.asOf'> {
      // The latest version of each memory written at or before `at`, kept if it was active and not yet expired then.
      const base = `FROM memory_versions v
        WHERE v.created_at <= @at AND v.version = (SELECT max(version) FROM memory_versions w WHERE w.memory_id = v.memory_id AND w.created_at <= @at)
          AND v.status = 'active' AND (v.expires_at IS NULL OR v.expires_at > @at)`;
      const total = (sqlite.prepare(`SELECT count(*) AS n ${base}`).get({ at: input.at }) as { n: number }).n;
      const rows = sqlite
        .prepare(`SELECT v.memory_id, v.version, v.content, v.category, v.importance, v.pinned ${base} ORDER BY v.pinned DESC, v.importance DESC, v.memory_id LIMIT @limit OFFSET @offset`)
        .all({ at: input.at, limit: input.limit, offset: input.offset }) as Array<{ memory_id: number; version: number; content: string; category: 'knowledge' | 'preference' | 'project' | 'skill'; importance: number; pinned: number }>;
      return {
        items: rows.map((r) => ({ memoryId: r.memory_id, version: r.version, content: r.content, category: r.category, importance: r.importance, pinned: r.pinned === 1 })),
        total,
      };
    },
  };
}

export type TimelineService = ReturnType<typeof createTimelineService>;
