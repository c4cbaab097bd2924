/**
 * The one way to open Mnemo's database, used by the app, the CLI, the web host and the tests:
 * pragmas -> sqlite-vec -> migrations (verified backup first; foreign keys off outside the migration transaction,
 * checked after) -> quick_check.
 *
 * Invariant: a file that cannot be read as a healthy Mnemo database is never replaced, rewritten or migrated.
 * Opening it fails with a message that says what to do (DB_CORRUPT: damaged or not a database; DB_NOT_MNEMO: another
 * program's database; DB_READ_ONLY: the folder or file cannot be written), and the file stays exactly as it was.
 *
 * Restore: a backup staged beside the database (`<db>.restore-pending`, see backup.service.ts) replaces it at the next
 * open, before anything else touches the file, and only if (a) the staged file verifies again (integrity_check, our
 * tables, a schema this version knows), and (b) no other connection has the live file open (Mnemo running elsewhere:
 * the swap waits for the next start). The live file (with its WAL folded in, or beside it) is first moved to
 * `backups/pre-restore-<time>.sqlite`, never deleted; a crash between the two renames leaves no live file and the
 * staged one still pending, which the next open completes.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import * as sqliteVec from 'sqlite-vec';
import { MnemoError } from '../../../shared/errors';
import { repoRoot } from '../version';
import { readOnlyProblem } from './read-only-check';
import * as schema from './schema';

export type Sqlite = Database.Database;
export type Orm = BetterSQLite3Database<typeof schema>;

export interface OpenedDatabase {
  sqlite: Sqlite;
  orm: Orm;
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

export type RestoreOutcome =
  | { status: 'restored'; schemaVersion: string; preRestoreBackup: string | null }
  /** Another connection has the live file open; the staged file waits for the next open. */
  | { status: 'deferred'; reason: string }
  /** The staged file no longer verifies; it was moved aside to `keptAt` and the live file is untouched. */
  | { status: 'refused'; reason: string; keptAt: string };

export interface OpenDatabaseOptions {
  migrationsDir: string;
  /** Where pre-migration backups go; default: "<db dir>/backups". */
  backupsDir?: string;
  /** sqlite-vec's loadable extension; default: the npm package's own (the packaged app passes the asar.unpacked path). */
  vecExtensionPath?: string;
  /** Clock for backup names (tests pass a fixed one). */
  now?: () => number;
}

const MIGRATIONS_TABLE = '__drizzle_migrations';

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
  const restore = applyPendingRestore(absolute, { migrationsDir: options.migrationsDir, backupsDir, now: options.now ?? Date.now });
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
    const migrations = readMigrations(options.migrationsDir);
    const { applied, backup } = migrate(sqlite, absolute, migrations, {
      backupsDir,
      now: options.now ?? Date.now,
      hasUserData: existedBefore,
    });
    if (applied.length > 0) quickCheck(sqlite, absolute);
    const orm = drizzle(sqlite, { schema });
    return {
      sqlite,
      orm,
      path: absolute,
      schemaVersion: currentSchemaVersion(sqlite, options.migrationsDir),
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
  if (extensionPath) sqlite.loadExtension(extensionPath);
  else sqliteVec.load(sqlite);
}

function preflight(file: string): void {
  let readonly: Sqlite;
  try {
    readonly = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    throw unreadable(file, e);
  }
  try {
    quickCheck(readonly, file);
    refuseForeign(readonly, file);
  } finally {
    readonly.close();
  }
}

/**
 * A file is Mnemo's when it has no tables yet (a new one), only the migrations table (a first start that stopped
 * before its first migration committed: the table is created outside that transaction), or the migrations table with
 * the tables every Mnemo database has. Anything else belongs to another program: migrating it would add our tables
 * to its file. Other programs use drizzle's `__drizzle_migrations` too, hence the tables as well.
 */
