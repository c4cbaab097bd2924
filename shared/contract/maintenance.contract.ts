/**
 * Upkeep: memory maintenance (merge near-duplicates, decay, cap, old trash, expiry marks) and database backups with
 * restore. Both also run daily on their own in the app; these operations run them on demand.
 */
import { z } from 'zod';
import { Empty, Timestamp, operation } from './define';

export const MaintenanceReport = z.object({
  /** Near-duplicates archived into the memory that kept its wording. */
  merged: z.number().int().nonnegative(),
  /** Low-importance memories untouched for 90 days whose importance was lowered. */
  decayed: z.number().int().nonnegative(),
  /** Moved to the trash because there were more active memories than the cap. */
  trashedForCap: z.number().int().nonnegative(),
  /** Deleted for good after the trash retention period. */
  purged: z.number().int().nonnegative(),
  /** Memories that expired since the last run (marked on the timeline once). */
  expired: z.number().int().nonnegative(),
  /** Memories still waiting to be checked for near-duplicates (checked over the next runs). */
  mergePending: z.number().int().nonnegative(),
  /** Whether near-duplicates were looked for at all (needs semantic search). */
  mergeChecked: z.boolean(),
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
      'low-importance memories unused for 90 days, trashes the least important unpinned memories above the cap, and ' +
      'purges trash older than the retention. Every change is a version (origin maintenance) that revert or restore undoes.',
    Empty,
    MaintenanceReport,
  ),
  'db.backup': operation('Writes a verified copy of the database to the backups folder now.', Empty, BackupInfo),
  'db.backups': operation(
    'The backups in the backups folder, newest first: manual ones, the 7 newest automatic (daily) ones, and those taken before a migration or a restore.',
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
