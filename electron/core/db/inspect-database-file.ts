/**
 * What a file must be for Mnemo to take it as a backup or restore it: an intact Mnemo database this version can open
 * (integrity_check, our tables, a known schema not newer than ours). Read only; the file is never changed. Every
 * backup and staged restore passes it (database-copy.ts), and so does a backup offered when the database is missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { MnemoError } from '../../../shared/errors';
import { REQUIRED_TABLES, tableNames } from './database-preflight';
import { appliedMigrationMillis, readMigrationJournal } from './migrate-database';
import type { Sqlite } from './open-database';

export interface DatabaseFileInfo {
  schemaVersion: string;
  memories: number;
  /** Chat messages: with memories, what a backup holds of the user's (see backup-rotation.ts). */
  messages: number;
  sizeBytes: number;
}

/** Proves `file` is an intact Mnemo database this version can open (see the header); throws a MnemoError saying what is wrong. */
export function inspectDatabaseFile(file: string, migrationsDir: string): DatabaseFileInfo {
  const name = path.basename(file);
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new MnemoError('NOT_FOUND', `There is no file at ${file}. Choose a backup: "db backups" lists them.`, { path: 'file' });
  const refuse = (code: 'INVALID_INPUT' | 'DB_CORRUPT', why: string, cause?: unknown) =>
    new MnemoError(code, `${name} cannot be restored: ${why}. Nothing was changed.`, { path: 'file', ...(cause ? { cause } : {}) });
  let db: Sqlite;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw refuse('DB_CORRUPT', `it cannot be opened (${(e as { code?: string }).code ?? (e as Error).message})`, e);
  }
  try {
    let problems: string[];
    try {
      problems = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).filter((r) => r !== 'ok');
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === 'SQLITE_NOTADB') throw refuse('INVALID_INPUT', 'it is not a database file');
      throw refuse('DB_CORRUPT', `it is damaged (${code ?? (e as Error).message})`, e);
    }
    if (problems.length > 0) throw refuse('DB_CORRUPT', `it is damaged (integrity check: ${problems.slice(0, 3).join('; ')})`);
    const tables = tableNames(db);
    const missing = REQUIRED_TABLES.filter((t) => !tables.has(t));
    if (missing.length > 0) throw refuse('INVALID_INPUT', `it is not a Mnemo database (no ${missing.slice(0, 3).join(', ')} table)`);
    const applied = appliedMigrationMillis(db);
    const journal = readMigrationJournal(migrationsDir);
    const newest = journal[journal.length - 1];
    if (applied !== null && newest && applied > newest.when) throw refuse('INVALID_INPUT', 'it was written by a newer version of Mnemo; update Mnemo first');
    const known = journal.find((e) => e.when === applied);
    if (!known) throw refuse('INVALID_INPUT', 'its schema version is not one this version of Mnemo knows');
    const count = (table: 'memories' | 'messages') => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    return { schemaVersion: known.tag, memories: count('memories'), messages: count('messages'), sizeBytes: fs.statSync(file).size };
  } finally {
    db.close();
  }
}
