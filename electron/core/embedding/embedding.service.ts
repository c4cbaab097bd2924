/**
 * The embedding service: the one place the core asks for vectors. It wraps whichever Embedder the composition root
 * chose (or none), keeps an LRU cache of query embeddings, and reports whether semantic search is available and why
 * not. Invariant: when no embedder is available every method still answers (null), so memories are still saved and
 * found by keyword, and vectors are filled in later.
 */
import { MnemoError } from '../../../shared/errors';
import type { Embedder } from './embedder.port';
import type { Logger } from '../ports/logger.port';

export type EmbeddingState = 'ready' | 'loading' | 'unavailable';

export interface EmbeddingStatus {
  state: EmbeddingState;
  modelId: string | null;
  dimensions: number | null;
  /** Why semantic search is off, for the UI and CLI (e.g. "model_missing"), and a sentence saying what to do. */
  reason: string | null;
  message: string | null;
}

export interface EmbeddingService {
  status(): EmbeddingStatus;
  /** Loads the embedder if there is one; resolves true when vectors can be made. Never throws. */
  ensureReady(): Promise<boolean>;
  /** A query vector (cached), or null when semantic search is off. */
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array | null>;
  /** Passage vectors in input order, or null when semantic search is off. */
  embedPassages(texts: string[], signal?: AbortSignal): Promise<Float32Array[] | null>;
  onStatusChange(listener: (status: EmbeddingStatus) => void): () => void;
  dispose(): Promise<void>;
}

export function createEmbeddingService(deps: { embedder: Embedder | null; logger: Logger; cacheSize?: number }): EmbeddingService {
  const { embedder, logger } = deps;
  const cacheSize = deps.cacheSize ?? 512;
  const cache = new Map<string, Float32Array>();
  const listeners = new Set<(s: EmbeddingStatus) => void>();
  let current: EmbeddingStatus = embedder
    ? { state: 'loading', modelId: embedder.modelId, dimensions: null, reason: null, message: null }
    : {
        state: 'unavailable',
        modelId: null,
        dimensions: null,
        reason: 'no_embedder',
        message: 'Semantic search is off: no embedding model is configured. Memories are still saved and found by keyword.',
      };
  let loading: Promise<boolean> | null = null;

  function setStatus(next: EmbeddingStatus): void {
    current = next;
    for (const l of [...listeners]) l(next);
  }

  function ensureReady(): Promise<boolean> {
    if (!embedder) return Promise.resolve(false);
    if (current.state === 'ready') return Promise.resolve(true);
    loading ??= embedder.load().then(
      () => {
        setStatus({ state: 'ready', modelId: embedder.modelId, dimensions: embedder.dimensions, reason: null, message: null });
        return true;
      },
      (e: unknown) => {
        loading = null; // a later call may retry (e.g. after the model was downloaded)
        const reason = e instanceof MnemoError ? String(e.details?.reason ?? e.code) : 'load_failed';
        const message = e instanceof MnemoError ? e.message : 'The embedding model failed to load.';
        logger.warn('embedder unavailable', { reason });
        setStatus({ state: 'unavailable', modelId: embedder.modelId, dimensions: null, reason, message: `Semantic search is off: ${message}` });
        return false;
      },
    );
    return loading;
  }

  return {
    status: () => current,
    ensureReady,
    async embedQuery(text, signal) {
      if (!embedder || !(await ensureReady())) return null;
      const hit = cache.get(text);
      if (hit) {
        cache.delete(text); // re-insert: Map order is the LRU order
        cache.set(text, hit);
        return hit;
      }
      const [vector] = await embedder.embed([text], 'query', signal);
      if (!vector) return null;
      cache.set(text, vector);
      if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
      return vector;
    },
    async embedPassages(texts, signal) {
      if (!embedder || !(await ensureReady())) return null;
      if (texts.length === 0) return [];
      return embedder.embed(texts, 'passage', signal);
    },
    onStatusChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {
      cache.clear();
      listeners.clear();
      await embedder?.dispose();
    },
  };
}
