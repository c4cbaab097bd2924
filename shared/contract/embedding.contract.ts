import { z } from 'zod';
import { Empty, operation } from './define';

/**
 * Why semantic search is off, for code: the renderer says it in the UI's language from this code and its params, the
 * CLI prints the core's English message. A reason the core does not know itself becomes load_failed.
 */
export const EMBEDDING_OFF_REASONS = [
  'no_embedder',
  'model_missing',
  'download_failed',
  'load_failed',
  'not_loaded',
  'runtime_unavailable',
  'worker_failed',
  'not_embedding_model',
  'ollama_unreachable',
  'server_unreachable',
  'invalid_model',
  'invalid_hub',
  /** The model server is on another machine and the user has not confirmed it: nothing was sent. */
  'remote_unconfirmed',
] as const;
export const EmbeddingOffReason = z.enum(EMBEDDING_OFF_REASONS);
export type EmbeddingOffReason = z.output<typeof EmbeddingOffReason>;

/** What a reason is about, when the core knows: the model's name, the server, the model's folder and its missing files. */
export const EmbeddingReasonParams = z.object({
  model: z.string().optional(),
  host: z.string().optional(),
  folder: z.string().optional(),
  missing: z.array(z.string()).optional(),
});
export type EmbeddingReasonParams = z.output<typeof EmbeddingReasonParams>;

/** Whether semantic search is on. When it is off, memories are still saved and found by keyword. */
export const EmbeddingStatus = z.object({
  state: z.enum(['ready', 'loading', 'downloading', 'unavailable']),
  provider: z.enum(['onnx', 'ollama']).nullable(),
  /** Recorded with every vector, e.g. "onnx:Xenova/multilingual-e5-small" or "ollama:nomic-embed-text:latest". */
  modelId: z.string().nullable(),
  /** Vector length, once the model has loaded. */
  dimensions: z.number().int().positive().nullable(),
  /** Why it is off, for code (null while it is on, loading or downloading). */
  reason: EmbeddingOffReason.nullable(),
  /** The reason's parameters, for a sentence in the UI's language and the technical details under it. */
  reasonParams: EmbeddingReasonParams.default({}),
  /** What happened and what to do, in English, for the CLI and the logs (names the models folder or the `ollama pull` command). */
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
