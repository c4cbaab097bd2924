import { z } from 'zod';
import { Empty, operation } from './define';

/** Whether semantic search is on. When it is off, memories are still saved and found by keyword. */
export const EmbeddingStatus = z.object({
  state: z.enum(['ready', 'loading', 'downloading', 'unavailable']),
  provider: z.enum(['onnx', 'ollama']).nullable(),
  /** Recorded with every vector, e.g. "onnx:Xenova/multilingual-e5-small" or "ollama:nomic-embed-text:latest". */
  modelId: z.string().nullable(),
  /** Vector length, once the model has loaded. */
  dimensions: z.number().int().positive().nullable(),
  /** Why it is off, for code: model_missing, ollama_unreachable, download_failed, no_embedder, ... */
  reason: z.string().nullable(),
  /** What happened and what to do, for people (names the models folder or the `ollama pull` command). */
  message: z.string().nullable(),
});
export type EmbeddingStatus = z.output<typeof EmbeddingStatus>;

export const EmbeddingDownloadProgress = z.object({
  modelId: z.string(),
  /** The file being fetched, relative to the model folder. */
  file: z.string(),
  /** Over all of the model's files. */
  loadedBytes: z.number().int().nonnegative(),
  totalBytes: z.number().int().nonnegative(),
  percent: z.number().int().min(0).max(100),
});
export type EmbeddingDownloadProgress = z.output<typeof EmbeddingDownloadProgress>;

export const embeddingOperations = {
  'embedding.status': operation(
    'Whether semantic search is on, with which model; if not, why and what to do. Tries to load the model first.',
    Empty,
    EmbeddingStatus,
  ),
  'embedding.download': operation(
    'Starts downloading the local embedding model (only ever on request); progress arrives as ' +
      'embedding.downloadProgressed events and the outcome as embedding.statusChanged. started is false when the ' +
      'model is already there or a download is running.',
    Empty,
    z.object({ started: z.boolean(), status: EmbeddingStatus }),
  ),
  'embedding.cancelDownload': operation(
    'Stops a running download of the local embedding model; files already complete are kept for the next try.',
    Empty,
    z.object({ cancelled: z.boolean() }),
  ),
};

export const embeddingEvents = {
  'embedding.statusChanged': z.object({ status: EmbeddingStatus }),
  'embedding.downloadProgressed': EmbeddingDownloadProgress,
};
