/**
 * Restoring a backup, in two halves that never replace a database in use.
 *
 * Staging (stageRestore, now): the chosen file is verified, copied (VACUUM INTO, so a WAL beside it is included), the
 * copy verified again, and renamed to `<db>.restore-pending`.
 *
 * Completing (applyPendingRestore, at the next open, called by openDatabase before anything else touches the file):
 * the staged file replaces the database only if (a) it verifies again (integrity_check, our tables, a schema this
 * version knows), and (b) no other connection has the live file open (Mnemo running elsewhere: the swap waits for the
 * next start). The live file (with its WAL folded in, or beside it) is first moved to
 * `backups/pre-restore-<time>.sqlite`, never deleted; a crash between the two renames leaves no live file and the
 * staged one still pending, which the next open completes.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { OpOutput } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { Sqlite } from './open-database';
import type { Logger } from '../ports/logger.port';
import type { Paths } from '../ports/paths.port';
import { copyDatabase } from './database-copy';
import { syncDirectory, syncFile } from './file-sync';
import { inspectDatabaseFile, type DatabaseFileInfo } from './inspect-database-file';

export type RestoreOutcome =
  | { status: 'restored'; schemaVersion: string; preRestoreBackup: string | null }
  /** Another connection has the live file open; the staged file waits for the next open. */
  | { status: 'deferred'; reason: string }
  /** The staged file no longer verifies; it was moved aside to `keptAt` and the live file is untouched. */
  | { status: 'refused'; reason: string; keptAt: string };

/** Where a verified backup waits to replace the database at the next open. */
export function pendingRestorePath(dbFile: string): string {
  return `${dbFile}.restore-pending`;
}

/**
 * Verifies a backup file and stages a verified copy of it as `<db>.restore-pending` (see the header). Usable without
 * an open database: the CLI restores over a database that no longer opens.
 */
export function stageRestore(paths: Paths, file: string, logger: Logger): OpOutput<'db.restore'> {
  const dir = paths.backupsDir;
  // A bare name is one of the backups listed by db.backups.
  const source = path.resolve(dir, file);
  const pending = pendingRestorePath(paths.dbFile);
  if (source === path.resolve(paths.dbFile) || source === pending) {
    throw new MnemoError('INVALID_INPUT', 'That is the database Mnemo is using now; choose a backup file to restore.', { path: 'file' });
  }
  inspectDatabaseFile(source, paths.migrationsDir);
  const partial = `${pending}.partial`;
  try {
    // What will be swapped in is the copy: it is verified too, not only its source.
    const info = copyDatabase({ source, target: partial, migrationsDir: paths.migrationsDir });
    fs.renameSync(partial, pending);
    syncDirectory(path.dirname(pending));
    logger.info('restore staged', { schemaVersion: info.schemaVersion, memories: info.memories });
    return {
      staged: pending,
      schemaVersion: info.schemaVersion,
      memories: info.memories,
      message: `Restart Mnemo to finish: ${path.basename(source)} (${info.memories} ${info.memories === 1 ? 'memory' : 'memories'}) replaces the current database, which is kept in ${dir} first.`,
    };
  } catch (e) {
    fs.rmSync(partial, { force: true });
    if (e instanceof MnemoError) throw e;
    throw new MnemoError('BACKUP_FAILED', `${path.basename(source)} could not be copied for the restore (${(e as { code?: string }).code ?? (e as Error).message}). Nothing was changed.`, {
      cause: e,
    });
  }
}

/** Completes a staged restore (see the header); null when none is staged. Called by openDatabase before it opens. */
export function applyPendingRestore(file: string, opts: { migrationsDir: string; backupsDir: string; now: () => number }): RestoreOutcome | null {
  const pending = pendingRestorePath(file);
  if (!fs.existsSync(pending)) return null;
  let info: DatabaseFileInfo;
  try {
    info = inspectDatabaseFile(pending, opts.migrationsDir);
  } catch (e) {
    const keptAt = `${file}.restore-refused-${opts.now()}`;
    fs.renameSync(pending, keptAt);
    return { status: 'refused', reason: (e as Error).message, keptAt };
  }
  let preRestoreBackup: string | null = null;
  if (fs.existsSync(file) && fs.statSync(file).size > 0) {
    if (!foldWalIfUnused(file)) return { status: 'deferred', reason: 'the database is open in another Mnemo process' };
    preRestoreBackup = path.join(opts.backupsDir, `pre-restore-${opts.now()}.sqlite`);
    fs.mkdirSync(opts.backupsDir, { recursive: true });
    // The WAL (left only if folding it failed on a damaged file) goes with its database, under the name SQLite pairs it by.
    for (const suffix of ['-wal', '']) if (fs.existsSync(file + suffix)) moveFile(file + suffix, preRestoreBackup + suffix);
  }
  fs.rmSync(`${file}-wal`, { force: true });
  fs.rmSync(`${file}-shm`, { force: true });
  fs.renameSync(pending, file);
  syncDirectory(path.dirname(file));
  return { status: 'restored', schemaVersion: info.schemaVersion, preRestoreBackup };
}

/**
 * Switches the live file out of WAL mode, which folds the WAL into it, and which SQLite allows only to the one
 * connection that has the file open. False: another connection has it open (nothing changed). A damaged file that
 * cannot switch counts as unused: its WAL then moves with it.
 */
function foldWalIfUnused(file: string): boolean {
  let db: Sqlite;
  try {
    db = new Database(file, { fileMustExist: true, timeout: 0 });
  } catch {
    return true;
  }
  try {
    db.pragma('journal_mode = DELETE');
    return true;
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    return !(code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
  } finally {
    db.close();
  }
}

/** A rename that also works across disks (EXDEV: copied, synced, then the original removed), made durable. */
function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (e) {
    if ((e as { code?: string }).code !== 'EXDEV') throw e;
    fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
    syncFile(to);
    fs.rmSync(from);
  }
  syncDirectory(path.dirname(to));
}
