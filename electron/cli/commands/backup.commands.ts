/**
 * Database backups from the terminal. `db restore` runs without a core: it must work when the database no longer opens
 * (the very case the "cannot read its database" message sends people here for). It stages the backup and opens the
 * database once, which swaps it in (this process owns the data folder unless Mnemo runs elsewhere on it).
 * `db restore --latest` and `db start-empty` are the two ways out the "database is missing" message offers
 * (core/backup/missing-database.ts); both work without a core too, since the core refuses to start in that case.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BackupInfo, OpOutput } from '../../../shared/contract';
import { isMnemoError } from '../../../shared/errors';
import { KEPT_ASIDE_DIR } from '../../core/backup/backup-rotation';
import { listBackups } from '../../core/backup/backup.service';
import { missingDatabase, newestGoodBackup } from '../../core/backup/missing-database';
import { stageRestore } from '../../core/db/staged-restore';
import { openDatabase, type OpenedDatabase } from '../../core/db/open-database';
import { createStderrLogger } from '../../core/ports/logger.port';
import { derivePaths, type Paths } from '../../core/ports/paths.port';
import type { CliCommand, CliContext, CliOutput, StandaloneContext } from '../cli-command';
import { flag } from '../options';

const size = (bytes: number) => (bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);
const memoriesCount = (n: number) => `${n} ${n === 1 ? 'memory' : 'memories'}`;
function formatList(l: OpOutput<'db.backups'>, localTime: CliContext['localTime']): string {
  const time = (at: number) => localTime(at, 'second');
  if (l.backups.length === 0) return `No backups yet in ${l.folder}.`;
  const rows = l.backups.map((b: BackupInfo) => `${time(b.createdAt)}  ${b.kind.padEnd(13)} ${size(b.sizeBytes).padStart(9)}  ${b.name}`);
  const asideDir = path.join(l.folder, KEPT_ASIDE_DIR);
  const aside = listBackups(asideDir).length;
  return [
    ...rows,
    '',
    `folder: ${l.folder}`,
    `last automatic backup: ${l.lastAutomaticAt === null ? 'none yet' : time(l.lastAutomaticAt)}`,
    ...(aside > 0 ? [`kept aside: ${aside} automatic ${aside === 1 ? 'backup' : 'backups'} holding much less than the others, in ${asideDir}`] : []),
  ].join('\n');
}

/** Opens the database the one way (openDatabase), which swaps in a staged restore or creates a new database. */
function openOnce(paths: Paths): OpenedDatabase {
  return openDatabase(paths.dbFile, {
    migrationsDir: paths.migrationsDir,
    backupsDir: paths.backupsDir,
    ...(paths.vecExtensionPath ? { vecExtensionPath: paths.vecExtensionPath } : {}),
  });
}

async function restore({ args, flags, dataDir, io }: StandaloneContext): Promise<CliOutput> {
  const arg = args.join(' ').trim();
  const latest = flags.latest === 'true';
  if (latest && arg) return { ok: false, error: { code: 'INVALID_INPUT', message: 'Say either a backup to restore (FILE) or --latest, not both.' } };
  if (!arg && !latest) {
    return { ok: false, error: { code: 'INVALID_INPUT', message: 'Say which backup to restore: npm run -s cli -- db restore FILE (a path, or a name from "db backups"), or --latest for the newest good one.' } };
  }
  const paths = derivePaths(dataDir, {}, io.env);
  let file: string;
  if (latest) {
    const good = newestGoodBackup(paths);
    if (!good) return { ok: false, error: { code: 'NOT_FOUND', message: `There is no backup to restore in ${paths.backupsDir}: none verifies and holds a memory or a message. Nothing was changed.` } };
    file = good.path;
  } else {
    // A path as typed (relative to here) when it exists; otherwise a name in the backups folder.
    file = fs.existsSync(path.resolve(io.cwd, arg)) ? path.resolve(io.cwd, arg) : arg;
  }
  try {
    const staged = stageRestore(paths, file, createStderrLogger('error', io.stderr));
    const db = openOnce(paths);
    const outcome = db.restore;
    db.close();
    const value = { ...staged, outcome };
    if (outcome?.status === 'restored') {
      const kept = outcome.preRestoreBackup ? `\nThe database it replaced is kept at ${outcome.preRestoreBackup}.` : '';
      return { ok: true, value, text: `Restored ${path.basename(file)} (${memoriesCount(staged.memories)}, schema ${outcome.schemaVersion}).${kept}` };
    }
    if (outcome?.status === 'deferred') {
      return { ok: true, value, text: `Mnemo is running on this data folder, so the backup is staged: it replaces the database when Mnemo next starts.` };
    }
    return { ok: false, error: { code: 'DB_CORRUPT', message: outcome?.reason ?? 'The staged backup was not restored.' } };
  } catch (e) {
    if (isMnemoError(e)) return { ok: false, error: e.toInfo() };
    throw e;
  }
}

/** Begins with an empty database where there is none (or a 0-byte one), when the user chooses that over a backup. */
async function startEmpty({ dataDir, io }: StandaloneContext): Promise<CliOutput> {
  const paths = derivePaths(dataDir, {}, io.env);
  if (!missingDatabase(paths.dbFile)) {
    return {
      ok: false,
      error: { code: 'CONFLICT', message: `There is already a database at ${paths.dbFile} (or a restore staged for it); start-empty only creates one where there is none. Nothing was changed.` },
    };
  }
  try {
    const db = openOnce(paths);
    const value = { path: db.path, schemaVersion: db.schemaVersion };
    db.close();
    const kept = listBackups(paths.backupsDir).length > 0 ? ` The backups in ${paths.backupsDir} stay as they were: restore one any time with npm run -s cli -- db restore FILE.` : '';
    return { ok: true, value, text: `Started with an empty database at ${value.path}.${kept}` };
  } catch (e) {
    if (isMnemoError(e)) return { ok: false, error: e.toInfo() };
    throw e;
  }
}

export const backupCommands: CliCommand[] = [
  {
    words: ['db', 'backup'],
    synopsis: 'db backup                a verified copy of the database in <data>/backups/',
    async run({ client }) {
      const r = await client.call('db.backup', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: `Backed up to ${r.value.path} (${size(r.value.sizeBytes)}, verified).` };
    },
  },
  {
    words: ['db', 'backups'],
    synopsis: 'db backups               the backups, newest first (manual, automatic: 7 kept, before migrations and restores)',
    async run({ client, localTime }) {
      const r = await client.call('db.backups', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: formatList(r.value, localTime) };
    },
  },
  {
    words: ['db', 'restore'],
    synopsis: 'db restore FILE|--latest replaces the database with a backup, or the newest good one (the current one is kept in backups/ first)',
    options: { latest: flag('the newest backup that verifies and holds data') },
    runWithoutCore: restore,
  },
  {
    words: ['db', 'start-empty'],
    synopsis: 'db start-empty           begins with an empty database where it is missing or empty (the backups stay)',
    runWithoutCore: startEmpty,
  },
];
