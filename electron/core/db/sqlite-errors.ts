/**
 * SQLite failures a user can meet, as typed errors that say what happened and what to do. Everything else stays an
 * unexpected error. better-sqlite3 throws SqliteError with the extended result code as `code` (SQLITE_FULL,
 * SQLITE_BUSY_SNAPSHOT, SQLITE_READONLY_DBMOVED, ...).
 */
import { MnemoError } from '../../../shared/errors';

export function sqliteFailure(e: unknown): MnemoError | null {
  const code = typeof (e as { code?: unknown })?.code === 'string' ? (e as { code: string }).code : '';
  if (!code.startsWith('SQLITE_')) return null;
  if (code === 'SQLITE_FULL') {
    return new MnemoError('STORAGE_FULL', 'The disk is full, so Mnemo could not save. Nothing saved before was lost: free some space and try again.', { cause: e });
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new MnemoError('DB_BUSY', 'Another program is holding Mnemo’s database (a second Mnemo, the CLI, or a backup tool). Try again in a moment.', { cause: e });
  }
  if (code.startsWith('SQLITE_READONLY')) {
    return new MnemoError('DB_READ_ONLY', 'Mnemo’s database cannot be written (the file or its folder is read-only). Check the data folder’s permissions.', { cause: e });
  }
  return null;
}
