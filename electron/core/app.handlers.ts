/** `app.*` and `db.check`: what the running core is, and the state of its database file. */
import fs from 'node:fs';
import type { AppInfo, DbCheck } from '../../shared/contract';
import type { OpenedDatabase } from './db/open-database';
import type { Paths } from './ports/paths.port';
import type { HandlersFor } from './rpc/dispatcher';

export function appHandlers(deps: { db: OpenedDatabase; paths: Paths; host: AppInfo['host']; version: string }): HandlersFor<'app'> & Pick<HandlersFor<'db'>, 'db.check'> {
  return {
    'app.info': () => ({ name: 'Mnemo', version: deps.version, dataDir: deps.paths.dataDir, schemaVersion: deps.db.schemaVersion, host: deps.host }),
    'db.check': () => checkDatabase(deps.db),
  };
}

const SYNCHRONOUS = ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const;

function checkDatabase(db: OpenedDatabase): DbCheck {
  const s = db.sqlite;
  const integrity = (s.pragma('integrity_check') as Array<{ integrity_check: string }>).map((r) => r.integrity_check).join('; ');
  return {
    path: db.path,
    integrity,
    journalMode: String(s.pragma('journal_mode', { simple: true })),
    synchronous: SYNCHRONOUS[Number(s.pragma('synchronous', { simple: true }))] ?? 'OFF',
    foreignKeys: Number(s.pragma('foreign_keys', { simple: true })) === 1,
    secureDelete: Number(s.pragma('secure_delete', { simple: true })) === 1,
    schemaVersion: db.schemaVersion,
    sizeBytes: fs.statSync(db.path).size,
  };
}
