/**
 * Database backups from the terminal. `db restore` runs without a core: it must work when the database no longer opens
 * (the very case the "cannot read its database" message sends people here for). It stages the backup and opens the
 * database once, which swaps it in (this process owns the data folder unless Mnemo runs elsewhere on it).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BackupInfo, OpOutput } from '../../../shared/contract';
import { isMnemoError } from '../../../shared/errors';
import { stageRestore } from '../../core/backup/backup.service';
import { openDatabase } from '../../core/db/open-database';
import { createStderrLogger } from '../../core/ports/logger.port';
import { derivePaths } from '../../core/ports/paths.port';
import type { CliCommand, CliOutput, StandaloneContext } from '../commands';

const size = (bytes: number) => (bytes >= 1_048_576 ? `${(bytes / 1_048_576).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);
const memoriesCount = (n: number) => `${n} ${n === 1 ? 'memory' : 'memories'}`;
const time = (t: number) => new Date(t).toISOString().slice(0, 19).replace('T', ' ');

function formatList(l: OpOutput<'db.backups'>): string {
  if (l.backups.length === 0) return `No backups yet in ${l.folder}.`;
  const rows = l.backups.map((b: BackupInfo) => `${time(b.createdAt)}  ${b.kind.padEnd(13)} ${size(b.sizeBytes).padStart(9)}  ${b.name}`);
  return [...rows, '', `folder: ${l.folder}`, `last automatic backup: ${l.lastAutomaticAt === null ? 'none yet' : time(l.lastAutomaticAt)}`].join('\n');
}

async function restore({ args, dataDir }: StandaloneContext): Promise<CliOutput> {
  const arg = args.join(' ').trim();
  if (!arg) return { ok: false, error: { code: 'INVALID_INPUT', message: 'Say which backup to restore: npm run -s cli -- db restore FILE (a path, or a name from "db backups").' } };
  const paths = derivePaths(dataDir);
  // A path as typed (relative to here) when it exists; otherwise a name in the backups folder.
  const file = fs.existsSync(path.resolve(arg)) ? path.resolve(arg) : arg;
  try {
    const staged = stageRestore(paths, file, createStderrLogger('error'));
    const db = openDatabase(paths.dbFile, {
      migrationsDir: paths.migrationsDir,
      backupsDir: paths.backupsDir,
      ...(paths.vecExtensionPath ? { vecExtensionPath: paths.vecExtensionPath } : {}),
    });
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
    async run({ client }) {
      const r = await client.call('db.backups', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: formatList(r.value) };
    },
  },
  {
    words: ['db', 'restore'],
    synopsis: 'db restore FILE          replaces the database with a backup (the current one is kept in backups/ first)',
    runWithoutCore: restore,
  },
];
