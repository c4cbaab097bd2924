/**
 * Brings an open database up to the migrations in drizzle/ (openDatabase's third step, after the pragmas and
 * sqlite-vec), and reads which of them a file has.
 *
 * Invariants:
 * - A file with user data gets a verified copy (`<backups>/pre-migration-<time>.sqlite`, integrity_check passed)
 *   before its schema changes; a brand-new file, with nothing to lose, does not.
 * - All pending migrations apply in one IMMEDIATE transaction with foreign keys off (PRAGMA foreign_keys is a no-op
 *   inside a transaction, so it is switched off outside) and foreign_key_check before commit: a table rebuild cannot
 *   silently cascade-delete rows. Any failure rolls the whole batch back and says where the copy is.
 * - A file written by a newer Mnemo (a migration newer than ours) is refused, never migrated.
 *
 * drizzle's own migrator is not used: it takes no copy first and does not switch foreign keys off or check them.
 * The bookkeeping is drizzle's (`__drizzle_migrations`, one row per migration), so drizzle's tools read it as theirs.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readMigrationFiles, type MigrationMeta } from 'drizzle-orm/migrator';
import { MnemoError } from '../../../shared/errors';
import type { Sqlite } from './open-database';
import { writeTransaction } from './write-transaction';

/** drizzle's bookkeeping table: one row per applied migration, `created_at` being its journal `when`. */
export const MIGRATIONS_TABLE = '__drizzle_migrations';

export interface MigrationOptions {
  migrationsDir: string;
  /** Where the pre-migration copy goes. */
  backupsDir: string;
  /** Clock for the copy's name. */
  now: () => number;
  /** The file held data before this open (a copy is taken only then). */
  hasUserData: boolean;
}

export interface MigrationResult {
  /** Tags of the migrations this call applied, oldest first (empty: the file was up to date). */
  applied: string[];
  /** The verified copy taken before migrating, if any. */
  backup: string | null;
}

type Migration = MigrationMeta & { tag: string };

/** Applies the migrations `sqlite` lacks (see the header). */
export function migrateDatabase(sqlite: Sqlite, file: string, opts: MigrationOptions): MigrationResult {
  const migrations = readMigrations(opts.migrationsDir);
  const last = appliedMigrationMillis(sqlite);
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
    writeTransaction(sqlite, () => {
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

function readMigrations(dir: string): Migration[] {
  try {
    const tags = readMigrationJournal(dir).map((e) => e.tag);
    return readMigrationFiles({ migrationsFolder: dir }).map((m, i) => ({ ...m, tag: tags[i] ?? String(m.folderMillis) }));
  } catch (e) {
    throw new MnemoError('DB_MIGRATION_FAILED', `Mnemo's migration files are missing from ${dir}. Reinstall Mnemo.`, { cause: e });
  }
}

/** The journal `when` of the newest migration applied to a database; null when none was (no migrations table). */
export function appliedMigrationMillis(sqlite: Sqlite): number | null {
  const exists = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type='table' AND name=?`).get(MIGRATIONS_TABLE);
  if (!exists) return null;
  const row = sqlite.prepare(`SELECT created_at AS at FROM ${MIGRATIONS_TABLE} ORDER BY created_at DESC LIMIT 1`).get() as
    | { at: number | string }
    | undefined;
  return row ? Number(row.at) : null;
}

/** Tag of the newest migration applied to a database, e.g. "0001_search_indexes"; "unknown" for one drizzle/ lacks. */
export function schemaVersionOf(sqlite: Sqlite, migrationsDir: string): string {
  const last = appliedMigrationMillis(sqlite);
  return readMigrationJournal(migrationsDir).find((e) => e.when === last)?.tag ?? 'unknown';
}

/** drizzle/meta/_journal.json: the migrations this version ships, oldest first. */
export function readMigrationJournal(migrationsDir: string): Array<{ when: number; tag: string }> {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsDir, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ when: number; tag: string }>;
  };
  return journal.entries;
}

/** Copies the live database with SQLite's online backup and proves the copy is sound before returning its path. */
function verifiedBackup(sqlite: Sqlite, file: string, target: string): string {
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
