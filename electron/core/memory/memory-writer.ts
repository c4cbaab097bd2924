/**
 * The one writer of memories: the memories row, its memory_versions, its timeline events, its memories_fts entry,
 * its vector (memory_vectors) and its uses (message_memories, use counts). Nothing else in the core writes those
 * tables; extraction, import, maintenance and review reach it through MemoryWrites, the service and the bulk actions
 * through the rest of MemoryWriter.
 *
 * Invariants:
 * - Every change to a memory writes, in the same transaction, the new row, a memory_versions row (origin and reason)
 *   and a timeline event (timeline-writer.ts: kind, ids, category, small JSON facts, never the text), and keeps
 *   memories_fts and memory_vectors in step (a changed text loses its vector until one is made for the new text).
 * - Every function here is synchronous and emits no bus event: each runs inside the caller's transaction when there
 *   is one (nested, it becomes a savepoint), and the caller emits after its commit. The embedder is never called
 *   here: vectors come prepared (memory-vectors.ts), and one of another model than the current one is not written.
 * - Transactions are db/write-transaction.ts's (IMMEDIATE; why is said there). The SQL is memory.store.ts's, the
 *   vectors' search/vector-index.ts's: this file decides what changes together, they run the statements.
 * - Purge really deletes (row, versions, FTS entry, vector, uses) and merges the FTS index in the same transaction,
 *   so no token of the text stays behind a tombstone (secure_delete zeroes the freed pages). What follows the commit
 *   (WAL checkpoint, backups) is memory-bulk.ts's.
 * - An import's memories are written hidden (status 'importing', no timeline event) and shown all at once by
 *   publishImport, each with its event; discardImport removes them without a trace on the timeline.
 */
import type { Memory, MemoryCategory, MemoryChangedKind, MemoryCreatedKind, MemoryOrigin, MemoryReason, MemoryStatus, MemoryVersion } from '../../../shared/contract';
import type { PurgedMemory } from '../ports/backup-scrubber.port';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import { toFtsDocument } from '../text/fts-text';
import type { TimelineWriter } from '../db/timeline-writer';
import { contentHash } from './content-hash';
import type { KeywordIndex } from '../search/keyword-index';
import { toMemory, type MemoryRow } from './memory.repo';
import type { MemoryStore } from './memory.store';
import type { VectorIndex } from '../search/vector-index';

/** A vector made outside any transaction, to be written with a memory. */
export interface PreparedEmbedding {
  modelId: string;
  vector: Float32Array;
}

/** The embedding model vectors are made with now. */
export interface ReadyModel {
  modelId: string;
  dimensions: number;
}

export interface NewMemory {
  content: string;
  category: MemoryCategory;
  importance?: number;
  confidence?: number;
  pinned?: boolean;
  validFrom?: number | null;
  expiresAt?: number | null;
}

export interface CreateOptions {
  origin: MemoryOrigin;
  /** Default 'active'; 'review' for the inbox, 'rejected' to remember a refused candidate. */
  status?: MemoryStatus;
  sourceThreadId?: number | null;
  sourceMessageId?: number | null;
  evidence?: string | null;
  embedding?: PreparedEmbedding | null;
  /** Version reason, default 'created'. */
  reason?: string;
  /** Timeline kind, default 'learned'. */
  eventKind?: MemoryCreatedKind;
  /** Small facts (ids, never user text) added to the timeline event. */
  eventData?: Record<string, unknown>;
  /**
   * Earlier versions carried over from elsewhere (a Mnemo JSON export), oldest first: written before the memory's own
   * version with their origin, reason and time, so its history and "as of" views go back as far as they did there.
   * The memory counts as created when the first of them was.
   */
  history?: ReadonlyArray<MemoryVersion>;
  /**
   * Written for an import in slices (memory-import.ts): the memory stays hidden (status 'importing', no timeline event)
   * until publishImport(batch) shows every memory of the batch at once, or discardImport(batch) removes them.
   */
  importBatch?: string;
}

export interface MemoryPatch {
  content?: string;
  category?: MemoryCategory;
  importance?: number;
  confidence?: number;
  pinned?: boolean;
  status?: MemoryStatus;
  expiresAt?: number | null;
  validFrom?: number | null;
  evidence?: string | null;
  supersededBy?: number | null;
}

