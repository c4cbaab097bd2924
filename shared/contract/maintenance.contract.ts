/**
 * Upkeep: memory maintenance (merge near-duplicates, decay, cap, old trash, expiry marks) and database backups with
 * restore. Both also run daily on their own in the app; these operations run them on demand.
 */
import { z } from 'zod';
import { Empty, Timestamp, operation } from './define';
import { RemainingCopy } from './memory.contract';

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
});
export type MaintenanceReport = z.output<typeof MaintenanceReport>;

export const BackupKind = z.enum(['manual', 'automatic', 'pre-migration', 'pre-restore']);
export type BackupKind = z.output<typeof BackupKind>;

export const BackupInfo = z.object({
  /** Absolute path. */
  path: z.string(),
  name: z.string(),
  kind: BackupKind,
  createdAt: Timestamp,
  sizeBytes: z.number().int().nonnegative(),
});
export type BackupInfo = z.output<typeof BackupInfo>;

export const maintenanceOperations = {
  'memory.maintain': operation(
    'Runs memory maintenance now: marks newly expired memories, merges near-duplicates, lowers the importance of ' +
      'low-importance memories unused for 90 days, trashes the least valuable memories Mnemo learned on its own beyond ' +
      'the cap (never what the user wrote, edited, pinned, approved, restored or imported), and ' +
      'purges trash older than the retention. Every change is a version (origin maintenance) that revert or restore undoes.',
    Empty,
    MaintenanceReport,
  ),
  'db.backup': operation('Writes a verified copy of the database to the backups folder now.', Empty, BackupInfo),
  'db.backups': operation(
    'The backups in the backups folder, newest first: manual ones, the 7 newest automatic (daily) ones (and the fullest, if older), and those taken before a migration or a restore. ' +
      'Automatic ones holding much less than the others are kept aside in its kept-aside folder, not listed here.',
    Empty,
    z.object({ backups: z.array(BackupInfo), folder: z.string(), lastAutomaticAt: Timestamp.nullable() }),
  ),
  'db.restore': operation(
    'Checks a backup file (readable, intact, a Mnemo database of a schema this version knows) and stages it: it replaces ' +
      'the current database at the next start, after the current one is itself backed up. Nothing changes until then.',
    /** An absolute path, or a name in the backups folder (as db.backups lists them). */
    z.object({ file: z.string().trim().min(1).max(4096) }).strict(),
    z.object({ staged: z.string(), schemaVersion: z.string(), memories: z.number().int().nonnegative(), message: z.string() }),
  ),
};

export const maintenanceEvents = {
  'memory.maintained': z.object({ report: MaintenanceReport }),
  'db.backedUp': z.object({ backup: BackupInfo }),
};
