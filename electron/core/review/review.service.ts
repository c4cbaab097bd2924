/**
 * The review inbox: approve (optionally edited) or reject what the extractor proposed. Rejected candidates keep their
 * row with status 'rejected' so the extractor recognizes the same fact (by content hash) and never proposes it again.
 * A candidate proposed as replacing an older memory (a contradiction: its 'proposed' timeline event says which)
 * supersedes that memory when approved, in the same transaction, as it would have without review. The same event
 * says why a candidate waits whatever the memory mode (its flag: an instruction, another language), for the inbox.
 */
import { ReviewFlag, type Memory, type MemoryCategory, type ReviewItem } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { EventBus } from '../runtime/event-bus';
import type { MemoryService } from '../memory/memory.service';
import type { MemoryUpkeepStore } from '../memory/memory-upkeep.store';

export function createReviewService(deps: { upkeep: Pick<MemoryUpkeepStore, 'proposal' | 'writtenBy'>; memories: MemoryService; events: EventBus }) {
  const { memories, events } = deps;
  const proposal = deps.upkeep.proposal;

  function pending(memoryId: number): Memory {
    const memory = memories.getMemory(memoryId);
    if (!memory) throw new MnemoError('NOT_FOUND', `Memory ${memoryId} does not exist.`);
    if (memory.status !== 'review') throw new MnemoError('CONFLICT', `Memory ${memoryId} is not waiting for review (it is ${memory.status}).`);
    return memory;
  }

  /**
   * The active memories a candidate would replace (from its 'proposed' event: `replaces`, the one the inbox shows,
   * then `alsoReplaces`, other values of the same fact that were active together: extraction.job.ts).
   */
  function replacedBy(candidateId: number): Memory[] {
    const p = proposal(candidateId);
    const ids = [p?.replaces ?? null, ...(p?.alsoReplaces ? (JSON.parse(p.alsoReplaces) as unknown[]) : [])].filter((id): id is number => Number.isInteger(id));
    // Only those still what the user believes: an old memory deleted or replaced meanwhile is left alone.
    return ids.map((id) => memories.getMemory(id)).filter((old): old is Memory => old !== null && old.status === 'active');
  }

  /** Why a candidate waits whatever the memory mode, from its 'proposed' event; null for "ask first" alone. */
  function flagOf(candidateId: number): ReviewFlag | null {
    const parsed = ReviewFlag.safeParse(proposal(candidateId)?.flag);
    return parsed.success ? parsed.data : null;
  }

  return {
    list(limit: number): { items: ReviewItem[]; total: number } {
      const { items, total } = memories.list({ statuses: ['review'], limit, offset: 0, sort: 'created' });
      return { items: items.map((m) => ({ ...m, replaces: replacedBy(m.id)[0] ?? null, flag: flagOf(m.id), ...deps.upkeep.writtenBy(m.id) })), total };
    },
    async approve(input: {
      memoryId: number;
      content?: string | undefined;
      category?: MemoryCategory | undefined;
      importance?: number | undefined;
      pinned?: boolean | undefined;
      expiresAt?: number | null | undefined;
    }): Promise<Memory> {
      const before = pending(input.memoryId);
      const edited = input.content !== undefined && input.content !== before.content;
      // Embed an edited wording before the write; without an embedder the vector is filled in later.
      const [embedding] = edited ? ((await memories.prepareEmbeddings([input.content!])) ?? [null]) : [null];
      const { memory, superseded } = memories.transaction(() => {
        pending(input.memoryId); // still waiting after the await
        const approved = memories.updateMemory(
          input.memoryId,
          {
            status: 'active',
            ...(edited ? { content: input.content } : {}),
            ...(input.category ? { category: input.category } : {}),
            ...(input.importance !== undefined ? { importance: input.importance } : {}),
            ...(input.pinned !== undefined ? { pinned: input.pinned } : {}),
            ...(input.expiresAt !== undefined ? { expiresAt: input.expiresAt } : {}),
          },
          { origin: 'user', reason: edited ? 'approved-edited' : 'approved', eventKind: 'approved', ...(embedding ? { embedding } : {}) },
        );
        const superseded = replacedBy(input.memoryId).map((old) =>
          memories.updateMemory(old.id, { status: 'superseded', supersededBy: approved.id }, { origin: 'user', reason: 'superseded', eventKind: 'superseded', eventData: { by: approved.id } }),
        );
        return { memory: approved, superseded };
      });
      events.emit('memory.updated', { memory });
      for (const old of superseded) events.emit('memory.updated', { memory: old });
      return memory;
    },
    reject(memoryId: number): Memory {
      pending(memoryId);
      const memory = memories.updateMemory(memoryId, { status: 'rejected' }, { origin: 'user', reason: 'rejected', eventKind: 'rejected' });
      events.emit('memory.updated', { memory });
      return memory;
    },
  };
}
export type ReviewService = ReturnType<typeof createReviewService>;
