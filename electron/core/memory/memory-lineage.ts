/**
 * A supersede told both ways: a newer statement of a fact took the place of an older memory (extraction's
 * contradiction, a review approval, a consolidation summary), and memory.get says so on each side: the memories a
 * memory replaces, and for each version of it that retired it, the memory that replaced it then.
 *
 * Read from what the memory writer stored, nothing new is written: memories.superseded_by (indexed) for what a memory
 * replaces now (only those still retired by it: one restored since is no longer replaced), and the 'superseded'
 * timeline events of the memory (events.memory_id is indexed; data.version and data.by are ids, never text) for its
 * history, which stays true after a restore. A memory stored superseded without such an event (an older import) is
 * named by its superseded_by. A successor purged since is a null link: "replaced by a memory deleted since".
 */
import type { MemoryLink } from '../../../shared/contract';
import type { LinkRow, MemoryUpkeepStore } from './memory-upkeep.store';

export interface MemoryLineage {
  /** Memories this one replaces now, oldest first. */
  replaces: MemoryLink[];
  /** Each version of this memory that retired it, with the memory that replaced it then (null: purged since). */
  replacedBy: Array<{ version: number; memory: MemoryLink | null }>;
}

export function createMemoryLineage(upkeep: Pick<MemoryUpkeepStore, 'replaced' | 'retirements' | 'link' | 'state'>) {
  const toLink = (r: LinkRow | undefined): MemoryLink | null => (r && r.status !== 'importing' ? { id: r.id, content: r.content, status: r.status } : null);

  return {
    of(memoryId: number): MemoryLineage {
      const replaces = upkeep.replaced(memoryId).map((r) => toLink(r)!);
      const replacedBy = upkeep
        .retirements(memoryId)
        .filter((e): e is { version: number; by: number } => Number.isInteger(e.version) && Number.isInteger(e.by))
        .map((e) => ({ version: e.version, memory: toLink(upkeep.link(e.by)) }));
      const now = upkeep.state(memoryId);
      if (now?.status === 'superseded' && now.superseded_by !== null && now.version !== null && !replacedBy.some((r) => r.memory?.id === now.superseded_by)) {
        replacedBy.push({ version: now.version, memory: toLink(upkeep.link(now.superseded_by)) });
      }
      return { replaces, replacedBy };
    },
  };
}