function refuseForeign(readonly: Sqlite, file: string): void {
  const tables = tableNames(readonly);
  const ours = tables.size === 0 || (tables.has(MIGRATIONS_TABLE) && (tables.size === 1 || REQUIRED_TABLES.every((t) => tables.has(t))));
  if (ours) return;
  const theirs = [...tables].filter((t) => t !== MIGRATIONS_TABLE).sort();
  const shown = theirs.slice(0, 3).join(', ') + (theirs.length > 3 ? `, and ${theirs.length - 3} more` : '');
  throw new MnemoError(
    'DB_NOT_MNEMO',
    `The file at ${file} is not a Mnemo database: it holds another program's tables (${shown}). Mnemo has not changed it. ` +
      `Move it elsewhere (it may belong to another program) and start Mnemo again to begin with a new database, or start Mnemo on another data folder (--data-dir).`,
    { details: { file, tables: theirs.slice(0, 10) } },
  );
}

/** The tables of a database, without SQLite's own (sqlite_sequence, sqlite_stat1, ...). */
function tableNames(db: Sqlite): Set<string> {
  const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`).all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

function quickCheck(sqlite: Sqlite, file: string): void {
  let rows: Array<{ quick_check: string }>;
  try {
    rows = sqlite.pragma('quick_check') as Array<{ quick_check: string }>;
  } catch (e) {
    throw unreadable(file, e);
  }
  const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
  if (problems.length > 0) {
    throw new MnemoError('DB_CORRUPT', corruptMessage(file, `integrity check failed: ${problems.slice(0, 3).join('; ')}`), {
      details: { file, problems: problems.slice(0, 10) },
    });
  }
}

type Migration = MigrationMeta & { tag: string };

function readMigrations(dir: string): Migration[] {
  try {
    const tags = readJournal(dir).map((e) => e.tag);
    return readMigrationFiles({ migrationsFolder: dir }).map((m, i) => ({ ...m, tag: tags[i] ?? String(m.folderMillis) }));
  } catch (e) {
    throw new MnemoError('DB_MIGRATION_FAILED', `Mnemo's migration files are missing from ${dir}. Reinstall Mnemo.`, { cause: e });
  }
}

