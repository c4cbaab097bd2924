/**
 * What openDatabase proves about a file before anything writes into it, even a pragma that rewrites the header: it
 * opens, passes quick_check, and is Mnemo's. A file that fails is left exactly as it was, with a message that says
 * what to do (DB_CORRUPT: damaged or not a database; DB_NOT_MNEMO: another program's database; DB_READ_ONLY: a
 * failure that was the folder or file refusing writes, not damage).
 */
import Database from 'better-sqlite3';
import { MnemoError } from '../../../shared/errors';
import { MIGRATIONS_TABLE } from './migrate-database';
import type { Sqlite } from './open-database';
import { readOnlyProblem } from './read-only-check';

/** Tables every Mnemo database has; a file without them is not one. */
export const REQUIRED_TABLES = ['threads', 'messages', 'memories', 'memory_versions', 'events', 'settings', MIGRATIONS_TABLE];

/** Reads an existing file through a read-only connection of its own and throws if it is damaged or not Mnemo's. */
export function preflight(file: string): void {
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
export function tableNames(db: Sqlite): Set<string> {
  const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'`).all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

/** PRAGMA quick_check; DB_CORRUPT naming the first problems when it finds any. */
export function quickCheck(sqlite: Sqlite, file: string): void {
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

/** The error for a file SQLite refused to open or read: DB_READ_ONLY when writing was what failed, else DB_CORRUPT. */
export function unreadable(file: string, e: unknown): MnemoError {
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
