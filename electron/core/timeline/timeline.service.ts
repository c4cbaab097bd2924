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
      const rows = store.page({ ...input, limit: input.limit + 1, idleMaintenance: false });
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
