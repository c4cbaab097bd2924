/**
 * Wiring of the embedding service for the composition root: the embedder the options or the settings choose, the
 * factory that builds the next one, its status and download progress announced as events, the model following the
 * settings (embedding/embedding-follows-settings.ts). Holds no rule of its own.
 */
import type { Settings } from '../../shared/contract';
import type { CoreOptions } from './core-api';
import type { EventBus } from './runtime/event-bus';
import { createDefaultEmbedder, createEmbedderFactory, resolveModelHub } from './embedding/embedder.factory';
import { followEmbeddingSettings } from './embedding/embedding-follows-settings';
import { createEmbeddingService, type EmbeddingService } from './embedding/embedding.service';
import type { LlmProvider } from './llm/llm-provider';
import type { Logger } from './ports/logger.port';
import type { Paths } from './ports/paths.port';

export function wireEmbedding(deps: {
  options: Pick<CoreOptions, 'embedder' | 'modelHub' | 'embeddingThread' | 'env'>;
  paths: Paths;
  llm: LlmProvider;
  settings: () => Settings;
  events: EventBus;
  logger: Logger;
}): EmbeddingService {
  const { options, paths, events, logger } = deps;
  const embedderDeps = {
    paths,
    llm: () => deps.llm.get(),
    modelHub: options.modelHub ?? resolveModelHub(options.env),
    ...(options.embeddingThread ? { localThread: options.embeddingThread } : {}),
  };
  const embedding = createEmbeddingService({
    embedder: options.embedder !== undefined ? options.embedder : createDefaultEmbedder({ ...embedderDeps, settings: deps.settings() }),
    factory: createEmbedderFactory({ ...embedderDeps, modelsDir: paths.modelsDir }),
    logger,
  });
  embedding.onStatusChange((status) => events.emit('embedding.statusChanged', { status }));
  embedding.onDownloadProgress((progress) => events.emit('embedding.downloadProgressed', progress));
  followEmbeddingSettings({ events, settings: deps.settings, embedding, logger });
  return embedding;
}