function appliedMillis(sqlite: Sqlite): number | null {
  const exists = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type='table' AND name=?`).get(MIGRATIONS_TABLE);
  if (!exists) return null;
  const row = sqlite.prepare(`SELECT created_at AS at FROM ${MIGRATIONS_TABLE} ORDER BY created_at DESC LIMIT 1`).get() as
    | { at: number | string }
    | undefined;
  return row ? Number(row.at) : null;
}

function migrate(
  sqlite: Sqlite,
  file: string,
  migrations: Migration[],
  opts: { backupsDir: string; now: () => number; hasUserData: boolean },
): { applied: string[]; backup: string | null } {
  const last = appliedMillis(sqlite);
  const pending = migrations.filter((m) => last === null || m.folderMillis > last);
  if (pending.length === 0) return { applied: [], backup: null };

  const newest = migrations[migrations.length - 1];
  if (last !== null && newest && last > newest.folderMillis) {
    throw new MnemoError(
      'DB_MIGRATION_FAILED',
      `The database at ${file} was written by a newer version of Mnemo. Update Mnemo, or restore an older backup.`,
    );
  }

  // Nothing to lose in a brand-new file; anything else gets a verified copy before its schema changes.
  const backup = opts.hasUserData ? verifiedBackup(sqlite, file, path.join(opts.backupsDir, `pre-migration-${opts.now()}.sqlite`)) : null;

  // PRAGMA foreign_keys is a no-op inside a transaction, so it is switched off here, outside, and the whole
  // batch is checked with foreign_key_check before commit: a table rebuild cannot silently cascade-delete rows.
  sqlite.pragma('foreign_keys = OFF');
  const tags: string[] = [];
  try {
    sqlite.exec(`CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)`);
    const record = sqlite.prepare(`INSERT INTO ${MIGRATIONS_TABLE} (hash, created_at) VALUES (?, ?)`);
    const run = sqlite.transaction(() => {
      for (const m of pending) {
        for (const statement of m.sql) {
          if (statement.trim()) sqlite.exec(statement);
        }
        record.run(m.hash, m.folderMillis);
        tags.push(m.tag);
      }
      const violations = sqlite.pragma('foreign_key_check') as unknown[];
      if (violations.length > 0) {
        throw new MnemoError('DB_MIGRATION_FAILED', `A migration would break ${violations.length} references between rows; nothing was changed.`);
      }
    });
    run.immediate();
  } catch (e) {
    sqlite.pragma('foreign_keys = ON');
    if (e instanceof MnemoError) throw e;
    throw new MnemoError(
      'DB_MIGRATION_FAILED',
      `Updating the database at ${file} failed and was rolled back; your data is unchanged${backup ? ` (a copy is at ${backup})` : ''}. ` +
        `Please report this with the message: ${(e as Error).message}`,
      { cause: e, details: backup ? { backup } : {} },
    );
  }
  sqlite.pragma('foreign_keys = ON');
  return { applied: tags, backup };
}

/** Copies the live database with SQLite's online backup and proves the copy is sound before returning its path. */
export function verifiedBackup(sqlite: Sqlite, file: string, target: string): string {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // VACUUM INTO writes a consistent, compact snapshot (WAL contents included) in one statement.
  sqlite.prepare('VACUUM INTO ?').run(target);
  const copy = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const result = copy.pragma('integrity_check', { simple: true });
    if (result !== 'ok') {
      throw new MnemoError('DB_MIGRATION_FAILED', `The safety copy of ${file} at ${target} did not verify (${String(result)}); nothing was changed.`);
    }
  } finally {
    copy.close();
  }
  return target;
}

function currentSchemaVersion(sqlite: Sqlite, migrationsDir: string): string {
  const last = appliedMillis(sqlite);
  return readJournal(migrationsDir).find((e) => e.when === last)?.tag ?? 'unknown';
}

function readJournal(migrationsDir: string): Array<{ when: number; tag: string }> {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ when: number; tag: string }>;
  };
  return journal.entries;
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

function unreadable(file: string, e: unknown): MnemoError {
  // Permissions can change after the check at the start; a write refused now is still not damage.
  const readOnly = readOnlyProblem(file, e);
  if (readOnly) return readOnly;
  const reason = (e as { code?: string }).code ?? (e as Error).message;
  return new MnemoError('DB_CORRUPT', corruptMessage(file, String(reason)), { cause: e, details: { file } });
}

function corruptMessage(file: string, reason: string): string {
  return (
    `Mnemo cannot read its database at ${file} (${reason}). It has not changed or replaced the file. ` +
    `Restore a backup with "mnemo db restore FILE", or move the file elsewhere to start with an empty one.`
  );
}

// ---- restore -------------------------------------------------------------------------------------------------------

/** Tables every Mnemo database has; a file without them is not one. */
const REQUIRED_TABLES = ['threads', 'messages', 'memories', 'memory_versions', 'events', 'settings', MIGRATIONS_TABLE];

export interface DatabaseFileInfo {
  schemaVersion: string;
  memories: number;
  /** Chat messages: with memories, what a backup holds of the user's (see backup-rotation.ts). */
  messages: number;
  sizeBytes: number;
}

/**
 * Proves a file is an intact Mnemo database this version can open (integrity_check, our tables, a known schema not
 * newer than ours), reading it only. Throws a MnemoError saying what is wrong with the file.
 */
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
    const applied = appliedMillis(db);
    const journal = readJournal(migrationsDir);
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

/** Where a verified backup waits to replace the database at the next open. */
export function pendingRestorePath(dbFile: string): string {
  return `${dbFile}.restore-pending`;
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

export function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Makes a rename durable. Some platforms (Windows) cannot open a directory; there renames are durable already. */
export function syncDirectory(dir: string): void {
  let fd: number;
  try {
    fd = fs.openSync(dir, 'r');
  } catch {
    return;
  }
  try {
    fs.fsyncSync(fd);
  } catch {
    // EISDIR/EPERM on platforms without directory fsync.
  } finally {
    fs.closeSync(fd);
  }
}

/** The default location of drizzle/ when running from the source tree (tests, CLI, web host). */
export function sourceMigrationsDir(): string {
  return path.join(repoRoot(), 'drizzle');
}
