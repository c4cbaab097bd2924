/**
 * Undoing a summary maintenance wrote (consolidate.job.ts): the memories it superseded are active again and the summary
 * goes to the trash (restorable, as anything trashed), in one transaction, each change a version with origin 'user'
 * and reason 'unconsolidated'. Restoring is the user's say, so memory-cap.ts counts the restored memories as theirs
 * and the next maintenance leaves them out of clusters' direct application (a new summary of them goes to review).
 *
 * A summary is a memory whose first version has reason 'consolidated'. Only the originals still superseded by it come
 * back: one the user deleted or changed since stays as it is.
 */
import type { Memory } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { MemoryUpkeepStore } from './memory-upkeep.store';
import type { EventBus } from '../runtime/event-bus';
import type { MemoryService } from './memory.service';

export function createUnconsolidate(deps: { upkeep: Pick<MemoryUpkeepStore, 'firstReason' | 'supersededBy'>; events: EventBus; memories: Pick<MemoryService, 'transaction' | 'getMemory' | 'updateMemory'> }) {
  const { upkeep, events, memories } = deps;

  return function unconsolidate(summaryId: number): { summary: Memory; restored: Memory[] } {
    const result = memories.transaction(() => {
      const summary = memories.getMemory(summaryId);
      if (!summary) throw new MnemoError('NOT_FOUND', `Memory ${summaryId} does not exist.`);
      if (upkeep.firstReason(summaryId) !== 'consolidated') {
        throw new MnemoError('CONFLICT', `Memory ${summaryId} is not a summary of other memories. Use revert or restore to undo a change to it.`);
      }
      const ids = upkeep.supersededBy(summaryId);
      if (ids.length === 0) {
        throw new MnemoError('CONFLICT', `Nothing to restore: the memories summary ${summaryId} replaced were restored, changed or deleted since.`);
      }
      const restored = ids.map((id) =>
        memories.updateMemory(id, { status: 'active', supersededBy: null }, { origin: 'user', reason: 'unconsolidated', eventKind: 'restored', eventData: { from: summaryId } }),
      );
      const trashed =
        summary.status === 'trashed'
          ? summary
          : memories.updateMemory(summaryId, { status: 'trashed' }, { origin: 'user', reason: 'unconsolidated', eventKind: 'deleted', eventData: { restored: ids } });
      return { summary: trashed, restored };
    });
    events.emit('memory.deleted', { memory: result.summary });
    for (const memory of result.restored) events.emit('memory.restored', { memory });
    return result;
  };
}
