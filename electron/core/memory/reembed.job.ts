/**
 * Re-embedding in the background: fills the vectors of memories that have none of the current model (after a model
 * switch, after memories were saved while no embedder was available, after an import). Keyword search keeps working
 * meanwhile. Idempotent by construction: each batch only picks memories still missing a vector.
 */
import type { EventBus } from '../runtime/event-bus';
import type { JobHandler, JobQueue } from '../jobs/job-queue';
import type { MemoryService } from './memory.service';
import type { Clock } from '../ports/clock.port';

export function createReembedJob(deps: { memories: MemoryService; events: EventBus }): JobHandler {
  return {
    kind: 'reembed',
    async run({ signal }) {
      let total = deps.memories.missingVectorCount();
      let done = 0;
      for (;;) {
        if (signal.aborted) break;
        const { embedded, remaining } = await deps.memories.fillMissingVectors(64, signal);
        done += embedded;
        total = Math.max(total, done + remaining);
        deps.events.emit('embedding.reindexProgressed', { done, total });
        // No progress means no embedder right now (semantic search off): stop; a later trigger resumes.
        if (remaining === 0 || embedded === 0) break;
      }
      return null;
    },
  };
}

/** Enqueues a re-embed unless one is already waiting or running. */
export function scheduleReembed(queue: Pick<JobQueue, 'list' | 'enqueue'>, clock: Clock, reason: string): void {
  const pending = queue.list({ status: ['queued', 'running'], limit: 500 }).some((j) => j.kind === 'reembed');
  if (!pending) queue.enqueue({ kind: 'reembed', idempotencyKey: `reembed:${reason}:${clock.now()}`, payload: { reason } });
}
