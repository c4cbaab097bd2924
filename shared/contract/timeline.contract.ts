import { z } from 'zod';
import { Id, Ok, Timestamp, operation } from './define';
import { Memory, MemoryCategory, MemoryVersion } from './memory.contract';

/** One thing that happened, for the timeline. Never carries the user's text: the UI reads memories by id. */
export const TimelineEvent = z.object({
  id: Id,
  kind: z.string(),
  memoryId: z.number().int().nullable(),
  threadId: z.number().int().nullable(),
  messageId: z.number().int().nullable(),
  category: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  createdAt: Timestamp,
});
export type TimelineEvent = z.output<typeof TimelineEvent>;

export const timelineOperations = {
  'timeline.list': operation(
    'What happened, newest first: learned, updated, merged, superseded, expired, deleted, restored, summarized, failed… Page with before (a time) and beforeId (the last event shown: the page continues right after it, even inside a burst of events with the same time).',
    z
      .object({
        before: Timestamp.optional(),
        beforeId: Id.optional(),
        kinds: z.array(z.string().max(40)).max(30).optional(),
        categories: z.array(MemoryCategory).max(4).optional(),
        limit: z.number().int().min(1).max(500).default(100),
      })
      .strict()
      .refine((i) => i.beforeId === undefined || i.before !== undefined, 'beforeId continues a page: it needs the time of that event as before.'),
    z.object({ events: z.array(TimelineEvent), hasMore: z.boolean() }),
  ),
  'timeline.versions': operation(
    'Each memory as it was at an event (the timeline shows the text it had then, and what changed): the given version, else the one current at that time, with the version before it. Null where the memory was deleted forever.',
    z.object({ refs: z.array(z.object({ memoryId: Id, at: Timestamp, version: z.number().int().positive().optional() }).strict()).max(500) }).strict(),
    z.object({ items: z.array(z.object({ version: MemoryVersion, previous: MemoryVersion.nullable() }).nullable()) }),
  ),
  'timeline.activity': operation(
    'Memories learned and changed between consecutive edges (the activity chart). The caller picks the edges (its local midnights, or Mondays), so days are the user’s days, daylight saving included.',
    z
      .object({ edges: z.array(Timestamp).min(2).max(401) })
      .strict()
      .refine((i) => i.edges.every((t, k) => k === 0 || t > i.edges[k - 1]!), 'The edges must be in increasing order.'),
    z.object({ buckets: z.array(z.object({ start: Timestamp, end: Timestamp, learned: z.number().int(), changed: z.number().int() })) }),
  ),
  'memory.asOf': operation(
    'What Mnemo believed about the user at a moment: each memory as its latest version then, if it was active and not expired.',
    z.object({ at: Timestamp, limit: z.number().int().min(1).max(1000).default(200), offset: z.number().int().min(0).default(0) }).strict(),
    z.object({
      items: z.array(z.object({ memoryId: Id, version: z.number().int(), content: z.string(), category: MemoryCategory, importance: z.number(), pinned: z.boolean() })),
      total: z.number().int().nonnegative(),
    }),
  ),
  'memory.getMany': operation(
    'Several memories by id (e.g. for an answer’s receipt); ids that no longer exist are left out.',
    z.object({ memoryIds: z.array(Id).max(500) }).strict(),
    z.object({ items: z.array(Memory) }),
  ),
  'thread.excludeMemory': operation(
    'Do not use this memory in this thread again (from a receipt’s quick actions).',
    z.object({ threadId: Id, memoryId: Id }).strict(),
    Ok,
  ),
  'thread.includeMemory': operation('Undoes thread.excludeMemory.', z.object({ threadId: Id, memoryId: Id }).strict(), Ok),
  'thread.exclusions': operation('Memories excluded from a thread.', z.object({ threadId: Id }).strict(), z.object({ memoryIds: z.array(Id) })),
};
