/**
 * Reading the timeline (the events table, written only by timeline-writer.ts, in the transaction of the change each
 * event records), the activity chart, and "as of a date" (memory versions valid then). Per-thread memory exclusions
 * live in threads/thread-exclusions.store.ts.
 * Events are read through timeline.store.ts, versions through memory/memory.store.ts.
 */
import type { OpOutput, TimelineEvent } from '../../../shared/contract';
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
}) {
  const { store, memories } = deps;

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
  };
}

export type TimelineService = ReturnType<typeof createTimelineService>;
