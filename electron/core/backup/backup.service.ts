/**
 * Backups of the database in `<data>/backups/`, and staging a restore.
 *
 * Invariants:
 * - A backup is a VACUUM INTO snapshot (consistent, WAL included; database-copy.ts, in a worker thread for big
 *   databases) written under a temporary name, proved sound
 *   (integrity_check, our tables, a known schema) and synced, then renamed: a file listed under a backup's name is
 *   always a complete, verified copy.
 * - Rotation deletes only automatic backups beyond the newest 7, never the fullest, and an automatic backup holding
 *   much less than the others is kept aside instead of counted (backup-rotation.ts). Manual, pre-migration and
 *   pre-restore copies, and files this service did not name, are never deleted.
 * - A restore never replaces the open database: a verified copy of the chosen file is staged as
 *   `<db>.restore-pending`, and openDatabase swaps it in at the next start (staged-restore.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { BackupInfo, BackupKind, OpOutput } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { EventBus } from '../runtime/event-bus';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import type { Paths } from '../ports/paths.port';
import { copyDatabaseOffThread } from '../db/database-copy';
import { contentOf, holdsMuchLess, KEEP_AUTOMATIC, KEPT_ASIDE_DIR, rotationVictims } from './backup-rotation';
import { syncDirectory } from '../db/file-sync';
import { stageRestore } from '../db/staged-restore';

export interface BackupServiceDeps {
  paths: Paths;
  clock: Clock;
  events: EventBus;
  logger: Logger;
  /** Databases from this size on are copied in a worker thread (database-copy.ts); tests lower it. */
  offThreadFromBytes?: number;
}

export interface BackupService {
  /** Copies the database off the calling thread (database-copy.ts); the app keeps answering meanwhile. */
  backup(kind: 'manual' | 'automatic'): Promise<BackupInfo>;
  list(): OpOutput<'db.backups'>;
  /** Deletes automatic backups beyond the newest KEEP_AUTOMATIC of each folder, never the fullest; returns how many. */
  rotate(): number;
  lastAutomaticAt(): number | null;
  stageRestore(file: string): OpOutput<'db.restore'>;
}

