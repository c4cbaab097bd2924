/**
 * After a "delete forever" commits, the WAL (a file in the data folder) may still hold pages written before the delete,
 * with the deleted text. A TRUNCATE checkpoint folds the WAL into the database (where secure_delete zeroes freed
 * bytes) and empties it. One rule for memories (memory-bulk.ts), episodes (episode.service.ts) and threads
 * (thread.service.ts).
 */
import type { Logger } from '../ports/logger.port';
import type { Sqlite } from './open-database';

export function checkpointAfterPurge(sqlite: Sqlite, logger: Logger): void {
  const [result] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number; checkpointed: number }>;
  // Busy means another connection is reading: its pages stay in the WAL until the next checkpoint.
  if (result && result.busy !== 0) logger.warn('WAL checkpoint after purge was partial; it completes at the next checkpoint', {});
}
