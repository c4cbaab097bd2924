/**
 * Moving memories in and out: a full JSON export (provenance and history) that a later import reads back, a readable
 * Markdown profile, and import from that JSON or from plain text / Markdown lists (what another assistant says it
 * remembers). An import is planned first and, with dryRun, only reported.
 */
import { z } from 'zod';
import { Id, operation } from './define';
import { MemoryCapStanding } from './maintenance.contract';
import { Memory, MemoryCategory, MemoryProvenance, MemoryVersion } from './memory.contract';

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

export const MemoryExportDocument = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.number().int().positive(),
  /** ISO 8601, UTC. */
  exportedAt: z.string(),
  app: z.object({ name: z.string(), version: z.string(), schemaVersion: z.string() }),
  count: z.number().int().nonnegative(),
  memories: z.array(z.unknown()),
});

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

/** The whole file as text. The web host caps request bodies at 4 MB; the app and the CLI are not capped below this. */
const ImportContent = z.string().max(50_000_000, 'An import is at most 50 million characters; split the file.');

export const transferOperations = {
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

export const transferEvents = {
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