/** `mnemo-2026-01-31T08-00-00-000Z.sqlite` (manual), `mnemo-auto-...` (automatic), a `-N` suffix on a clash. */
const OURS = /^mnemo-(auto-)?(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z(?:-\d+)?\.sqlite$/;
/** Written by openDatabase with a millisecond timestamp. */
const BY_OPEN = /^(pre-migration|pre-restore)-(\d+)\.sqlite$/;

export function backupName(kind: 'manual' | 'automatic', at: number): string {
  const stamp = new Date(at).toISOString().replace(/[:.]/g, '-');
  return `mnemo-${kind === 'automatic' ? 'auto-' : ''}${stamp}.sqlite`;
}

/** Kind and time of a file in the backups folder from its name; null for files that are not backups. */
export function parseBackupName(name: string): { kind: BackupKind; createdAt: number } | null {
  const ours = OURS.exec(name);
  if (ours) {
    const [, auto, day, h, m, s, ms] = ours;
    return { kind: auto ? 'automatic' : 'manual', createdAt: Date.parse(`${day!}T${h!}:${m!}:${s!}.${ms!}Z`) };
  }
  const byOpen = BY_OPEN.exec(name);
  if (byOpen) return { kind: byOpen[1] as 'pre-migration' | 'pre-restore', createdAt: Number(byOpen[2]) };
  return null;
}

/** The `-N` a name got because another backup had the same millisecond (0 for none): later ones have larger N. */
function clashNumber(name: string): number {
  return Number(/Z-(\d+)\.sqlite$/.exec(name)?.[1] ?? 0);
}

/** The backups in one folder (files named as backups; not its subfolders), newest first. */
export function listBackups(folder: string): BackupInfo[] {
  let names: string[];
  try {
    names = fs.readdirSync(folder);
  } catch {
    return [];
  }
  return names
    .map((name) => backupInfo(folder, name))
    .filter((b): b is BackupInfo => b !== null)
    .sort((a, b) => b.createdAt - a.createdAt || clashNumber(b.name) - clashNumber(a.name));
}

function backupInfo(folder: string, name: string): BackupInfo | null {
  const parsed = parseBackupName(name);
  if (!parsed) return null;
  const file = path.join(folder, name);
  try {
    return { path: file, name, kind: parsed.kind, createdAt: parsed.createdAt, sizeBytes: fs.statSync(file).size };
  } catch {
    return null; // removed meanwhile
  }
}

/** Memories plus messages in a backup file, read only; null when it cannot be read. */
function contentOfFile(file: string): number | null {
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      return contentOf({ memories: count('memories'), messages: count('messages') });
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

export function createBackupService(deps: BackupServiceDeps): BackupService {
  const { paths, clock, events, logger } = deps;
  const dir = paths.backupsDir;
  const keptAsideDir = path.join(dir, KEPT_ASIDE_DIR);
  const all = () => listBackups(dir);
  const automaticIn = (folder: string) => listBackups(folder).filter((b) => b.kind === 'automatic');

  function freeName(kind: 'manual' | 'automatic', at: number): string {
    const base = backupName(kind, at);
    let name = base;
    // Unique in both folders: a backup kept aside keeps its name.
    for (let n = 1; fs.existsSync(path.join(dir, name)) || fs.existsSync(path.join(keptAsideDir, name)); n++) name = base.replace(/\.sqlite$/, `-${n}.sqlite`);
    return name;
  }

  function rotateFolder(folder: string): number {
    const automatic = automaticIn(folder);
    if (automatic.length <= KEEP_AUTOMATIC) return 0;
    const victims = rotationVictims(automatic.map((b) => ({ ...b, content: contentOfFile(b.path) })));
    for (const old of victims) fs.rmSync(old.path, { force: true });
    if (victims.length > 0) logger.info('removed old automatic backups', { removed: victims.length, kept: automatic.length - victims.length });
    return victims.length;
  }

  function rotate(): number {
    return rotateFolder(dir) + rotateFolder(keptAsideDir);
  }

  /** Counts a new automatic backup among the kept ones, or keeps it aside (backup-rotation.ts); returns where it is. */
  function placeAutomatic(fresh: BackupInfo, content: number): BackupInfo {
    const others = automaticIn(dir).filter((b) => b.path !== fresh.path);
    const fullest = Math.max(0, ...others.map((b) => contentOfFile(b.path) ?? 0));
    if (!holdsMuchLess(content, fullest)) {
      rotate();
      return fresh;
    }
    fs.mkdirSync(keptAsideDir, { recursive: true });
    const keptAt = path.join(keptAsideDir, fresh.name);
    fs.renameSync(fresh.path, keptAt);
    syncDirectory(keptAsideDir);
    syncDirectory(dir);
    logger.warn('automatic backup kept aside: it holds much less than the backups kept', { content, fullest });
    rotate();
    return { ...fresh, path: keptAt };
  }

  function lastAutomaticAt(): number | null {
    const newest = [...automaticIn(dir), ...automaticIn(keptAsideDir)].map((b) => b.createdAt);
    return newest.length > 0 ? Math.max(...newest) : null;
  }

  return {
    async backup(kind) {
      let partial: string | null = null;
      let name: string;
      let content: number;
      try {
        fs.mkdirSync(dir, { recursive: true });
        name = freeName(kind, clock.now());
        const target = path.join(dir, name);
        partial = `${target}.partial`;
        content = contentOf(await copyDatabaseOffThread({ source: paths.dbFile, target: partial, migrationsDir: paths.migrationsDir }, deps.offThreadFromBytes));
        fs.renameSync(partial, target);
        syncDirectory(dir);
      } catch (e) {
        if (partial) fs.rmSync(partial, { force: true });
        const reason = e instanceof MnemoError ? e.message : ((e as { code?: string }).code ?? (e as Error).message);
        throw new MnemoError('BACKUP_FAILED', `The backup could not be written to ${dir} (${reason}). Check that the disk has space and the folder is writable, then try again.`, {
          cause: e,
        });
      }
      const written = backupInfo(dir, name)!;
      const info = kind === 'automatic' ? placeAutomatic(written, content) : written;
      logger.info('database backed up', { kind, sizeBytes: info.sizeBytes });
      events.emit('db.backedUp', { backup: info });
      return info;
    },

    list() {
      return { backups: all(), folder: dir, lastAutomaticAt: lastAutomaticAt() };
    },

    rotate,
    // Kept-aside ones included: the daily backup ran, whichever folder its copy went to.
    lastAutomaticAt,

    stageRestore: (file) => stageRestore(paths, file, logger),
  };
}
