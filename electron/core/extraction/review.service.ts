/**
 * The review inbox: approve (optionally edited) or reject what the extractor proposed. Rejected candidates keep their
 * row with status 'rejected' so the extractor recognizes the same fact (by content hash) and never proposes it again.
 */
import type { Memory, MemoryCategory } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { EventBus } from '../event-bus';
import type { MemoryService } from '../memory/memory.service';

export function createReviewService(deps: { memories: MemoryService; events: EventBus }) {
  const { memories, events } = deps;

  function pending(memoryId: number): Memory {
    const memory = memories.getMemory(memoryId);
    if (!memory) throw new MnemoError('NOT_FOUND', `Memory ${memoryId} does not exist.`);
    if (memory.status !== 'review') throw new MnemoError('CONFLICT', `Memory ${memoryId} is not waiting for review (it is ${memory.status}).`);
    return memory;
  }

  return {
    async approve(input: { memoryId: number; content?: string | undefined; category?: MemoryCategory | undefined; importance?: number | undefined }): Promise<Memory> {
      const before = pending(input.memoryId);
      const edited = input.content !== undefined && input.content !== before.content;
      // Embed an edited wording before the write; without an embedder the vector is filled in later.
      const [embedding] = edited ? ((await memories.prepareEmbeddings([input.content!])) ?? [null]) : [null];
      pending(input.memoryId); // still waiting after the await
      const memory = memories.updateMemory(
        input.memoryId,
        {
          status: 'active',
          ...(edited ? { content: input.content } : {}),
          ...(input.category ? { category: input.category } : {}),
          ...(input.importance !== undefined ? { importance: input.importance } : {}),
        },
        { origin: 'user', reason: edited ? 'approved-edited' : 'approved', eventKind: 'approved', ...(embedding ? { embedding } : {}) },
      );
      events.emit('memory.updated', { memory });
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
