/**
 * A verified copy of a database file: VACUUM INTO a new file from a read-only connection of its own, then proved sound
 * (inspectDatabaseFile: integrity_check, our tables, a known schema) and synced. What a backup and a staged restore
 * are made of.
 *
 * Both steps read every page: about 5 s for a 30,000-memory (74 MB) database on a busy machine. copyDatabaseOffThread
 * runs them in a worker thread (database-copy.worker.ts), so the thread that answers calls stays free (issue 11: long
 * work must not hold it); the database stays usable meanwhile (WAL: the copy is the snapshot its connection started
 * from). Small databases, and a build without the worker's script, are copied by the same function on the calling
 * thread.
 *
 * The copy gets the name it is given; the caller renames it into place only after this resolves, and removes it when
 * this throws (a MnemoError from verification, or SQLite's own error for a write that failed).
 */
import fs from 'node:fs';
import Database from 'better-sqlite3';
import { workerEntry } from '../runtime/worker-entry';
import { OFF_THREAD_FROM_BYTES, runWorkerTask } from '../runtime/worker-task';
import { syncFile } from './file-sync';
import { inspectDatabaseFile, type DatabaseFileInfo } from './inspect-database-file';

export interface CopyRequest {
  source: string;
  target: string;
  migrationsDir: string;
}

export function copyDatabase(request: CopyRequest): DatabaseFileInfo {
  fs.rmSync(request.target, { force: true });
  const from = new Database(request.source, { readonly: true, fileMustExist: true });
  try {
    // Virtual tables (FTS5, vec0) are copied as their schema rows and shadow tables: no module needs loading.
    from.prepare('VACUUM INTO ?').run(request.target);
  } finally {
    from.close();
  }
  const info = inspectDatabaseFile(request.target, request.migrationsDir);
  syncFile(request.target);
  return info;
}

export function copyDatabaseOffThread(request: CopyRequest, offThreadFromBytes = OFF_THREAD_FROM_BYTES): Promise<DatabaseFileInfo> {
  const entry = databaseBytes(request.source) >= offThreadFromBytes ? workerEntry(import.meta.url, 'database-copy.worker') : null;
  if (!entry) return Promise.resolve().then(() => copyDatabase(request));
  return runWorkerTask<DatabaseFileInfo>(entry, request);
}

/** The database's size with its write-ahead log (what the copy reads). */
function databaseBytes(file: string): number {
  const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  return size(file) + size(`${file}-wal`);
}
