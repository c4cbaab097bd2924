/**
 * "Delete forever" reaches the backups: after a purge has committed in the live database, the purged memories (or
 * episodes: the same rules, their own tables) are erased from every copy of the database Mnemo keeps in the data folder: each file in the backups folder and its
 * subfolders (automatic, manual, pre-migration, pre-restore, kept-aside copies) and a staged or refused restore beside
 * the database (`mnemo.db.restore-pending`, `mnemo.db.restore-refused-…`).
 *
 * Invariants:
 * - A backup is never changed in place. The scrub works on a scratch copy, deletes there with secure_delete on,
 *   merges the full-text index (a contentless-delete FTS5 DELETE only writes a tombstone, see memory.service.ts),
 *   writes a compact copy of that (VACUUM INTO: no free page keeps old bytes), proves it sound (inspectDatabaseFile:
 *   integrity_check, our tables, a known schema) and that it lost exactly the purged rows, syncs it and renames it
 *   over the backup. A crash at any point leaves the backup as it was (and a scratch file the next scrub removes).
 * - A memory (or episode) is matched by id and creation time. Ids never repeat within one database, but a restore rewinds them:
 *   a backup taken before the restore may hold another memory under the same id, and that one is not touched.
 * - Nothing is silently skipped. A file that cannot be read, is not a Mnemo database this version can change, or
 *   cannot be rewritten is listed in `remaining` with its path and why: it may still hold a copy, and the user is
 *   told to delete it by hand. eraseMemories itself never throws (the purge has committed; its answer must arrive).
 * - Tables are deleted from only where they exist: a pre-migration backup has an older schema.
 * - Files that hold none of the purged memories are only read (one lookup), not rewritten.
 *
 * The purge's answer says where the memories are gone from, so it waits for the files. A file that holds them costs
 * a copy, a VACUUM INTO and an integrity_check (about 1 s for a 24 MB backup of 10,000 memories on a loaded 2-core
 * machine): from 2 MB of backups on, that work runs in a worker thread (backup-scrub.worker.ts), so calls are answered
 * meanwhile.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { BackupErasure, RemainingCopy } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { loadVec, type Sqlite } from '../db/open-database';
import { writeTransaction } from '../db/write-transaction';
import type { Logger } from '../ports/logger.port';
import { NOTHING_ERASED, type BackupScrubber, type PurgedEpisode, type PurgedMemory } from '../ports/backup-scrubber.port';
import type { Paths } from '../ports/paths.port';
import { workerEntry } from '../runtime/worker-entry';
import { OFF_THREAD_FROM_BYTES, runWorkerTask } from '../runtime/worker-task';
import { forgetEpisodesInBackupRecords, forgetMemoriesInProfile, returnOriginals } from './backup-derived';
import { syncDirectory, syncFile } from '../db/file-sync';
import { inspectDatabaseFile } from '../db/inspect-database-file';

/** Scratch files of a scrub, beside the backup they copy. A leftover (after a crash) is removed by the next scrub. */
const SCRATCH = ['.scrub-copy', '.scrub-out'] as const;
/** SQLite's own files beside a database: they go with it, they are not backups themselves. */
const COMPANIONS = ['-wal', '-shm', '-journal'] as const;
const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');

/** Why a file could not be scrubbed, in words for the user (the file's path is given beside it). */
class ScrubRefused extends Error {}

/** What a scrub needs: plain data, so a worker thread can be given it. */
export interface ScrubRequest {
  paths: Pick<Paths, 'dbFile' | 'backupsDir' | 'migrationsDir' | 'vecExtensionPath'>;
  memories: readonly PurgedMemory[];
  episodes?: readonly PurgedEpisode[];
  /** Originals that came back active when their summary was purged with its source (backup-derived.ts). */
  returned?: readonly PurgedMemory[];
}

