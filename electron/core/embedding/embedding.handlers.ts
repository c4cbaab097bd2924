/** `embedding.*`: whether semantic search is on, and the local model's download. */
import type { HandlersFor } from '../rpc/dispatcher';
import type { EmbeddingService } from './embedding.service';

export function embeddingHandlers(embedding: EmbeddingService): HandlersFor<'embedding'> {
  return {
    // The service first tries to load the model it is set to, so the answer is current (not the state at start).
    'embedding.status': async () => {
      await embedding.ensureReady();
      return embedding.status();
    },
    'embedding.download': () => embedding.startDownload(),
    'embedding.cancelDownload': () => embedding.cancelDownload(),
  };
}
