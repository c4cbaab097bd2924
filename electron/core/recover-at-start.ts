/**
 * What a start repairs before any work begins (before the queue starts and the first operation runs):
 * - what opening the database did on its own is logged: migrations applied (with the backup taken before them), a
 *   staged restore applied or refused (a refused one is a warning: db/open-database.ts, db/staged-restore.ts);
 * - replies left streaming by a process that is gone keep their text and are marked stopped (chat/reply-writer.ts);
 * - the hidden rows of imports whose process is gone are removed (memory/memory-import.ts).
 * A database missing beside a good backup is handled earlier, before it is opened (backup/missing-database.ts).
 */
import type { OpenedDatabase } from './db/open-database';
import type { Logger } from './ports/logger.port';

export function recoverAtStart(deps: {
  db: Pick<OpenedDatabase, 'appliedMigrations' | 'preMigrationBackup' | 'restore'>;
  logger: Logger;
  chat: { recoverInterrupted(): unknown };
  memoryImporter: { recoverAbandoned(): unknown };
}): void {
  const { db, logger } = deps;
  if (db.appliedMigrations.length > 0) logger.info('database migrated', { applied: db.appliedMigrations, backup: db.preMigrationBackup });
  if (db.restore) logger[db.restore.status === 'restored' ? 'info' : 'warn']('staged restore', { ...db.restore });
  deps.chat.recoverInterrupted();
  deps.memoryImporter.recoverAbandoned();
}
