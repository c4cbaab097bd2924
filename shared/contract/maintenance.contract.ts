/**
 * Upkeep: memory maintenance (merge near-duplicates, decay, cap, old trash, expiry marks). It also runs daily on its
 * own in the app; this operation runs it on demand. Backups and restore: db.contract.ts.
 */
import { z } from 'zod';
import { Empty, operation } from './define';
import { RemainingCopy } from './memory.contract';

/**
 * The active memories against the cap (settings activeMemoryCap). The cap counts only what Mnemo learned on its own
 * (electron/core/memory/memory-cap.ts says exactly what that is): what the user wrote, edited, pinned, approved,
 * restored or imported never counts and is never trashed for it.
 */
export const MemoryCapStanding = z.object({
  cap: z.number().int().nonnegative(),
  /** Active memories, the user's and learned ones. Above the cap is fine when the user's make the difference. */
  active: z.number().int().nonnegative(),
  /** Of those, the ones Mnemo learned on its own: the only ones the cap counts. */
  learned: z.number().int().nonnegative(),
  /** Learned memories beyond the cap: the next maintenance moves this many, least valuable first, to the trash. */
  overCap: z.number().int().nonnegative(),
  /** How long a memory stays in the trash, restorable, before it is deleted for good (trashRetentionDays). */
  restorableDays: z.number().int().positive(),
});
export type MemoryCapStanding = z.output<typeof MemoryCapStanding>;

export const MaintenanceReport = z.object({
  /** Near-duplicates archived into the memory that kept its wording. */
  merged: z.number().int().nonnegative(),
  /** Low-importance memories untouched for 90 days whose importance was lowered. */
  decayed: z.number().int().nonnegative(),
  /** Learned memories moved to the trash (restorable) because there were more of them than the cap. */
  trashedForCap: z.number().int().nonnegative(),
  /** Deleted for good after the trash retention period (from the database and the backups). */
  purged: z.number().int().nonnegative(),
  /** Only when some: backups that may still hold those purged memories, because they could not be changed. */
  purgedCopiesRemain: z.array(RemainingCopy).optional(),
  /** Memories that expired since the last run (marked on the timeline once). */
  expired: z.number().int().nonnegative(),
  /** Memories still waiting to be checked for near-duplicates (checked over the next runs). */
  mergePending: z.number().int().nonnegative(),
  /** Whether near-duplicates were looked for at all (needs semantic search). */
  mergeChecked: z.boolean(),
  /** Where the active memories stand against the cap after the run. */
  cap: MemoryCapStanding,
});
export type MaintenanceReport = z.output<typeof MaintenanceReport>;


export const maintenanceOperations = {
  'memory.maintain': operation(
    'Runs memory maintenance now: marks newly expired memories, merges near-duplicates, lowers the importance of ' +
      'low-importance memories unused for 90 days, trashes the least valuable memories Mnemo learned on its own beyond ' +
      'the cap (never what the user wrote, edited, pinned, approved, restored or imported), and ' +
      'purges trash older than the retention. Every change is a version (origin maintenance) that revert or restore undoes.',
    Empty,
    MaintenanceReport,
  ),
};

export const maintenanceEvents = {
  'memory.maintained': z.object({ report: MaintenanceReport }),
};
