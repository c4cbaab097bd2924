/** `db.backup`, `db.backups`, `db.restore`: the user's copies of the database (backup.service.ts). */
import type { HandlersFor } from '../rpc/dispatcher';
import type { BackupService } from './backup.service';

export function backupHandlers(backups: BackupService): Omit<HandlersFor<'db'>, 'db.check'> {
  return {
    'db.backup': () => backups.backup('manual'),
    'db.backups': () => backups.list(),
    'db.restore': ({ file }) => backups.stageRestore(file),
  };
}
