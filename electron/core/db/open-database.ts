/**
 * The one way to open Mnemo's database, used by the app, the CLI, the web host and the tests:
 * staged restore (db/staged-restore.ts) -> preflight (database-preflight.ts) -> pragmas -> sqlite-vec ->
 * migrations (migrate-database.ts: verified backup first; foreign keys off outside the migration transaction, checked
 * after) -> quick_check.
 *
 * Invariant: a file that cannot be read as a healthy Mnemo database is never replaced, rewritten or migrated.
 * Opening it fails with a message that says what to do (DB_CORRUPT: damaged or not a database; DB_NOT_MNEMO: another
 * program's database; DB_READ_ONLY: the folder or file cannot be written), and the file stays exactly as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { applyPendingRestore, type RestoreOutcome } from './staged-restore';
import { toUnpackedPath } from '../runtime/packaged-paths';
import { preflight, quickCheck, unreadable } from './database-preflight';
import { migrateDatabase, schemaVersionOf } from './migrate-database';
import { readOnlyProblem } from './read-only-check';

export type Sqlite = Database.Database;

export interface OpenedDatabase {
  sqlite: Sqlite;
  path: string;
  /** Tag of the newest applied migration, e.g. "0001_search_indexes". */
  schemaVersion: string;
  /** Migrations applied by this open (empty when the file was up to date). */
  appliedMigrations: string[];
  /** The verified copy taken before migrating, if any. */
  preMigrationBackup: string | null;
  /** What happened to a staged restore at this open (null: none was staged). */
  restore: RestoreOutcome | null;
  close(): void;
}

export interface OpenDatabaseOptions {
  migrationsDir: string;
  /** Where pre-migration backups go; default: "<db dir>/backups". */
  backupsDir?: string;
  /** sqlite-vec's loadable extension; default: the npm package's own (the packaged app passes the asar.unpacked path). */
  vecExtensionPath?: string;
  /** Clock for backup names (tests pass a fixed one). */
  now?: () => number;
}

export function openDatabase(file: string, options: OpenDatabaseOptions): OpenedDatabase {
  const absolute = path.resolve(file);
  try {
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
  } catch (e) {
    throw readOnlyProblem(absolute) ?? e;
  }
  // Before anything else, restore included: a read-only folder must not be reported as damage (read-only-check.ts).
  const readOnly = readOnlyProblem(absolute);
  if (readOnly) throw readOnly;
  const backupsDir = options.backupsDir ?? path.join(path.dirname(absolute), 'backups');
  const now = options.now ?? Date.now;
  const restore = applyPendingRestore(absolute, { migrationsDir: options.migrationsDir, backupsDir, now });
  const existedBefore = fs.existsSync(absolute) && fs.statSync(absolute).size > 0;

  // A damaged file must be caught before anything writes into it, even a pragma that rewrites the header.
  if (existedBefore) preflight(absolute);

  let sqlite: Sqlite;
  try {
    sqlite = new Database(absolute, { fileMustExist: false });
  } catch (e) {
    throw unreadable(absolute, e);
  }
  try {
    applyPragmas(sqlite, absolute);
    loadVec(sqlite, options.vecExtensionPath);
    const { applied, backup } = migrateDatabase(sqlite, absolute, { migrationsDir: options.migrationsDir, backupsDir, now, hasUserData: existedBefore });
    if (applied.length > 0) quickCheck(sqlite, absolute);
    return {
      sqlite,
      path: absolute,
      schemaVersion: schemaVersionOf(sqlite, options.migrationsDir),
      appliedMigrations: applied,
      preMigrationBackup: backup,
      restore,
      close: () => closeDatabase(sqlite),
    };
  } catch (e) {
    if (sqlite.open) sqlite.close();
    throw e;
  }
}

function applyPragmas(sqlite: Sqlite, file: string): void {
  try {
    sqlite.pragma('journal_mode = WAL');
    // better-sqlite3 defaults WAL to synchronous=NORMAL, which can lose the last commits on power loss.
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    // Deleted content is overwritten with zeros, so a purged memory does not linger in free pages.
    sqlite.pragma('secure_delete = ON');
    sqlite.pragma('temp_store = MEMORY');
    // Vector search reads vec0 chunks (1.5 MB blobs spread over overflow pages) that do not fit the default 2 MB page
    // cache: through pread every page is a system call and a copy, through the map it is a memory read (at 100k
    // memories, re-scoring 100 candidates went from about 20 ms to about 1 ms). Address space, not memory.
    sqlite.pragma('mmap_size = 1073741824');
  } catch (e) {
    throw unreadable(file, e);
  }
}

/** Loads sqlite-vec into a connection (vec0 tables cannot be read or changed without it); also used on backups. */
export function loadVec(sqlite: Sqlite, extensionPath: string | undefined): void {
  // sqlite-vec's own load() passes its path inside app.asar when a packaged app's CLI (ELECTRON_RUN_AS_NODE) or
  // worker runs this; SQLite reads the real file in app.asar.unpacked. Outside a package the path is unchanged.
  sqlite.loadExtension(extensionPath ?? toUnpackedPath(sqliteVec.getLoadablePath()));
}

function closeDatabase(sqlite: Sqlite): void {
  if (!sqlite.open) return;
  try {
    // Folds the WAL back into the main file so nothing (deleted text included) is left in it after a clean close.
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    sqlite.close();
  }
}

// Where drizzle/ is lives with the other paths (ports/paths.port.ts); tests and benches open databases with it from here.
export { sourceMigrationsDir } from '../ports/paths.port';