export interface UpdateOptions {
  origin: MemoryOrigin;
  /** Version reason: 'edited', 'merged', 'superseded', 'confirmed', 'decayed', ... */
  reason: string;
  /** Timeline kind, default 'updated' (e.g. 'merged', 'superseded', 'approved', 'rejected'). */
  eventKind?: MemoryChangedKind;
  /** The vector of the new content, when the content changes. Without one the memory waits for fillMissingVectors. */
  embedding?: PreparedEmbedding | null;
  /** Write a version (and bump updatedAt) even when no field changes: a re-mention confirms the memory. */
  touch?: boolean;
  /** Extra timeline facts (ids, numbers; never text). */
  eventData?: Record<string, unknown>;
}

/** What extraction, import, maintenance and review write with: synchronous, inside their transaction, no bus events. */
export interface MemoryWrites {
  /** Runs `fn` in one IMMEDIATE transaction (a savepoint inside another). */
  transaction<T>(fn: () => T): T;
  createMemory(input: NewMemory, options: CreateOptions): Memory;
  updateMemory(memoryId: number, patch: MemoryPatch, options: UpdateOptions): Memory;
  /** Shows every memory written with this importBatch, each with its timeline event; returns how many. */
  publishImport(batch: string, eventKind: MemoryCreatedKind): number;
  /** Removes the memories still hidden under this importBatch (all, or only `ids`): an import that failed or died. */
  discardImport(batch: string, ids?: readonly number[]): number;
  /** The 'expired' timeline event of an active memory whose expiry date passed (the memory itself does not change). */
  noteExpired(memoryId: number): void;
}

export interface MemoryWriter extends MemoryWrites {
  /** Applies a patch to a row read in the caller's transaction; null when nothing changed (and no touch was asked for). */
  applyPatch(before: MemoryRow, patch: MemoryPatch, options: UpdateOptions): MemoryRow | null;
  /** Deletes these memories for good, in one transaction; returns those that existed. */
  purge(ids: readonly number[]): PurgedMemory[];
  /** Records which memories an answer used and bumps their use counts. */
  recordUse(messageId: number, items: ReadonlyArray<{ memoryId: number; score: number; reason: MemoryReason; matched?: readonly string[] }>): void;
  /** Follows the model's dimension: a different one rebuilds the vector index empty and marks every memory as needing a vector. */
  followModel(model: ReadyModel): void;
  /** Stores vectors made for these texts, for those whose text is still the one embedded; returns how many. */
  attachVectors(model: ReadyModel, items: ReadonlyArray<{ id: number; content: string; vector: Float32Array }>): number;
}

export interface MemoryWriterDeps {
  store: MemoryStore;
  clock: Clock;
  logger: Logger;
  timeline: TimelineWriter;
  keywords: KeywordIndex;
  vectors: VectorIndex;
  /** The model vectors are made with now, or null while semantic search is off. */
  readyModel: () => ReadyModel | null;
}

const PATCH_COLUMNS = {
  content: 'content',
  category: 'category',
  importance: 'importance',
  confidence: 'confidence',
  pinned: 'pinned',
  status: 'status',
  expiresAt: 'expires_at',
  validFrom: 'valid_from',
  evidence: 'evidence',
  supersededBy: 'superseded_by',
} as const satisfies Record<keyof MemoryPatch, keyof MemoryRow>;

/** The row a patch would produce, and the patch fields that really change it. */
export function patched(before: MemoryRow, patch: MemoryPatch): { next: MemoryRow; changed: Array<keyof MemoryPatch> } {
  const next: MemoryRow = { ...before };
  const changed: Array<keyof MemoryPatch> = [];
  for (const [key, column] of Object.entries(PATCH_COLUMNS) as Array<[keyof MemoryPatch, keyof MemoryRow]>) {
    const value = patch[key];
    if (value === undefined) continue;
    const stored = key === 'pinned' ? (value ? 1 : 0) : value;
    if (next[column] === stored) continue;
    (next as unknown as Record<string, unknown>)[column] = stored;
    changed.push(key);
  }
  return { next, changed };
}

