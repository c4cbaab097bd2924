/**
 * Memory vectors and the embedding model: making vectors (outside any transaction), which model they belong to, and
 * keeping the stored ones in step with it. The writes themselves are memory-writer.ts's.
 *
 * Invariants:
 * - The embedder is never called inside a transaction: vectors are made first, then written. When there is none
 *   (semantic search off) memories are saved without a vector (embedding_model NULL); `fillMissingVectors` makes them
 *   later. Vectors of another model than the current one are ignored by search and replaced by `fillMissingVectors`.
 * - A failed embedding never loses a write: the memory is saved without a vector, a search runs on keywords alone.
 */
import { MnemoError } from '../../../shared/errors';
import type { MemoryStore } from './memory.store';
import type { EmbeddingService, EmbeddingStatus } from '../embedding/embedding.service';
import type { Logger } from '../ports/logger.port';
import type { MemoryWriter, PreparedEmbedding, ReadyModel } from './memory-writer';
import type { VectorIndex } from '../search/vector-index';

export interface MemoryVectors {
  /** The model vectors are made with now, or null while semantic search is off. */
  readyModel(): ReadyModel | null;
  /** Follows the model's dimension: a different one rebuilds the index empty and marks every memory as needing a vector. */
  syncVectorTable(): void;
  /** Passage vectors for texts, made outside any transaction; null when semantic search is off or embedding failed. */
  prepareEmbeddings(texts: string[], signal?: AbortSignal): Promise<PreparedEmbedding[] | null>;
  /** The query's vector; null when semantic search is off or embedding failed (the search then uses keywords only). */
  queryVector(text: string): Promise<Float32Array | null>;
  /** Vectors for memories that have none of the current model, `limit` at a time. */
  fillMissingVectors(limit?: number, signal?: AbortSignal): Promise<{ embedded: number; remaining: number }>;
  missingVectorCount(): number;
  /** For memory.stats: memories with a vector of this model (of any model when null), without one, and the index's dimension. */
  counts(modelId: string | null): { present: number; missing: number; dimensions: number };
}

/** The model of a ready embedding service; null while semantic search is off. */
export function readyModelOf(status: EmbeddingStatus): ReadyModel | null {
  return status.state === 'ready' && status.modelId && status.dimensions ? { modelId: status.modelId, dimensions: status.dimensions } : null;
}

export function createMemoryVectors(deps: { store: MemoryStore; embedding: EmbeddingService; logger: Logger; index: VectorIndex; writer: MemoryWriter }): MemoryVectors {
  const { store, embedding, logger, index, writer } = deps;
  const readyModel = () => readyModelOf(embedding.status());

  function syncVectorTable(): void {
    const model = readyModel();
    if (model) writer.followModel(model);
  }

  function missingVectorCount(): number {
    const model = readyModel();
    return model ? store.missingVectorCount(model.modelId) : store.vectorEligibleCount();
  }

  return {
    readyModel,
    syncVectorTable,
    missingVectorCount,

    async prepareEmbeddings(texts, signal) {
      if (texts.length === 0) return [];
      try {
        const made = await embedding.embedPassages(texts, signal);
        const model = readyModel();
        if (!made || !model || made.length !== texts.length) return null;
        return made.map((vector) => ({ modelId: model.modelId, vector }));
      } catch (e) {
        if (signal?.aborted) throw e;
        logger.warn('embedding failed; the memory is saved without a vector for now', { code: e instanceof MnemoError ? e.code : 'error' });
        return null;
      }
    },

    async queryVector(text) {
      try {
        return await embedding.embedQuery(text);
      } catch (e) {
        logger.warn('query embedding failed; searching by keyword only', { code: e instanceof MnemoError ? e.code : 'error' });
        return null;
      }
    },

    async fillMissingVectors(limit = 64, signal) {
      if (!(await embedding.ensureReady())) return { embedded: 0, remaining: missingVectorCount() };
      syncVectorTable();
      const model = readyModel();
      if (!model) return { embedded: 0, remaining: missingVectorCount() };
      const rows = store.missingVectors(model.modelId, Math.max(1, limit));
      if (rows.length === 0) return { embedded: 0, remaining: 0 };
      const made = await embedding.embedPassages(
        rows.map((r) => r.content),
        signal,
      );
      if (!made) return { embedded: 0, remaining: missingVectorCount() };
      const items = rows.flatMap((r, i) => (made[i] ? [{ ...r, vector: made[i] }] : []));
      const embedded = writer.attachVectors(model, items);
      return { embedded, remaining: missingVectorCount() };
    },

    counts(modelId) {
      const all = store.vectorEligibleCount();
      const present = modelId === null ? store.withAnyVectorCount() : all - store.missingVectorCount(modelId);
      return { present, missing: all - present, dimensions: index.dimensions() };
    },
  };
}
