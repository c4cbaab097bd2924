/**
 * When re-embedding is scheduled (reembed.job.ts fills the vectors): memories may lack a vector of the current model
 * after a model switch, or when they were saved while no embedder was available. The vectors are filled in the
 * background as soon as an embedder is ready; keyword search works meanwhile. Three moments:
 * - the embedding model changed (always: every memory's vector is of the old model);
 * - the embedder became ready, and some memories lack a vector;
 * - at start, once the embedder is ready, if some memories lack a vector.
 * Only where the background queue runs: a host that drives the queue itself schedules nothing on its own.
 */
import type { EmbeddingService } from '../embedding/embedding.service';
import type { JobQueue } from '../jobs/job-queue';
import type { MemoryService } from './memory.service';
import type { Clock } from '../ports/clock.port';
import { scheduleReembed } from './reembed.job';

export function scheduleReembedWhenVectorsMissing(deps: {
  queue: Pick<JobQueue, 'list' | 'enqueue'>;
  clock: Clock;
  embedding: Pick<EmbeddingService, 'onModelChanged' | 'onStatusChange' | 'ensureReady'>;
  memories: Pick<MemoryService, 'missingVectorCount'>;
}): void {
  const { queue, clock, embedding, memories } = deps;
  const missing = () => memories.missingVectorCount() > 0;
  embedding.onModelChanged(() => scheduleReembed(queue, clock, 'model-changed'));
  embedding.onStatusChange((status) => {
    if (status.state === 'ready' && missing()) scheduleReembed(queue, clock, 'embedder-ready');
  });
  void embedding.ensureReady().then((ready) => {
    if (ready && missing()) scheduleReembed(queue, clock, 'startup');
  });
}
