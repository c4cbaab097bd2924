/**
 * The timeline (the events table, written by every service in the same transaction as the change it records), the
 * activity chart, "as of a date" (memory versions valid then), and per-thread memory exclusions.
 */
import type { OpOutput, TimelineEvent } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';
import type { Clock } from '../ports/clock.port';

const DAY = 86_400_000;

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

export function createTimelineService(deps: { sqlite: Sqlite; clock: Clock }) {
  const { sqlite, clock } = deps;

  return {
    list(input: { before?: number | undefined; kinds?: string[] | undefined; categories?: string[] | undefined; limit: number }): OpOutput<'timeline.list'> {
      const where: string[] = [];
      const params: unknown[] = [];
      if (input.before !== undefined) {
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
        .prepare(`SELECT * FROM events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, id DESC LIMIT ?`)
        .all(...params, input.limit + 1) as EventRow[];
      return { events: rows.slice(0, input.limit).map(toEvent), hasMore: rows.length > input.limit };
    },

    activity(input: { from: number; to: number; bucket: 'day' | 'week' }): OpOutput<'timeline.activity'> {
      const size = input.bucket === 'week' ? 7 * DAY : DAY;
      // Weeks start on Monday (1970-01-01 was a Thursday: shift by 3 days).
      const offset = input.bucket === 'week' ? 3 * DAY : 0;
      const start = Math.floor((input.from + offset) / size) * size - offset;
      const rows = sqlite
        .prepare(
          // better-sqlite3 binds JS numbers as REAL: cast so the division truncates to a bucket index.
          `SELECT (CAST(created_at + ? AS INTEGER) / CAST(? AS INTEGER)) * CAST(? AS INTEGER) - CAST(? AS INTEGER) AS bucket,
             sum(kind = 'learned') AS learned, sum(kind != 'learned') AS changed
           FROM events WHERE created_at >= ? AND created_at < ? AND memory_id IS NOT NULL GROUP BY bucket`,
        )
        .all(offset, size, size, offset, start, input.to) as Array<{ bucket: number; learned: number; changed: number }>;
      const byStart = new Map(rows.map((r) => [r.bucket, r]));
      const buckets: OpOutput<'timeline.activity'>['buckets'] = [];
      for (let t = start; t < input.to && buckets.length < 2000; t += size) {
        const r = byStart.get(t);
        buckets.push({ start: t, learned: r?.learned ?? 0, changed: r?.changed ?? 0 });
      }
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
