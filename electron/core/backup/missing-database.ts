/**
 * A missing or empty database beside good backups is not a fresh install. Opening it as one would start an empty
 * database without a word, and its daily backups would then be all that is written (see backup-rotation.ts for why
 * they no longer push the good copies out). So, right before the database is opened (createCore), this asks first.
 *
 * - "Missing": no `mnemo.db`, or a 0-byte one with no WAL content beside it (SQLite would read a WAL), and no restore
 *   staged (which fills it at this very open).
 * - "Good backup": a file in the backups folder or its kept-aside folder, named as a backup, that verifies
 *   (inspectDatabaseFile: integrity, our tables, a schema this version knows) and holds something: at least one memory
 *   or message. The newest such file is offered.
 * - No good backup (a first start, a backups folder with only empty or damaged copies): a new database is created as
 *   always, silently. There is nothing to lose.
 * - Otherwise the host decides (WhenDatabaseMissing): refuse with DB_MISSING, naming the backup and what to do (the
 *   default), restore that backup (staged, then swapped in by openDatabase), or start empty.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BackupInfo } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { readOnlyProblem } from '../db/read-only-check';
import type { Logger } from '../ports/logger.port';
import type { Paths } from '../ports/paths.port';
import { contentOf, KEPT_ASIDE_DIR } from './backup-rotation';
import { listBackups } from './backup.service';
import { inspectDatabaseFile } from '../db/inspect-database-file';
import { pendingRestorePath, stageRestore } from '../db/staged-restore';

/** What to do when the database is missing beside a good backup: ask (refuse), restore the newest, or start empty. */
export type WhenDatabaseMissing = 'refuse' | 'restore-newest' | 'start-empty';

export interface GoodBackup extends BackupInfo {
  memories: number;
  messages: number;
}

/** 'missing' or 'empty' (0 bytes) when there is no database to open; null when there is one, or a restore is staged. */
export function missingDatabase(dbFile: string): 'missing' | 'empty' | null {
  if (fs.existsSync(pendingRestorePath(dbFile))) return null;
  const size = (file: string) => (fs.existsSync(file) ? fs.statSync(file).size : null);
  const db = size(dbFile);
  if (db === null) return 'missing';
  return db === 0 && !size(`${dbFile}-wal`) ? 'empty' : null;
}

/** The newest backup that verifies and holds at least one memory or message (see the header); null: none. */
export function newestGoodBackup(paths: Pick<Paths, 'backupsDir' | 'migrationsDir'>): GoodBackup | null {
  const candidates = [...listBackups(paths.backupsDir), ...listBackups(path.join(paths.backupsDir, KEPT_ASIDE_DIR))].sort((a, b) => b.createdAt - a.createdAt);
  for (const backup of candidates) {
    try {
      const info = inspectDatabaseFile(backup.path, paths.migrationsDir);
      if (contentOf(info) > 0) return { ...backup, memories: info.memories, messages: info.messages };
    } catch {
      // Damaged, another program's, or from a newer Mnemo: not one to offer.
    }
  }
  return null;
}

/** Called right before openDatabase: throws DB_MISSING, stages the newest good backup, or lets a new database start. */
export function handleMissingDatabase(paths: Paths, when: WhenDatabaseMissing, logger: Logger): void {
  if (when === 'start-empty') return;
  const state = missingDatabase(paths.dbFile);
  if (!state) return;
  const good = newestGoodBackup(paths);
  if (!good) return;
  // A read-only folder first: neither restoring nor starting empty could write there.
  const readOnly = readOnlyProblem(paths.dbFile);
  if (readOnly) throw readOnly;
  if (when === 'restore-newest') {
    stageRestore(paths, good.path, logger);
    logger.warn('database missing: restoring the newest good backup', { backup: good.name, state });
    return;
  }
  throw missingDatabaseError(paths, state, good);
}

function missingDatabaseError(paths: Paths, state: 'missing' | 'empty', good: GoodBackup): MnemoError {
  const when = new Date(good.createdAt).toISOString().slice(0, 16).replace('T', ' ');
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const holds = `${count(good.memories, 'memory', 'memories')}, ${count(good.messages, 'message', 'messages')}, ${(good.sizeBytes / 1_048_576).toFixed(1)} MB`;
  const dataDir = JSON.stringify(paths.dataDir);
  return new MnemoError(
    'DB_MISSING',
    `Mnemo's database at ${paths.dbFile} is ${state === 'missing' ? 'missing' : 'empty (0 bytes)'}, but the backups folder holds a good copy: ` +
      `${good.name} from ${when} UTC (${holds}). Mnemo has not created a new database, so nothing replaces your data or its backups. ` +
      `To restore that copy: npm run -s cli -- db restore --latest --data-dir ${dataDir}. ` +
      `To start with an empty database instead (the backups stay): npm run -s cli -- db start-empty --data-dir ${dataDir}.`,
    { details: { file: paths.dbFile, state, dataDir: paths.dataDir, backup: good } },
  );
}