export function createBackupScrubber(deps: { paths: Paths; logger: Logger; offThreadFromBytes?: number }): BackupScrubber {
  const { paths, logger } = deps;
  let previous: Promise<unknown> = Promise.resolve();

  async function scrub(purged: Pick<ScrubRequest, 'memories' | 'episodes' | 'returned'>): Promise<BackupErasure> {
    const request: ScrubRequest = { paths: { dbFile: paths.dbFile, backupsDir: paths.backupsDir, migrationsDir: paths.migrationsDir, ...(paths.vecExtensionPath ? { vecExtensionPath: paths.vecExtensionPath } : {}) }, ...purged };
    const entry = backupBytes(paths) >= (deps.offThreadFromBytes ?? OFF_THREAD_FROM_BYTES) ? workerEntry(import.meta.url, 'backup-scrub.worker') : null;
    if (!entry) return eraseFromBackups(request);
    try {
      return await runWorkerTask<BackupErasure>(entry, request);
    } catch (e) {
      // The worker itself failed (not a file: those are reported in its answer): the purge's answer must still come.
      logger.warn('the backup scrub worker failed; scrubbing on this thread', { code: (e as { code?: string }).code ?? 'error' });
      return eraseFromBackups(request);
    }
  }

  function erase(purged: Pick<ScrubRequest, 'memories' | 'episodes' | 'returned'>, what: string): Promise<BackupErasure> {
    if (purged.memories.length === 0 && (purged.episodes ?? []).length === 0) return Promise.resolve(NOTHING_ERASED);
    // One at a time: two scrubs would share the scratch files beside a backup.
    const run = previous.then(() => scrub(purged));
    previous = run.catch(() => undefined);
    return run.then((erasure) => {
      for (const copy of erasure.remaining) logger.warn(`a backup may still hold purged ${what}`, { file: copy.path, reason: copy.reason });
      if (erasure.erased > 0) logger.info(`purged ${what} erased from backups`, { erased: erasure.erased, clean: erasure.clean, remaining: erasure.remaining.length });
      return erasure;
    });
  }

  return {
    eraseMemories: (memories, returned = []) => erase({ memories, returned }, 'memories'),
    eraseEpisodes: (episodes) => erase({ memories: [], episodes }, 'episodes'),
  };
}

/** Erases the memories from every copy of the database in the data folder (see the header); never throws. */
export function eraseFromBackups({ paths, memories, episodes = [], returned = [] }: ScrubRequest): BackupErasure {
  const found = findBackupFiles(paths);
  for (const leftover of found.scratch) removeQuietly(leftover);
  let clean = 0;
  let erased = 0;
  const remaining: RemainingCopy[] = [...found.unreadable];
  for (const file of found.files) {
    try {
      if (eraseFrom(file, { memories, episodes, returned }, paths)) erased++;
      clean++;
    } catch (e) {
      // Gone meanwhile (rotation in another Mnemo process): nothing of it is left to hold a copy.
      if ((e as { code?: string }).code === 'ENOENT' && !fs.existsSync(file)) continue;
      remaining.push({ path: file, reason: reasonOf(e) });
    }
  }
  // Scratch copies hold the text until removed: one that could not be is a copy like any other.
  for (const scratch of findBackupFiles(paths).scratch) remaining.push({ path: scratch, reason: 'it is a scratch copy of a backup that could not be removed' });
  return { clean, erased, remaining };
}

/** What one scrub erases: memories, episodes, or both (and the originals to bring back). */
interface Purged {
  memories: readonly PurgedMemory[];
  episodes: readonly PurgedEpisode[];
  returned: readonly PurgedMemory[];
}

