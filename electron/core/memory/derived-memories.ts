/**
 * What a purge must take with it: the memories written from the purged ones, and the words to look for elsewhere.
 *
 * A consolidation summary (consolidate.job.ts) says what its originals said, so it holds their words: when one of its
 * originals is purged, the summary is purged too (and a summary written from that summary, and so on), and the
 * originals it still stands for that are not purged come back active: the summary is "returned to its remaining
 * sources", which the next maintenance may summarise again. What a summary was written from is recorded by the event
 * that created it ('consolidated', or 'proposed' for one waiting in review: `data.from`, the originals' ids); the
 * events table keeps no text and is never pruned, so the record outlives a summary that was undone and trashed.
 *
 * A memory's words are those of every version it had, not only the current one: a profile or a summary may have been
 * written from an earlier wording.
 */
import type { MemoryUpkeepStore } from './memory-upkeep.store';

export interface DerivedMemories {
  /** The ids and every summary written from any of them, transitively; the given ids first. */
  closure(ids: readonly number[]): number[];
  /** Originals of these summaries that they still stand for (superseded by one of them), outside `purged`. */
  remainingOriginals(summaryIds: readonly number[], purged: ReadonlySet<number>): number[];
  /** Every wording the memory had (its versions' texts, newest first), in one text; '' when it does not exist. */
  allWording(id: number): string;
}

export function createDerivedMemories(upkeep: Pick<MemoryUpkeepStore, 'summariesOf' | 'supersededBy' | 'wordings'>): DerivedMemories {
  return {
    closure(ids) {
      const seen = new Set(ids);
      const out = [...seen];
      for (let i = 0; i < out.length; i++) {
        for (const summary of upkeep.summariesOf(out[i]!)) {
          if (seen.has(summary)) continue;
          seen.add(summary);
          out.push(summary);
        }
      }
      return out;
    },
    remainingOriginals(summaryIds, purged) {
      return summaryIds.flatMap((s) => upkeep.supersededBy(s).filter((id) => !purged.has(id)));
    },
    allWording: (id) => upkeep.wordings(id).join('\n'),
  };
}
