/** `queue.*`: the background queue as the user sees it (status, jobs, retry, cancel). */
import type { HandlersFor } from '../rpc/dispatcher';
import type { BackgroundModel } from '../llm/background-model';
import type { JobQueue } from './job-queue';

export function queueHandlers(queue: JobQueue, model: Pick<BackgroundModel, 'usage'>): HandlersFor<'queue'> {
  return {
    'queue.usage': () => model.usage(),
    'queue.status': () => queue.status(),
    'queue.list': ({ status, limit }) => ({ jobs: queue.list({ limit, ...(status ? { status } : {}) }) }),
    'queue.retry': ({ jobId }) => queue.retry(jobId),
    'queue.cancel': ({ jobId }) => queue.cancel(jobId),
  };
}
