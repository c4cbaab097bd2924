/**
 * Whether Mnemo can write where its database lives, asked before anything is opened: SQLite cannot create its WAL in
 * a read-only folder and reports that as SQLITE_CANTOPEN, which would read as a damaged file and send the user to
 * restore a healthy one. access(W_OK) also reports a read-only mount (EROFS), the only answer that holds for root,
 * whom permission bits do not stop.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MnemoError } from '../../../shared/errors';
import { sqliteFailure } from './sqlite-errors';

/**
 * DB_READ_ONLY, naming what cannot be written: the folder (SQLite creates the WAL and shared-memory files there), or
 * the database, its WAL or its shared-memory file. `cause`, when given, is the failure being explained (a
 * SQLITE_READONLY is read-only even where access() says otherwise). Null: nothing is read-only.
 */
export function readOnlyProblem(file: string, cause?: unknown): MnemoError | null {
  const dir = path.dirname(file);
  // A folder still to be created is written into its parent.
  const targets = [fs.existsSync(dir) ? dir : path.dirname(dir), ...[file, `${file}-wal`, `${file}-shm`].filter((p) => fs.existsSync(p))];
  for (const target of targets) {
    try {
      fs.accessSync(target, fs.constants.W_OK);
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      if (code !== 'EROFS' && code !== 'EACCES' && code !== 'EPERM') continue;
      const what = target.startsWith(file) ? `the file ${target}` : `the folder ${target}`;
      const why = code === 'EROFS' ? 'the disk holding it is mounted read-only' : 'this user may not write to it';
      return new MnemoError(
        'DB_READ_ONLY',
        `Mnemo cannot write its database at ${file}: ${what} is read-only (${why}). Mnemo has not changed anything there. ` +
          `Make it writable (check its permissions and owner, or remount the disk read-write), or start Mnemo on another data folder (--data-dir).`,
        { cause: cause ?? e, details: { file, readOnly: target, reason: code } },
      );
    }
  }
  const known = sqliteFailure(cause);
  return known?.code === 'DB_READ_ONLY' ? known : null;
}
