/** The database file: its health, and the user's verified copies of it (backups, restore). */
import { z } from 'zod';
import { Empty, Timestamp, operation } from './define';

export const DbCheck = z.object({
  path: z.string(),
  integrity: z.string(),
  journalMode: z.string(),
  synchronous: z.enum(['OFF', 'NORMAL', 'FULL', 'EXTRA']),
  foreignKeys: z.boolean(),
  secureDelete: z.boolean(),
  schemaVersion: z.string(),
  sizeBytes: z.number().int().nonnegative(),
});
export type DbCheck = z.output<typeof DbCheck>;

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

export const dbOperations = {
  'db.check': operation('Runs integrity_check and reads back the pragmas that keep data safe.', Empty, DbCheck),
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

export const dbEvents = {
  'db.backedUp': z.object({ backup: BackupInfo }),
};
