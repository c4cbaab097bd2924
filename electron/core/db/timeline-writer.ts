/**
 * The one writer of the events table (the timeline).
 *
 * Invariants:
 * - Kinds are the contract's vocabulary (TimelineEventKind) and each kind's data has the contract's shape: nothing
 *   else writes the table, so the renderer's labels and filters cover every event this core writes.
 * - Synchronous: an event is written inside the transaction of the change it records, and rolls back with it. Bus
 *   events are the caller's business, after its commit.
 * - `data` holds small facts (ids, counts, versions), never the user's text: a purge must leave no trace here.
 */
import type { TimelineEventData, TimelineEventKind } from '../../../shared/contract';
import type { Sqlite } from './open-database';
import type { Clock } from '../ports/clock.port';

/** What an event is about; whatever is left out is stored as NULL. */
export interface TimelineRefs {
  memoryId?: number | null;
  threadId?: number | null;
  messageId?: number | null;
  category?: string | null;
}

export interface TimelineWriter {
  /** Writes one event, at `at` (default now): inside the caller's transaction when there is one. */
  record<K extends TimelineEventKind>(kind: K, refs: TimelineRefs, data: TimelineEventData<K>, at?: number): void;
}

export function createTimelineWriter(deps: { sqlite: Sqlite; clock: Clock }): TimelineWriter {
  const insert = deps.sqlite.prepare(
    'INSERT INTO events (kind, memory_id, thread_id, message_id, category, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  return {
    record(kind, refs, data, at = deps.clock.now()) {
      insert.run(kind, refs.memoryId ?? null, refs.threadId ?? null, refs.messageId ?? null, refs.category ?? null, JSON.stringify(data), at);
    },
  };
}
