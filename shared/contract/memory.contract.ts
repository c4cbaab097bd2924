/**
 * Long-term memory: short statements about the user, with a category, an importance, provenance and a history.
 * Every change is versioned; delete moves to the trash (restorable), purge really deletes.
 */
import { z } from 'zod';
import { Empty, Id, Timestamp, operation } from './define';
import { EmbeddingStatus } from './embedding.contract';
import { IMPORT_MAX_CHARS, IMPORT_TOO_LONG_MESSAGE } from './input-limits';
import { McpMemoryAccess } from './mcp.contract';

export const MemoryCategory = z.enum(['knowledge', 'preference', 'project', 'skill']);
export type MemoryCategory = z.output<typeof MemoryCategory>;

/** review: waiting in the inbox; rejected: kept (by hash) so the same fact is not proposed again. */
export const MemoryStatus = z.enum(['active', 'archived', 'trashed', 'superseded', 'review', 'rejected']);
export type MemoryStatus = z.output<typeof MemoryStatus>;

export const MemoryOrigin = z.enum(['user', 'extraction', 'maintenance', 'import']);
export type MemoryOrigin = z.output<typeof MemoryOrigin>;

/** Why a memory was used or found: what contributed most to its score (pinned ones are always used). */
export const MemoryReason = z.enum(['pinned', 'semantic', 'keyword', 'recency']);
export type MemoryReason = z.output<typeof MemoryReason>;

const Share = z.number().min(0).max(1);