/** True when the file held some of the purged rows and was rewritten without them; false when it held none. */
function eraseFrom(file: string, purged: Purged, paths: ScrubRequest['paths']): boolean {
  if (fs.statSync(file).size === 0) return false;
  foldWal(file);
  if (!holdsAny(file, purged)) return false;
  const [copy, out] = SCRATCH.map((suffix) => file + suffix) as [string, string];
  try {
    removeWithCompanions(copy);
    removeWithCompanions(out);
    // A byte copy: the backup is a whole file (its WAL folded above) that nothing writes in place.
    fs.copyFileSync(file, copy);
    let expected = 0;
    let expectedEpisodes = 0;
    withDatabase(copy, { readonly: false }, (db) => {
      // The copy is scratch: no journal file (a failure discards the whole copy), and freed pages are zeroed.
      db.pragma('journal_mode = MEMORY');
      db.pragma('secure_delete = ON');
      // As in the live database: versions, uses and exclusions cascade, events and superseded_by lose the id.
      db.pragma('foreign_keys = ON');
      loadVec(db, paths.vecExtensionPath);
      const before = db.prepare('SELECT count(*) FROM memories').pluck().get() as number;
      // What was written from the purged rows goes with them, by the live database's rules (backup-derived.ts).
      writeTransaction(db, () => {
        forgetMemoriesInProfile(db, purged.memories);
        returnOriginals(db, purged.returned);
        forgetEpisodesInBackupRecords(db, episodesHeldInDb(db, purged.episodes));
      });
      expected = before - deleteMemories(db, purged.memories);
      expectedEpisodes = countEpisodes(db) - deleteEpisodes(db, purged.episodes);
      // Reading every page of the copy, VACUUM INTO also fails on a damaged one: such a backup is reported.
      db.prepare('VACUUM INTO ?').run(out);
    });
    removeWithCompanions(copy);
    // What replaces the backup is proved sound (integrity, our tables, a schema this version knows) before it does.
    const after = inspectDatabaseFile(out, paths.migrationsDir);
    const episodesAfter = withDatabase(out, { readonly: true }, countEpisodes);
    if (after.memories !== expected || episodesAfter !== expectedEpisodes || holdsAny(out, purged)) {
      throw new ScrubRefused('the rewritten copy did not come out as expected, so the backup was left as it was');
    }
    syncFile(out);
    fs.renameSync(out, file);
    syncDirectory(path.dirname(file));
    return true;
  } finally {
    // Quietly: a failure here must not hide the one that got us here; what stays is reported by the final sweep.
    removeQuietly(copy);
    removeQuietly(out);
  }
}

