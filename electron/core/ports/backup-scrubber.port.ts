/**
 * What a purge ("delete forever") asks of the backups: erase these memories or episodes from every copy, and say
 * where they remain. A port, so memory/ and episodes/ (below backup/ in the core's folder ranking) depend on the
 * promise, not on backup/; backup/backup-scrub.ts implements it (the rules and why are in its header), create-core.ts
 * hands it over.
 */
import type { BackupErasure } from '../../../shared/contract';

/** A purged memory as the backups know it (backup/backup-scrub.ts says why the creation time). */
export interface PurgedMemory {
  id: number;
  createdAt: number;
}

/** A purged episode as the backups know it: by id and creation time, as a memory (a restore rewinds ids too). */
export interface PurgedEpisode {
  id: number;
  createdAt: number;
}

export interface BackupScrubber {
  /**
   * Erases these memories from every backup; never rejects (backup/backup-scrub.ts). One scrub at a time; backups
   * holding 2 MB or more in all are rewritten in a worker thread (backup/backup-scrub.worker.ts).
   */
  eraseMemories(memories: readonly PurgedMemory[], returned?: readonly PurgedMemory[]): Promise<BackupErasure>;
  /** Erases these episodes (rows, versions, search entries) from every backup, as eraseMemories does memories. */
  eraseEpisodes(episodes: readonly PurgedEpisode[]): Promise<BackupErasure>;
}

export const NOTHING_ERASED: BackupErasure = { clean: 0, erased: 0, remaining: [] };
