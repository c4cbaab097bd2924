/**
 * The timeline: what happened, newest first. Its vocabulary (TimelineEventKind, with what each kind's data holds) is
 * declared once, here and in timeline-kinds.ts: the core writes events only through
 * electron/core/timeline/timeline-writer.ts, which accepts only these kinds with these shapes, and the renderer's
 * labels and filters are derived from the same list.
 */
import { z } from 'zod';
import { Id, Timestamp, operation } from './define';
import { MaintenanceReport, MemoryCategory, MemoryOrigin, MemoryStatus, MemoryVersion } from './memory.contract';
import { TIMELINE_EVENT_KINDS } from './timeline-kinds';

export { FAILED_JOB_KIND, TIMELINE_EVENT_KINDS } from './timeline-kinds';

/** Every kind of event the core writes (the list itself is in timeline-kinds.ts, which the renderer reads without zod). */
export const TimelineEventKind = z.enum(TIMELINE_EVENT_KINDS);
export type TimelineEventKind = z.output<typeof TimelineEventKind>;

const Version = z.number().int().positive();
const Count = z.number().int().nonnegative();

/** A memory came into being (or out of hiding, for an import): its first visible version. */
const MemoryCreated = z.looseObject({
  version: Version,
  origin: MemoryOrigin,
  status: MemoryStatus,
  importance: z.number(),
  /** The connected app that wrote it (mcp/mcp-memory-tools.ts remember): a name, never the user's text. */
  mcpClient: z.string().optional(),
});
/** A memory changed: the version this wrote, the fields that changed, who and why. */
const MemoryChanged = z.looseObject({ version: Version, fields: z.array(z.string()), origin: MemoryOrigin, reason: z.string() });
/** Background work that failed for good: ids and the error class only. */
const JobFailed = z.object({ jobId: Id, code: z.string() });

/**
 * What each kind carries in `data`: small facts (ids, counts, versions), never the user's text, so a purge leaves no
 * trace on the timeline. Memory events may add facts of their own (what a merge went into, a similarity, bulk: true).
 */
export const timelineEventData = {
  learned: MemoryCreated,
  proposed: MemoryCreated,
  imported: MemoryCreated,
  /** A summary of several memories, which it superseded: their ids in `from`, how many in `summarised`. */
  consolidated: MemoryCreated,
  approved: MemoryChanged,
  rejected: MemoryChanged,
  confirmed: MemoryChanged,
  updated: MemoryChanged,
  reverted: MemoryChanged,
  merged: MemoryChanged,
  superseded: MemoryChanged,
  decayed: MemoryChanged,
  archived: MemoryChanged,
  unarchived: MemoryChanged,
  deleted: MemoryChanged,
  restored: MemoryChanged,
  expired: z.object({ expiresAt: Timestamp, origin: z.literal('maintenance') }),
  purged: z.object({ memoryId: Id }),
  import_completed: z.object({
    written: Count,
    new: Count,
    duplicate: Count,
    conflicting: Count,
    invalid: Count,
    format: z.enum(['mnemo-json', 'text']),
    origin: z.literal('import'),
  }),
  /** The run's report, and how far its near-duplicate check got (the next run continues from there). */
  maintained: MaintenanceReport.extend({
    mergeWatermark: z.object({ at: Timestamp, id: z.number().int().nonnegative() }),
    /** Where consolidation's look for clusters continues (memories changed after it). */
    consolidationWatermark: z.object({ at: Timestamp, id: z.number().int().nonnegative() }).optional(),
    origin: z.literal('maintenance'),
  }),
  thread_summarized: z.object({ messages: Count, toMessageId: Id }),
  extraction_failed: JobFailed,
  summary_failed: JobFailed,
  title_failed: JobFailed,
  reembed_failed: JobFailed,
  profile_failed: JobFailed,
  consolidation_failed: JobFailed,
  /** An episode was written (rewrite: its stretch went on and it was written again); the thread is the event's threadId. */
  episode_written: z.object({ episodeId: Id, version: Version, rewrite: z.boolean(), messages: Count }),
  /** The user changed an episode: edited its text, brought back a version, or restored it from the trash. */
  episode_edited: z.object({ episodeId: Id, version: Version, reason: z.enum(['edited', 'reverted', 'restored']) }),
  episode_deleted: z.object({ episodeId: Id, forever: z.boolean() }),
  episode_failed: JobFailed,
  focus_failed: JobFailed,
  /**
   * Another app read through MCP (electron/core/mcp/): one event per call, naming the app, the tool and the memories it
   * was given (ids only; the count of conversation excerpts for search_conversations). The memory's access log
   * (mcp_memory_access) keeps the per-memory tally.
   */
  mcp_read: z.object({
    client: z.string().max(200),
    tool: z.enum(['search_memory', 'list_recent_memories', 'get_profile', 'search_conversations']),
    memoryIds: z.array(Id).max(100),
    items: Count,
  }),
} satisfies Record<TimelineEventKind, z.ZodType>;
export type TimelineEventData<K extends TimelineEventKind> = z.input<(typeof timelineEventData)[K]>;

type KindsCarrying<S> = { [K in TimelineEventKind]: (typeof timelineEventData)[K] extends S ? K : never }[TimelineEventKind];
/** The kinds of a memory's creation (written with its first version). */
export type MemoryCreatedKind = KindsCarrying<typeof MemoryCreated>;
/** The kinds of a change to a memory (written with each new version). */
export type MemoryChangedKind = KindsCarrying<typeof MemoryChanged>;

/** One thing that happened, for the timeline. Never carries the user's text: the UI reads memories by id. */
export const TimelineEvent = z.object({
  id: Id,
  /** A TimelineEventKind; read as any string, so events a newer Mnemo wrote still show (under a generic label). */
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
};