/** Bytes of the database copies a scrub may rewrite. */
function backupBytes(paths: Pick<Paths, 'dbFile' | 'backupsDir'>): number {
  let total = 0;
  for (const file of findBackupFiles(paths).files) {
    try {
      total += fs.statSync(file).size;
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
}

/** The purged memories this database file holds (by id and creation time); none in a SQLite file not Mnemo's. */
function heldIn(file: string, memories: readonly PurgedMemory[]): number[] {
  return withDatabase(file, { readonly: true }, (db) => {
    if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'memories'`).get()) return [];
    const find = db.prepare('SELECT id FROM memories WHERE id = ? AND created_at = ?').pluck();
    return memories.filter((m) => find.get(m.id, m.createdAt) !== undefined).map((m) => m.id);
  });
}

/** Does this database file hold any of the purged memories or episodes (by id and creation time)? */
function holdsAny(file: string, purged: Purged): boolean {
  return heldIn(file, purged.memories).length > 0 || episodesHeldIn(file, purged.episodes).length > 0;
}

/** The purged episodes this database file holds; none in a backup from before episodes existed. */
function episodesHeldIn(file: string, episodes: readonly PurgedEpisode[]): number[] {
  if (episodes.length === 0) return [];
  return withDatabase(file, { readonly: true }, (db) => episodesHeldInDb(db, episodes));
}

function episodesHeldInDb(db: Sqlite, episodes: readonly PurgedEpisode[]): number[] {
  if (episodes.length === 0) return [];
  if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'episodes'`).get()) return [];
  const find = db.prepare('SELECT id FROM episodes WHERE id = ? AND created_at = ?').pluck();
  return episodes.filter((e) => find.get(e.id, e.createdAt) !== undefined).map((e) => e.id);
}

function countEpisodes(db: Sqlite): number {
  if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'episodes'`).get()) return 0;
  return db.prepare('SELECT count(*) FROM episodes').pluck().get() as number;
}

/** Tables keyed by episode id, with the column: the search entries and the versions (each holds the text). */
const EPISODE_KEYED: ReadonlyArray<readonly [table: string, column: string]> = [
  ['episodes_fts', 'rowid'],
  ['episode_versions', 'episode_id'],
];

/**
 * Deletes the rows (each by id and created_at, so an id reused since is left alone) and every row of `keyed` under
 * their id; merges the search index so the words leave its pages (a contentless-delete DELETE leaves a tombstone).
 * Returns how many rows. A backup from before `table` existed holds none.
 */
function deleteWithKeyed(db: Sqlite, table: string, keyed: ReadonlyArray<readonly [table: string, column: string]>, fts: string, rows: ReadonlyArray<{ id: number; createdAt: number }>): number {
  if (rows.length === 0) return 0;
  const tables = new Set(db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[]);
  if (!tables.has(table)) return 0;
  const byId = keyed.filter(([t]) => tables.has(t)).map(([t, column]) => db.prepare(`DELETE FROM ${t} WHERE ${column} = ?`));
  const deleteRow = db.prepare(`DELETE FROM ${table} WHERE id = ? AND created_at = ?`);
  return writeTransaction(db, () => {
    let removed = 0;
    for (const r of rows) {
      if (deleteRow.run(r.id, r.createdAt).changes === 0) continue;
      // vec0 and FTS5 take integer keys only as integers, never as a float-typed JS number. A row's trigger may have
      // taken its search entry already; deleting again is a no-op, kept for a schema without it.
      for (const statement of byId) statement.run(BigInt(r.id));
      removed++;
    }
    if (removed > 0 && tables.has(fts)) db.exec(`INSERT INTO ${fts} (${fts}) VALUES ('optimize')`);
    return removed;
  });
}

/** Deletes the episodes and everything that carries their text; returns how many episodes. */
function deleteEpisodes(db: Sqlite, episodes: readonly PurgedEpisode[]): number {
  return deleteWithKeyed(db, 'episodes', EPISODE_KEYED, 'episodes_fts', episodes);
}

/** Tables keyed by memory id, with the column: the search entries, vectors, versions, uses, exclusions and other apps' access. */
const MEMORY_KEYED: ReadonlyArray<readonly [table: string, column: string]> = [
  ['memories_fts', 'rowid'],
  ['memory_vectors', 'memory_id'],
  ['memory_vector_bits', 'memory_id'],
  ['memory_versions', 'memory_id'],
  ['message_memories', 'memory_id'],
  ['thread_memory_exclusions', 'memory_id'],
  ['mcp_memory_access', 'memory_id'],
];

/** Deletes the memories and everything that carries their text or their vector; returns how many memories. */
function deleteMemories(db: Sqlite, memories: readonly PurgedMemory[]): number {
  return deleteWithKeyed(db, 'memories', MEMORY_KEYED, 'memories_fts', memories);
}

/**
 * A backup with a WAL beside it (a pre-restore copy of a database whose WAL could not be folded) is read through
 * that WAL; folding it first makes the file whole, so the rewritten file never sits beside a stale WAL.
 */
function foldWal(file: string): void {
  if (!fs.existsSync(`${file}-wal`)) return;
  withDatabase(file, { readonly: false }, (db) => db.pragma('journal_mode = DELETE'));
}

function withDatabase<T>(file: string, opts: { readonly: boolean }, fn: (db: Sqlite) => T): T {
  const db = new Database(file, { readonly: opts.readonly, fileMustExist: true, timeout: 0 });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

function removeWithCompanions(file: string): void {
  for (const suffix of ['', ...COMPANIONS]) fs.rmSync(file + suffix, { force: true });
}

function removeQuietly(file: string): void {
  try {
    removeWithCompanions(file);
  } catch {
    // Reported by the caller's final sweep.
  }
}

interface BackupFiles {
  /** Copies of the database to scrub. */
  files: string[];
  /** Scratch files a crashed scrub left behind. */
  scratch: string[];
  /** Folders that could not be listed: what they hold cannot be checked. */
  unreadable: RemainingCopy[];
}

/**
 * Every copy of the database in the data folder: the backups folder, subfolders included (symbolic links are not
 * followed), and the staged or refused restores beside the database. In the backups folder a file counts when it is
 * named `.sqlite` or starts like a SQLite database, so a damaged backup is counted (and reported) and a file the user
 * put there is left alone.
 */
function findBackupFiles(paths: Pick<Paths, 'dbFile' | 'backupsDir'>): BackupFiles {
  const out: BackupFiles = { files: [], scratch: [], unreadable: [] };
  const sort = (name: string, file: string, isBackup: () => boolean) => {
    const main = COMPANIONS.reduce((n, c) => (n.endsWith(c) ? n.slice(0, -c.length) : n), name);
    if (SCRATCH.some((s) => main.endsWith(s))) out.scratch.push(file);
    else if (main === name && isBackup()) out.files.push(file);
  };

  const dbDir = path.dirname(paths.dbFile);
  const staged = `${path.basename(paths.dbFile)}.`;
  for (const entry of list(dbDir, out)) {
    // The live database's own files are `mnemo.db`, `mnemo.db-wal`, `mnemo.db-shm`; `mnemo.db.*` are copies of it
    // (pendingRestorePath, the refused restores in staged-restore.ts).
    if (entry.isFile() && entry.name.startsWith(staged)) sort(entry.name, path.join(dbDir, entry.name), () => true);
  }
  const walk = (dir: string) => {
    for (const entry of list(dir, out)) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile()) sort(entry.name, file, () => entry.name.endsWith('.sqlite') || startsLikeSqlite(file));
    }
  };
  walk(paths.backupsDir);
  return out;
}

function list(dir: string, out: BackupFiles): fs.Dirent[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code !== 'ENOENT') out.unreadable.push({ path: dir, reason: `the folder cannot be read (${code ?? 'error'}), so the backups in it were not checked` });
    return [];
  }
}

function startsLikeSqlite(file: string): boolean {
  let fd: number | null = null;
  try {
    fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(SQLITE_HEADER.length);
    return fs.readSync(fd, head, 0, head.length, 0) === head.length && head.equals(SQLITE_HEADER);
  } catch {
    return false;
  } finally {
    if (fd !== null) fs.closeSync(fd);
  }
}

/** Why a file may still hold a copy, for the user: the file is named beside it, and the fix is to delete it by hand. */
function reasonOf(e: unknown): string {
  if (e instanceof ScrubRefused) return e.message;
  if (e instanceof MnemoError) {
    // From inspectDatabaseFile.
    return e.code === 'DB_CORRUPT' ? 'it is damaged and cannot be read' : 'it is not a Mnemo database this version can change';
  }
  const code = (e as { code?: string }).code ?? '';
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) return 'it is damaged and cannot be read';
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED') || code === 'EBUSY') return `another program is using it (${code})`;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'the disk is full, so it could not be rewritten';
  if (code.startsWith('SQLITE_READONLY') || code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `it or its folder cannot be written (${code})`;
  if (code.startsWith('SQLITE_CANTOPEN')) return `it cannot be opened (${code})`;
  if (/no such table/i.test((e as Error).message ?? '')) return 'it is not a Mnemo database this version can change';
  return `it could not be rewritten (${code || 'unexpected error'})`;
}