export const Memory = z.object({
  id: Id,
  content: z.string(),
  category: MemoryCategory,
  importance: Share,
  confidence: Share,
  pinned: z.boolean(),
  status: MemoryStatus,
  /** expiresAt <= now: still visible and editable, never used in prompts. */
  expired: z.boolean(),
  sourceThreadId: Id.nullable(),
  sourceMessageId: Id.nullable(),
  evidence: z.string().nullable(),
  validFrom: Timestamp.nullable(),
  expiresAt: Timestamp.nullable(),
  supersededBy: Id.nullable(),
  accessCount: z.number().int().nonnegative(),
  lastUsedAt: Timestamp.nullable(),
  /** The model that made its vector; null while it has none (keyword search still finds it). */
  embeddingModel: z.string().nullable(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  trashedAt: Timestamp.nullable(),
});
export type Memory = z.output<typeof Memory>;

export const MemoryVersion = z.object({
  version: z.number().int().positive(),
  content: z.string(),
  category: MemoryCategory,
  importance: Share,
  pinned: z.boolean(),
  status: MemoryStatus,
  expiresAt: Timestamp.nullable(),
  origin: MemoryOrigin,
  /** e.g. created, edited, pinned, recategorized, deleted, restored, archived, reverted, merged, superseded. */
  reason: z.string(),
  createdAt: Timestamp,
});
export type MemoryVersion = z.output<typeof MemoryVersion>;

/**
 * The connected app (MCP, `mnemo mcp`'s remember) that wrote a memory: the `mcpClient` of the memory's creating
 * timeline event (memory-upkeep.store.ts writtenBy). Derived, never stored beside the memory, so it leaves with it.
 */
export const WrittenBy = z.object({ app: z.string() });
export type WrittenBy = z.output<typeof WrittenBy>;

export const MemoryProvenance = z.object({
  threadId: Id.nullable(),
  /** Null when the thread was deleted since (the memory stays). */
  threadTitle: z.string().nullable(),
  messageId: Id.nullable(),
  evidence: z.string().nullable(),
  /** The attached file of that message the evidence came from, when the user let Mnemo learn from it; else null or absent. */
  file: z.string().nullable().optional(),
  /** True when the message it was learned from was edited afterwards (a newer version replaced it); absent otherwise. */
  messageEdited: z.boolean().optional(),
  /** The connected app that wrote it (its origin then reads 'extraction'); absent when none did, and from older cores. */
  writtenBy: WrittenBy.optional(),
});

/** Another memory named in this one's story (what it replaced, what replaced it): enough to say it and open it. */
export const MemoryLink = z.object({ id: Id, content: z.string(), status: MemoryStatus });
export type MemoryLink = z.output<typeof MemoryLink>;

/** A version of a memory that retired it (status superseded), and the memory that replaced it then; null: purged since. */
export const MemoryReplacement = z.object({ version: z.number().int().positive(), memory: MemoryLink.nullable() });

export const MemoryUseRecord = z.object({
  messageId: Id,
  threadId: Id,
  score: z.number(),
  reason: MemoryReason,
  rank: z.number().int().positive(),
  /** When the answer was written. */
  at: Timestamp,
});

const Content = z.string().trim().min(1, 'A memory cannot be empty.').max(4000, 'A memory is at most 4000 characters.');

const Filters = {
  categories: z.array(MemoryCategory).max(4).optional(),
  /** Default: active only. */
  statuses: z.array(MemoryStatus).min(1).max(6).optional(),
  pinned: z.boolean().optional(),
  /** true: only expired; false: only not expired; absent: both. */
  expired: z.boolean().optional(),
  createdFrom: Timestamp.optional(),
  createdTo: Timestamp.optional(),
  sourceThreadId: Id.optional(),
  /** The user message it was learned from: the "learned from this message" chips. */
  sourceMessageId: Id.optional(),
};

export const MemorySort = z.enum(['importance', 'created', 'lastUsed', 'accessCount']);

export const ScoreParts = z.object({
  /** Cosine similarity to the query, when the memory has a vector of the current model among the nearest. */
  similarity: z.number().nullable(),
  /** 1-based BM25 rank among keyword matches, or null when the keywords did not match. */
  keywordRank: z.number().int().positive().nullable(),
  /** 1-based rank among the nearest vectors, or null. */
  semanticRank: z.number().int().positive().nullable(),
  /** Reciprocal rank fusion of both lists, scaled to 0..1 (1: first in every list). */
  relevance: Share,
  importance: Share,
  /** Exponential decay since the memory last changed (half-life from the retrieval settings). */
  recency: Share,
});

export const MemoryHit = z.object({ memory: Memory, score: z.number(), parts: ScoreParts, reason: MemoryReason });
export type MemoryHit = z.output<typeof MemoryHit>;

/** A copy of the database that may still hold purged memories: where it is, and why Mnemo could not change it. */
export const RemainingCopy = z.object({ path: z.string(), reason: z.string() });
export type RemainingCopy = z.output<typeof RemainingCopy>;

/**
 * What a purge did in Mnemo's backups (every file in the backups folder, subfolders included, and a staged restore):
 * the purged memories are erased from each one that held them (electron/core/backup/backup-scrub.ts).
 */
export const BackupErasure = z.object({
  /** Backup files that hold no copy now: the memories were erased from them, or they never held them. */
  clean: z.number().int().nonnegative(),
  /** Of those, the files the memories were erased from. */
  erased: z.number().int().nonnegative(),
  /** Files that could not be read or changed and may still hold copies: the user deletes them by hand. */
  remaining: z.array(RemainingCopy),
});
export type BackupErasure = z.output<typeof BackupErasure>;

/**
 * What a purge took with it, written from the purged memories: consolidation summaries (their other originals came
 * back) and lines of the profile (About you).
 */
export const PurgedDerived = z.object({ summaries: z.number().int().nonnegative(), profileLines: z.number().int().nonnegative() });
export type PurgedDerived = z.output<typeof PurgedDerived>;

const PurgeResult = z.object({ purged: z.number().int().nonnegative(), backups: BackupErasure, derived: PurgedDerived });

const BulkIds = z.array(Id).min(1).max(10_000);

const countsOf = <T extends z.ZodEnum>(e: T) => z.record(e, z.number().int().nonnegative());

// ---- Upkeep: maintenance (merge, decay, cap, old trash, expiry marks; also daily in the app) ----

/**
 * The active memories against the cap (settings activeMemoryCap). The cap counts only what Mnemo learned on its own
 * (electron/core/memory/memory-cap.ts says exactly what that is): what the user wrote, edited, pinned, approved,
 * restored or imported never counts and is never trashed for it.
 */
export const MemoryCapStanding = z.object({
  cap: z.number().int().nonnegative(),
  /** Active memories, the user's and learned ones. Above the cap is fine when the user's make the difference. */
  active: z.number().int().nonnegative(),
  /** Of those, the ones Mnemo learned on its own: the only ones the cap counts. */
  learned: z.number().int().nonnegative(),
  /** Learned memories beyond the cap: the next maintenance moves this many, least valuable first, to the trash. */
  overCap: z.number().int().nonnegative(),
  /** How long a memory stays in the trash, restorable, before it is deleted for good (trashRetentionDays). */
  restorableDays: z.number().int().positive(),
});
export type MemoryCapStanding = z.output<typeof MemoryCapStanding>;

export const MaintenanceReport = z.object({
  /** Near-duplicates archived into the memory that kept its wording. */
  merged: z.number().int().nonnegative(),
  /** Low-importance memories untouched for 90 days whose importance was lowered. */
  decayed: z.number().int().nonnegative(),
  /** Learned memories moved to the trash (restorable) because there were more of them than the cap. */
  trashedForCap: z.number().int().nonnegative(),
  /** Deleted for good after the trash retention period (from the database and the backups). */
  purged: z.number().int().nonnegative(),
  /** Only when some: backups that may still hold those purged memories, because they could not be changed. */
  purgedCopiesRemain: z.array(RemainingCopy).optional(),
  /** Memories that expired since the last run (marked on the timeline once). */
  expired: z.number().int().nonnegative(),
  /** Memories still waiting to be checked for near-duplicates (checked over the next runs). */
  mergePending: z.number().int().nonnegative(),
  /** Whether near-duplicates were looked for at all (needs semantic search). */
  mergeChecked: z.boolean(),
  /** Where the active memories stand against the cap after the run. */
  cap: MemoryCapStanding,
  /** Clusters of related memories handed to the background model to summarise (one job each); 0 when turned off. */
  clustersQueued: z.number().int().nonnegative().default(0),
  /** Summaries written since the previous run (those waiting for review not counted). */
  clustersSummarised: z.number().int().nonnegative().default(0),
});
export type MaintenanceReport = z.output<typeof MaintenanceReport>;


// ---- Moving memories in and out ----
/*
 * Moving memories in and out: a full JSON export (provenance and history) that a later import reads back, a readable
 * Markdown profile, and import from that JSON or from plain text / Markdown lists (what another assistant says it
 * remembers). An import is planned first and, with dryRun, only reported.
 */

/** Written in every JSON export; an import refuses a document with a newer version than it knows. */
export const EXPORT_FORMAT = 'mnemo.memories';
export const EXPORT_VERSION = 1;

/** One memory of an export: the memory as the contract shows it, its provenance, and its versions (oldest first). Ids
 * and thread/message ids are those of the exporting database (provenance only); an import gives new ones. */
export const ExportedMemory = Memory.omit({
  expired: true,
  sourceThreadId: true,
  sourceMessageId: true,
  evidence: true,
  embeddingModel: true,
  trashedAt: true,
}).extend({ provenance: MemoryProvenance, versions: z.array(MemoryVersion) });
export type ExportedMemory = z.output<typeof ExportedMemory>;

/** What every Mnemo export file starts with (memories here, conversations in thread.contract.ts). */
export const ExportHeader = z.object({
  version: z.number().int().positive(),
  /** ISO 8601, UTC. */
  exportedAt: z.string(),
  app: z.object({ name: z.string(), version: z.string(), schemaVersion: z.string() }),
  count: z.number().int().nonnegative(),
});

export const MemoryExportDocument = ExportHeader.extend({ format: z.literal(EXPORT_FORMAT), memories: z.array(z.unknown()) });

export const ImportOutcome = z.enum(['new', 'duplicate', 'conflict', 'invalid']);
export type ImportOutcome = z.output<typeof ImportOutcome>;

export const ImportItem = z.object({
  /** 1-based line of a text import, or the 0-based index in a JSON export's memories. */
  line: z.number().int().positive().optional(),
  index: z.number().int().nonnegative().optional(),
  /** The text as it would be stored ('' when the item had none). */
  content: z.string(),
  category: MemoryCategory.nullable(),
  outcome: ImportOutcome,
  /** The memory it duplicates or conflicts with; for a written item, the new memory. */
  existingId: Id.optional(),
  memoryId: Id.optional(),
  /** Why it is a conflict or invalid, for people. */
  reason: z.string().optional(),
  /** A conflict written anyway (onConflict 'import'). */
  imported: z.boolean().optional(),
});
export type ImportItem = z.output<typeof ImportItem>;

export const ImportReport = z.object({
  format: z.enum(['mnemo-json', 'text']),
  dryRun: z.boolean(),
  new: z.number().int().nonnegative(),
  duplicate: z.number().int().nonnegative(),
  conflicting: z.number().int().nonnegative(),
  invalid: z.number().int().nonnegative(),
  /** Memories written (0 on a dry run): new ones, plus conflicts with onConflict 'import'. */
  written: z.number().int().nonnegative(),
  /** Whether near-duplicates were looked for by meaning (semantic search on) or only exact duplicates. */
  nearDuplicateCheck: z.boolean(),
  /**
   * The active memories against the cap after this import (a dry run's: as if it were applied). Imported memories
   * are the user's, so they never count against the cap nor are trashed for it; `active` above `cap` says so.
   */
  cap: MemoryCapStanding,
  items: z.array(ImportItem),
});
export type ImportReport = z.output<typeof ImportReport>;

/** The whole file as text (thread.import takes the same). The web host's body limit is derived from it (input-limits.ts). */
export const ImportContent = z.string().max(IMPORT_MAX_CHARS, IMPORT_TOO_LONG_MESSAGE);

export const memoryOperations = {
  'memory.create': operation(
    'Adds a memory by hand (origin user). Refuses an exact duplicate of an active or archived memory.',
    z
      .object({
        content: Content,
        category: MemoryCategory.default('knowledge'),
        importance: Share.default(0.5),
        pinned: z.boolean().default(false),
        expiresAt: Timestamp.nullable().optional(),
      })
      .strict(),
    Memory,
  ),
  'memory.get': operation(
    'One memory with its versions (oldest first), provenance and the answers that used it (newest first).',
    z.object({ memoryId: Id, usesLimit: z.number().int().min(1).max(1000).default(50) }).strict(),
    z.object({
      memory: Memory,
      versions: z.array(MemoryVersion),
      provenance: MemoryProvenance,
      uses: z.array(MemoryUseRecord),
      usesTotal: z.number().int(),
      /** The memories this one replaced (a newer statement of the same fact, a summary), still retired by it; oldest first. Absent from older cores. */
      replaces: z.array(MemoryLink).optional(),
      /** The versions that retired this memory, each with what replaced it (memory-lineage.ts). Absent from older cores. */
      replacedBy: z.array(MemoryReplacement).optional(),
    }),
  ),
  'memory.list': operation(
    'Memories filtered and sorted (largest first), a page at a time, with the total that match. query: keywords (Chinese and English, the last word as a prefix).',
    z
      .object({
        ...Filters,
        query: z.string().max(500).optional(),
        sort: MemorySort.default('created'),
        limit: z.number().int().min(1).max(500).default(50),
        offset: z.number().int().min(0).max(10_000_000).default(0),
      })
      .strict(),
    z.object({ items: z.array(Memory), total: z.number().int().nonnegative() }),
  ),
  'memory.search': operation(
    'Hybrid search: nearest vectors and keyword matches fused, then ranked by relevance, importance and recency. Keyword-only while semantic search is off. ' +
      'A question in natural language works: when every word together matches few memories, memories sharing its meaningful words follow.',
    z.object({ query: z.string().trim().min(1).max(500), ...Filters, limit: z.number().int().min(1).max(100).default(20) }).strict(),
    z.object({ hits: z.array(MemoryHit), mode: z.enum(['hybrid', 'keyword']) }),
  ),
  'memory.update': operation(
    'Edits a memory; every change is a new version. expiresAt null: never expires.',
    z
      .object({
        memoryId: Id,
        content: Content.optional(),
        category: MemoryCategory.optional(),
        importance: Share.optional(),
        pinned: z.boolean().optional(),
        expiresAt: Timestamp.nullable().optional(),
      })
      .strict(),
    Memory,
  ),
  'memory.delete': operation('Moves a memory to the trash (restorable until purged).', z.object({ memoryId: Id }).strict(), Memory),
  'memory.restore': operation('Brings a memory back from the trash (to the status it had before) or out of the archive (as active).', z.object({ memoryId: Id }).strict(), Memory),
  'memory.purge': operation(
    'Deletes a memory for good: the row, its versions, its search entries, its vector and its uses, in the database ' +
      'and in every backup (backups lists the files that could not be changed).',
    z.object({ memoryId: Id }).strict(),
    PurgeResult,
  ),
  'memory.emptyTrash': operation(
    'Purges every memory in the trash (or only those trashed before a time), from the database and its backups.',
    z.object({ trashedBefore: Timestamp.optional() }).strict(),
    PurgeResult,
  ),
  'memory.revert': operation(
    "Makes an earlier version's content, category, importance, pin and expiry current again, as a new version.",
    z.object({ memoryId: Id, version: z.number().int().positive() }).strict(),
    Memory,
  ),
  'memory.unconsolidate': operation(
    'Undoes a summary maintenance wrote of several memories: the memories it superseded are active again and the summary goes to the trash, in one transaction.',
    z.object({ memoryId: Id }).strict(),
    z.object({ summary: Memory, restored: z.array(Memory) }),
  ),
  'memory.bulk': operation(
    'One action on many memories, in one transaction; memories it does not apply to are skipped. restore: out of the trash (to the status each had) or the archive; purge: deletes for good (backups included), only memories already in the trash.',
    z.discriminatedUnion('action', [
      z.object({ action: z.enum(['delete', 'archive', 'unarchive', 'pin', 'unpin', 'restore', 'purge']), memoryIds: BulkIds }).strict(),
      z.object({ action: z.literal('recategorize'), category: MemoryCategory, memoryIds: BulkIds }).strict(),
    ]),
    z.object({
      changed: z.number().int().nonnegative(),
      skipped: z.number().int().nonnegative(),
      /** purge only: what it did in the backups. */
      backups: BackupErasure.optional(),
      /** purge only: what it took with it. */
      derived: PurgedDerived.optional(),
    }),
  ),
  'memory.stats': operation(
    'Counts by status and category, vectors present and missing, and whether semantic search is on (and why not).',
    Empty,
    z.object({
      total: z.number().int().nonnegative(),
      byStatus: countsOf(MemoryStatus),
      /** Active memories only. */
      byCategory: countsOf(MemoryCategory),
      pinned: z.number().int().nonnegative(),
      expired: z.number().int().nonnegative(),
      vectors: z.object({
        /** Memories (any status but rejected) with a vector of the current model (of any model while none is configured). */
        present: z.number().int().nonnegative(),
        missing: z.number().int().nonnegative(),
        dimensions: z.number().int().positive(),
      }),
      /** The embedding service's status: semantic search is on when state is ready. */
      semanticSearch: EmbeddingStatus,
    }),
  ),
  'memory.asOf': operation(
    'What Mnemo believed about the user at a moment: each memory as its latest version then, if it was active and not expired.',
    z.object({ at: Timestamp, limit: z.number().int().min(1).max(1000).default(200), offset: z.number().int().min(0).default(0) }).strict(),
    z.object({
      items: z.array(z.object({ memoryId: Id, version: z.number().int(), content: z.string(), category: MemoryCategory, importance: z.number(), pinned: z.boolean() })),
      total: z.number().int().nonnegative(),
    }),
  ),
  'memory.access': operation(
    'Which other apps (MCP clients) read or wrote this memory, how many times and when last; most recent first.',
    z.object({ memoryId: Id }).strict(),
    z.object({ entries: z.array(McpMemoryAccess) }),
  ),
  'memory.getMany': operation(
    'Several memories by id (e.g. for an answer’s receipt); ids that no longer exist are left out.',
    z.object({ memoryIds: z.array(Id).max(500) }).strict(),
    z.object({ items: z.array(Memory) }),
  ),
  'memory.maintain': operation(
    'Runs memory maintenance now: marks newly expired memories, merges near-duplicates, lowers the importance of ' +
      'low-importance memories unused for 90 days, trashes the least valuable memories Mnemo learned on its own beyond ' +
      'the cap (never what the user wrote, edited, pinned, approved, restored or imported), and ' +
      'purges trash older than the retention. Every change is a version (origin maintenance) that revert or restore undoes.',
    Empty,
    MaintenanceReport,
  ),
  'memory.export': operation(
    'Exports memories as a JSON document (every field, provenance and full history; what memory.import reads back) ' +
      'or as a readable Markdown profile grouped by category (active memories, pinned first). Active memories only unless asked.',
    z
      .object({
        format: z.enum(['json', 'md']).default('json'),
        includeArchived: z.boolean().default(false),
        includeTrashed: z.boolean().default(false),
      })
      .strict(),
    z.object({ content: z.string(), filename: z.string(), count: z.number().int().nonnegative() }),
  ),
  'memory.import': operation(
    'Imports a Mnemo JSON export, or plain text / Markdown with one memory per line (headings set the category). ' +
      'Every item is classified new, duplicate (already there: nothing changes), conflict (a near-duplicate by meaning in ' +
      'the same category, or the same text in the trash or rejected) or invalid. dryRun reports without writing; a real ' +
      'run writes the new items (and conflicts with onConflict "import") in one transaction. Imported memories are the ' +
      "user's: the cap on active memories never counts or trashes them; the report says where the total stands against it.",
    z
      .object({
        content: ImportContent,
        format: z.enum(['auto', 'mnemo-json', 'text']).default('auto'),
        dryRun: z.boolean().default(false),
        /** For text lines before any recognised heading. */
        defaultCategory: MemoryCategory.default('knowledge'),
        onConflict: z.enum(['skip', 'import']).default('skip'),
      })
      .strict(),
    ImportReport,
  ),
};

export const memoryEvents = {
  'memory.created': z.object({ memory: Memory }),
  'memory.updated': z.object({ memory: Memory }),
  'memory.deleted': z.object({ memory: Memory }),
  'memory.restored': z.object({ memory: Memory }),
  /** Ids only: a purge leaves no text behind, not even in an event. */
  'memory.purged': z.object({ memoryIds: z.array(Id) }),
  'memory.maintained': z.object({ report: MaintenanceReport }),
  /**
   * While maintenance runs, step by step in this order. Each step ends with done === total; the long one (merge: the
   * memories checked for near-duplicates) also reports between its transactions, at most every 100 ms. No
   * merge step while semantic search is off (nothing is compared).
   */
  'maintenance.progressed': z.object({
    step: z.enum(['expire', 'merge', 'decay', 'cap', 'purge']),
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  }),
  /** While an import prepares (embeds) its items; only for imports of many items. */
  'import.progressed': z.object({ done: z.number().int().nonnegative(), total: z.number().int().nonnegative() }),
  /** After a real import committed (memories are not announced one by one). */
  'memory.imported': z.object({
    written: z.number().int().nonnegative(),
    duplicate: z.number().int().nonnegative(),
    conflicting: z.number().int().nonnegative(),
    invalid: z.number().int().nonnegative(),
  }),
};
