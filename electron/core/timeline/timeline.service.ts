/**
 * Reading the timeline (the events table, written only by timeline-writer.ts, in the transaction of the change each
 * event records), the activity chart, "as of a date" (memory versions valid then), and per-thread memory exclusions.
 * Exclusions (table thread_memory_exclusions, operations thread.excludeMemory / includeMemory / exclusions in
 * threads/thread.handlers.ts) are stored here and applied to prompts by memory.service.ts memoryRetrievalPort, which
 * create-core.ts hands this service's `exclusions`: an excluded memory never reaches that thread's prompt.
 * Events are read through timeline.store.ts, versions through memory/memory.store.ts.
 */
import type { OpOutput, TimelineEvent } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';
import type { Clock } from '../ports/clock.port';
import { toVersion } from '../memory/memory.repo';
import type { MemoryStore } from '../memory/memory.store';
import type { EventRow, TimelineStore } from './timeline.store';

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

export function createTimelineService(deps: {
  store: TimelineStore;
  memories: Pick<MemoryStore, 'version' | 'versionAt' | 'versionBefore' | 'asOf'>;
  /** Only for the exclusions below, which move to their own store (threads). */
  sqlite: Sqlite;
  clock: Clock;
}) {
  const { store, memories, sqlite, clock } = deps;

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
      const rows = store.page({ where, params, limit: input.limit + 1 });
      return { events: rows.slice(0, input.limit).map(toEvent), hasMore: rows.length > input.limit };
    },

    versions(input: { refs: Array<{ memoryId: number; at: number; version?: number | undefined }> }): OpOutput<'timeline.versions'> {
      // Events hold no text by design: the text an event speaks of is the memory's version then (its own number in the
      // event's data, else the latest written by that time, which shares the event's transaction and timestamp).
      return {
        items: input.refs.map((ref) => {
          const row = ref.version !== undefined ? memories.version(ref.memoryId, ref.version) : memories.versionAt(ref.memoryId, ref.at);
          if (!row) return null;
          const previous = memories.versionBefore(ref.memoryId, row.version);
          return { version: toVersion(row), previous: previous ? toVersion(previous) : null };
        }),
      };
    },

    activity(input: { edges: number[] }): OpOutput<'timeline.activity'> {
      // One range count per bucket through the created_at index: the work follows the events in range, and the
      // calendar (local midnights, daylight saving) stays with the caller.
      const buckets = input.edges.slice(1).map((end, k) => {
        const start = input.edges[k]!;
        const r = store.activity(start, end);
        return { start, end, learned: r.learned, changed: r.changed };
      });
      return { buckets };
    },

    asOf(input: { at: number; limit: number; offset: number }): OpOutput<'memory.asOf'> {
      const { rows, total } = memories.asOf(input.at, input.limit, input.offset);
      return {
        items: rows.map((r) => ({ memoryId: r.memory_id, version: r.version, content: r.content, category: r.category, importance: r.importance, pinned: r.pinned === 1 })),
        total,
      };
    },

    exclude(threadId: number, memoryId: number): void {
      sqlite.prepare('INSERT OR IGNORE INTO thread_memory_exclusions (thread_id, memory_id, created_at) VALUES (?, ?, ?)').run(threadId, memoryId, clock.now());
    },
    include(threadId: number, memoryId: number): void {
      sqlite.prepare('DELETE FROM thread_memory_exclusions WHERE thread_id = ? AND memory_id = ?').run(threadId, memoryId);
    },
    exclusions(threadId: number): number[] {
      return (sqlite.prepare('SELECT memory_id FROM thread_memory_exclusions WHERE thread_id = ? ORDER BY created_at').all(threadId) as Array<{ memory_id: number }>).map((r) => r.memory_id);
    },
  };
}

export type TimelineService = ReturnType<typeof createTimelineService>;