export function createMemoryWriter(deps: MemoryWriterDeps): MemoryWriter {
  const { store, clock, logger, timeline, keywords, vectors, readyModel } = deps;
  const { mustRow } = store;
  const now = () => clock.now();
  const tx = store.transaction;

  /** A memory's event: it points at the memory, the thread and message it was learned from, and its category. */
  const refsOf = (r: MemoryRow) => ({ memoryId: r.id, threadId: r.source_thread_id, messageId: r.source_message_id, category: r.category });

  function followModel(model: ReadyModel): void {
    if (model.dimensions === vectors.dimensions()) return;
    const from = vectors.dimensions();
    tx(() => {
      if (vectors.ensureDimensions(model.dimensions)) store.clearEmbeddingModels();
    });
    logger.info('rebuilt the memory vector index for a new embedding dimension', { from, to: model.dimensions });
  }

  /** Writes a prepared vector if it belongs to the current model; returns the model recorded with the memory. */
  function writeVector(id: number, prepared: PreparedEmbedding | null | undefined): string | null {
    if (!prepared) return null;
    const model = readyModel();
    if (!model || model.modelId !== prepared.modelId || prepared.vector.length !== model.dimensions) return null;
    followModel(model);
    vectors.upsert(id, prepared.vector);
    return prepared.modelId;
  }

  function writeVersion(r: MemoryRow, origin: MemoryOrigin, reason: string, at: number): number {
    return store.insertVersion({ memoryId: r.id, content: r.content, category: r.category, importance: r.importance, pinned: r.pinned, status: r.status, expiresAt: r.expires_at, origin, reason, createdAt: at });
  }

  /** Replaces a memory's full-text entry; `next` null removes it (see purge for what a removal leaves). */
  function setFts(id: number, next: string | null, replacing: boolean): void {
    keywords.changed();
    if (replacing) store.ftsDelete(id);
    const doc = next === null ? '' : toFtsDocument(next);
    if (doc) store.ftsInsert(id, doc);
  }

  function writeCreatedEvent(kind: MemoryCreatedKind, r: MemoryRow, version: number, origin: MemoryOrigin, data: Record<string, unknown> | undefined, at: number): void {
    timeline.record(kind, refsOf(r), { version, origin, status: r.status, importance: r.importance, ...data }, at);
  }

  function createMemory(input: NewMemory, options: CreateOptions): Memory {
    return tx(() => {
      const at = now();
      const status = options.status ?? 'active';
      // Oldest first; a time after now (a clock that ran ahead where it was exported) is taken as now.
      const history = [...(options.history ?? [])].sort((a, b) => a.version - b.version).map((v) => ({ ...v, createdAt: Math.min(v.createdAt, at) }));
      const id = store.insert({
        content: input.content,
        content_hash: contentHash(input.content),
        category: input.category,
        importance: input.importance ?? 0.5,
        confidence: input.confidence ?? 1,
        pinned: input.pinned ? 1 : 0,
        status,
        source_thread_id: options.sourceThreadId ?? null,
        source_message_id: options.sourceMessageId ?? null,
        evidence: options.evidence ?? null,
        valid_from: input.validFrom ?? null,
        expires_at: input.expiresAt ?? null,
        trashed_at: status === 'trashed' ? at : null,
        created_at: history[0]?.createdAt ?? at,
        updated_at: at,
      });
      for (const v of history) {
        store.insertVersion({ memoryId: id, content: v.content, category: v.category, importance: v.importance, pinned: v.pinned ? 1 : 0, status: v.status, expiresAt: v.expiresAt, origin: v.origin, reason: v.reason, createdAt: v.createdAt });
      }
      setFts(id, input.content, false);
      const model = writeVector(id, options.embedding);
      if (model) store.setEmbeddingModel(model, id, input.content);
      const r = mustRow(id);
      const version = writeVersion(r, options.origin, options.reason ?? 'created', at);
      if (options.importBatch !== undefined) store.hideForImport(options.importBatch, id);
      else writeCreatedEvent(options.eventKind ?? 'learned', r, version, options.origin, options.eventData, at);
      return toMemory(r, at);
    });
  }

  function applyPatch(before: MemoryRow, patch: MemoryPatch, options: UpdateOptions): MemoryRow | null {
    const { next, changed } = patched(before, patch);
    if (changed.length === 0 && !options.touch) return null;
    const at = now();
    if (changed.includes('content')) {
      next.content_hash = contentHash(next.content);
      setFts(before.id, next.content, true);
      vectors.remove([before.id]);
      next.embedding_model = writeVector(before.id, options.embedding);
    }
    if (changed.includes('status')) next.trashed_at = next.status === 'trashed' ? at : null;
    next.updated_at = at;
    store.update(next);
    const version = writeVersion(next, options.origin, options.reason, at);
    timeline.record(options.eventKind ?? 'updated', refsOf(next), { version, fields: changed, origin: options.origin, reason: options.reason, ...options.eventData }, at);
    return next;
  }

  return {
    transaction: tx,
    createMemory,
    applyPatch,

    updateMemory(memoryId, patch, options) {
      return tx(() => {
        const before = mustRow(memoryId);
        return toMemory(applyPatch(before, patch, options) ?? before, now());
      });
    },

    publishImport(batch, eventKind) {
      return tx(() => {
        const at = now();
        const ids = store.importBatchIds(batch);
        for (const id of ids) {
          store.publishImported(id);
          const version = store.latestVersion(id)!;
          writeCreatedEvent(eventKind, mustRow(id), version, 'import', undefined, at);
        }
        return ids.length;
      });
    },

    discardImport(batch, only) {
      return tx(() => {
        const hidden = store.importBatchIds(batch);
        const ids = only ? hidden.filter((id) => only.includes(id)) : hidden;
        for (const id of ids) {
          // Hidden rows were never shown: no timeline event, and their FTS tombstones wait for the next merge.
          setFts(id, null, true);
          vectors.remove([id]);
          store.deleteHidden(id);
        }
        return ids.length;
      });
    },

    noteExpired(memoryId) {
      const r = mustRow(memoryId);
      timeline.record('expired', { memoryId: r.id, threadId: r.source_thread_id, category: r.category }, { expiresAt: r.expires_at!, origin: 'maintenance' });
    },

    purge(ids) {
      return tx(() => {
        const gone: PurgedMemory[] = [];
        const at = now();
        for (const id of ids) {
          const r = store.row(id);
          if (!r) continue;
          setFts(id, null, true);
          vectors.remove([id]);
          // memory_versions and message_memories cascade; events keep their rows (no text) with memory_id set NULL.
          store.deleteMemory(id);
          timeline.record('purged', { ...refsOf(r), memoryId: null }, { memoryId: id }, at);
          gone.push({ id, createdAt: r.created_at });
        }
        // A DELETE on a contentless-delete FTS5 table only adds a tombstone: the tokens stay in their segment until
        // it is merged ('delete' with the old document is refused on such tables). Merging now, in the same
        // transaction, rewrites the index without them (about 0.1 s at 100k memories), and secure_delete zeroes the
        // freed pages.
        if (gone.length > 0) store.ftsOptimize();
        return gone;
      });
    },

    recordUse(messageId, items) {
      if (items.length === 0) return;
      tx(() => {
        const at = now();
        const seen = new Set<number>();
        let rank = 0;
        for (const item of items) {
          if (seen.has(item.memoryId)) continue;
          seen.add(item.memoryId);
          rank++;
          const score = Number.isFinite(item.score) ? item.score : 0;
          // A memory purged between retrieval and the answer's commit is skipped, not a foreign-key failure.
          const matched = item.matched && item.matched.length > 0 ? JSON.stringify(item.matched) : null;
          if (store.recordUse(messageId, item.memoryId, score, item.reason, rank, matched)) store.touchUse(at, item.memoryId);
        }
      });
    },

    followModel,

    attachVectors(model, items) {
      let attached = 0;
      tx(() => {
        const current = readyModel();
        if (!current || current.modelId !== model.modelId) return; // the model changed while these were made
        followModel(current);
        for (const item of items) {
          if (item.vector.length !== current.dimensions) continue;
          // Only if the text is still the one embedded: an edit meanwhile already dropped the old vector.
          if (!store.setEmbeddingModel(current.modelId, item.id, item.content)) continue;
          vectors.upsert(item.id, item.vector);
          attached++;
        }
      });
      return attached;
    },
  };
}
