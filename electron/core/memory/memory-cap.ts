/**
 * The cap on active memories (settings activeMemoryCap) bounds only what Mnemo learned on its own. What is the user's
 * is never counted against it and never trashed for it, however many there are.
 *
 * A memory is the user's when, read from its versions (memory_versions.origin):
 * - any version has origin 'user': written by hand, edited, pinned or unpinned, recategorized, approved (or edited)
 *   from the review inbox, archived or unarchived, restored from the trash, reverted; or origin 'import': imported.
 *   So restoring a memory the cap trashed is the user's consent to keep it, and the cap never takes it again.
 * - or it took the place of a memory that is the user's: the maintenance merged one into it (archived, superseded_by
 *   pointing at it) or it superseded one (a newer statement of the same fact), followed through any chain.
 *   Otherwise a merge or a correction would hand the user's fact to a memory the cap may trash.
 * Every other active memory is learned: extraction made it from a chat, and since then only extraction (confirmed)
 * and maintenance (merged, decayed) changed it. Those are what the cap counts and, least valuable first, trashes.
 * The rule in SQL (a recursive `users` CTE) is memory-upkeep.store.ts's, which runs it.
 */
import type { MemoryCapStanding, Settings } from '../../../shared/contract';
import type { MemoryUpkeepStore } from './memory-upkeep.store';

export interface MemoryCap {
  /**
   * Active and learned memories now, against the cap. `addedByUser`: active memories about to be added that are the
   * user's (an import's dry run), counted as if written.
   */
  standing(addedByUser?: number): MemoryCapStanding;
  /** The `n` learned, unpinned active memories worth least: least important, then least used, then longest unused. */
  leastValuableLearned(n: number): number[];
  /** Which of these memories are the user's (consolidation sends a cluster holding one to review). */
  usersAmong(ids: readonly number[]): Set<number>;
}

export function createMemoryCap(deps: { upkeep: Pick<MemoryUpkeepStore, 'capCounts' | 'leastValuableLearned' | 'usersAmong'>; settings: () => Settings }): MemoryCap {
  const { upkeep } = deps;
  return {
    standing(addedByUser = 0) {
      const { activeMemoryCap: cap, trashRetentionDays } = deps.settings();
      const { active, learned } = upkeep.capCounts();
      return { cap, active: active + addedByUser, learned, overCap: Math.max(0, learned - cap), restorableDays: trashRetentionDays };
    },
    leastValuableLearned(n) {
      if (n <= 0) return [];
      return upkeep.leastValuableLearned(n);
    },
    usersAmong(ids) {
      if (ids.length === 0) return new Set();
      return new Set(upkeep.usersAmong(ids));
    },
  };
}
