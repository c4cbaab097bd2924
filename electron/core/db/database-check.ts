/** `db.check`'s answer: the state of the open database file (integrity, the pragmas Mnemo sets, schema, size). */
import fs from 'node:fs';
import type { DbCheck } from '../../../shared/contract';
import type { OpenedDatabase } from './open-database';

const SYNCHRONOUS = ['OFF', 'NORMAL', 'FULL', 'EXTRA'] as const;

export function checkDatabase(db: OpenedDatabase): DbCheck {
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
