/**
 * The long-term memory store: memories with their versions, timeline events, full-text entries and vectors.
 *
 * Invariants:
 * - Every change to a memory writes, in the same transaction, the new row, a memory_versions row (origin and reason)
 *   and an `events` row (kind, ids, category, small JSON facts: never the text), and keeps memories_fts and
 *   memory_vectors in step (a changed text loses its vector until one is made for the new text).
 * - The embedder is never called inside a transaction: vectors are made first, then written. When there is none
 *   (semantic search off) memories are saved without a vector (embedding_model NULL); `fillMissingVectors` makes them
 *   later. Vectors of another model than the current one are ignored by search and replaced by `fillMissingVectors`.
 * - Bus events (memory.created, ...) are emitted only after the transaction commits. The synchronous write functions
 *   meant for callers' transactions (createMemory, updateMemory) emit nothing: their caller emits after its commit.
 * - Purge really deletes (row, versions, FTS entry, vector, uses) with secure_delete on, merges the FTS index so no
 *   token of the text stays behind a tombstone, then checkpoints the WAL (TRUNCATE) so the text is not left in it.
 *   After that commit it erases the same memories from every backup (backup-scrub.ts) and answers with what it did
 *   there, the files that could not be changed included.
 * - Prompt retrieval never returns a memory that is not active or is expired; pinned ones come first.
 */
import type {
  Memory,
  MemoryCategory,
  MemoryHit,
  MemoryOrigin,
  MemoryReason,
  MemoryStatus,
  MemoryVersion,
  OpOutput,
  OpParsedInput,
  Settings,
} from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { NOTHING_ERASED, type BackupScrubber, type PurgedMemory } from '../backup/backup-scrub';
import type { MemoryRetrievalPort } from '../chat/memory-retrieval.port';
import type { Sqlite } from '../db/open-database';
import type { EmbeddingService } from '../embedding/embedding.service';
import type { EventBus } from '../event-bus';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import { toFtsDocument, toFtsQuery } from '../text/fts-text';
import { termKeys } from '../text/meaningful-terms';
import { secretRefusal } from '../extraction/secret-detector';
import { contentHash } from './content-hash';
import { createKeywordIndex, type KeywordHit, type RelevantMatches } from './keyword-index';
import { relevantMatches } from './keyword-query';
import { rankHybrid, semanticFloor, type RankedHit } from './hybrid-search';
import { filterSql, IMPORTING, SORT_SQL, toMemory, type MemoryFilters, type MemoryRow, type MemorySortKey } from './memory.repo';
import { finalScore, recencyFactor } from './memory-scoring';
import { formatMemoriesForPrompt } from './memory-prompt';
import { createVectorIndex, MAX_K, type VectorIndexOptions } from './vector-index';
import { JUDGED } from './quantized-search';

/** A vector made outside any transaction, to be written with a memory. */
export interface PreparedEmbedding {
  modelId: string;
  vector: Float32Array;
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
  eventKind?: string;
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
  eventKind?: string;
  /** The vector of the new content, when the content changes. Without one the memory waits for fillMissingVectors. */
  embedding?: PreparedEmbedding | null;
  /** Write a version (and bump updatedAt) even when no field changes: a re-mention confirms the memory. */
  touch?: boolean;
  /** Extra timeline facts (ids, numbers; never text). */
  eventData?: Record<string, unknown>;
}

export interface PromptMemoryItem {
  memoryId: number;
  memory: Memory;
  score: number;
  reason: MemoryReason;
}

export interface RetrieveInput {
  query: string;
  /** The thread asking (reserved for per-thread exclusions; not used for ranking). */
  threadId: number;
  tokenBudget: number;
  estimateTokens: (text: string) => number;
  /** Memories the user said not to use in this thread. */
  excludeIds?: ReadonlySet<number>;
}

export interface MemoryService {
  // Contract operations.
  create(input: OpParsedInput<'memory.create'>): Promise<Memory>;
  get(input: OpParsedInput<'memory.get'>): OpOutput<'memory.get'>;
  list(input: OpParsedInput<'memory.list'>): OpOutput<'memory.list'>;
  search(input: OpParsedInput<'memory.search'>): Promise<OpOutput<'memory.search'>>;
  update(input: OpParsedInput<'memory.update'>): Promise<Memory>;
  trash(memoryId: number): Memory;
  restore(memoryId: number): Memory;
  purge(memoryIds: readonly number[]): Promise<OpOutput<'memory.purge'>>;
  emptyTrash(trashedBefore?: number): Promise<OpOutput<'memory.emptyTrash'>>;
  revert(memoryId: number, version: number): Promise<Memory>;
  bulk(input: OpParsedInput<'memory.bulk'>): Promise<OpOutput<'memory.bulk'>>;
  stats(): Promise<OpOutput<'memory.stats'>>;

  // For chat (MemoryRetrievalPort).
  retrieveForPrompt(input: RetrieveInput): Promise<{ items: PromptMemoryItem[]; text: string }>;
  /** Active memories about what a message says (its terms ORed, like a prompt's retrieval, plus meaning). */
  related(text: string, limit: number): Promise<Memory[]>;
  /** Records which memories an answer used and bumps their use counts. Synchronous: runs inside the caller's transaction. */
  recordUse(messageId: number, items: ReadonlyArray<{ memoryId: number; score: number; reason: MemoryReason }>): void;

  // For extraction, import and maintenance: synchronous, usable inside a caller's transaction, emit no bus events.
  createMemory(input: NewMemory, options: CreateOptions): Memory;
  updateMemory(memoryId: number, patch: MemoryPatch, options: UpdateOptions): Memory;
  findByHash(hash: string): Memory[];
  getMemory(memoryId: number): Memory | null;
  /** Shows every memory written with this importBatch, each with its timeline event; returns how many. */
  publishImport(batch: string, eventKind: string): number;
  /** Removes the memories still hidden under this importBatch (all, or only `ids`): an import that failed or died. */
  discardImport(batch: string, ids?: readonly number[]): number;
  /** Import batches with hidden memories, and when each last wrote one. */
  pendingImports(): Array<{ batch: string; lastWriteAt: number }>;
  /** Memories holding any of these words or CJK terms as written (the index's tokens, no stems), newest first. */
  withAnyWord(words: readonly string[], options: { limit: number } & MemoryFilters): Memory[];
  /** Memories with a vector of the current model nearest to `vector` (e.g. near-duplicates), nearest first. */
  nearest(vector: Float32Array, options: { limit: number; minSimilarity?: number } & MemoryFilters): Array<{ memory: Memory; similarity: number }>;
  /** Passage vectors for texts, made outside any transaction; null when semantic search is off or embedding failed. */
  prepareEmbeddings(texts: string[], signal?: AbortSignal): Promise<PreparedEmbedding[] | null>;

  // Background: vectors for memories that have none of the current model.
  fillMissingVectors(limit?: number, signal?: AbortSignal): Promise<{ embedded: number; remaining: number }>;
  missingVectorCount(): number;
}

export interface MemoryServiceDeps {
  sqlite: Sqlite;
  clock: Clock;
  events: EventBus;
  logger: Logger;
  embedding: EmbeddingService;
  settings: () => Settings;
  /** Erases purged memories from the backups, after the purge has committed here. */
  backups: BackupScrubber;
  /** Vector search tuning (benchmarks compare the quantized and exact paths); the defaults are the product's. */
  vectorSearch?: VectorIndexOptions;
}

/** Statuses an exact duplicate typed by hand collides with. */
const DUPLICATE_STATUSES: MemoryStatus[] = ['active', 'archived', 'review'];
/** Pinned memories read per prompt at most (they are all meant to be used; this only bounds a pathological count). */
const MAX_PINNED = 500;
const PURGE_CHUNK = 500;
/** Below this many keyword matches a filtered list starts from the matches rather than from the sort index. */
const FTS_DRIVES_BELOW = 2000;
/** memory.search adds relevant matches (keyword-query.ts) when every term together matches fewer memories than this. */
const THIN_STRICT = 5;
/** Relevant matches read by that fallback at least (twice the limit when that is more). */
const RELEVANT_FALLBACK_DEPTH = 50;

type KeywordMode = 'search' | 'prompt' | 'related';

/** Keyword candidates before filters: the search box's strict matches and a sentence's relevant ones. */
interface KeywordCandidates {
  strict: KeywordHit[];
  relevant: RelevantMatches | null;
  /** Drop relevant matches below the relevance floor. */
  floor: boolean;
}

export function createMemoryService(deps: MemoryServiceDeps): MemoryService {
  const { sqlite, clock, events, logger, embedding } = deps;
  const vectors = createVectorIndex(sqlite, deps.vectorSearch);
  const keywords = createKeywordIndex(sqlite);

  const q = {
    // A memory an unfinished import is writing does not exist for any read (memory.repo.ts, IMPORTING).
    byId: sqlite.prepare(`SELECT * FROM memories WHERE id = ? AND status != '${IMPORTING}'`),
    byHash: sqlite.prepare(`SELECT * FROM memories WHERE content_hash = ? AND status != '${IMPORTING}' ORDER BY id DESC`),
    hideForImport: sqlite.prepare(`UPDATE memories SET status = '${IMPORTING}', import_batch = ? WHERE id = ?`),
    importBatchIds: sqlite.prepare('SELECT id FROM memories WHERE import_batch = ? ORDER BY id').pluck(),
    // The status the import gave it is its newest version's (written while hidden).
    publishOne: sqlite.prepare(
      `UPDATE memories SET import_batch = NULL,
         status = (SELECT v.status FROM memory_versions v WHERE v.memory_id = memories.id ORDER BY v.version DESC LIMIT 1)
       WHERE id = ?`,
    ),
    latestVersion: sqlite.prepare('SELECT max(version) FROM memory_versions WHERE memory_id = ?').pluck(),
    deleteHidden: sqlite.prepare(`DELETE FROM memories WHERE id = ? AND status = '${IMPORTING}'`),
    pendingImports: sqlite.prepare(
      'SELECT import_batch AS batch, max(updated_at) AS lastWriteAt FROM memories WHERE import_batch IS NOT NULL GROUP BY import_batch',
    ),
    insert: sqlite.prepare(
      `INSERT INTO memories (content, content_hash, category, importance, confidence, pinned, status, source_thread_id,
         source_message_id, evidence, valid_from, expires_at, embedding_model, trashed_at, created_at, updated_at)
       VALUES (@content, @content_hash, @category, @importance, @confidence, @pinned, @status, @source_thread_id,
         @source_message_id, @evidence, @valid_from, @expires_at, NULL, @trashed_at, @created_at, @updated_at)`,
    ),
    update: sqlite.prepare(
      `UPDATE memories SET content = @content, content_hash = @content_hash, category = @category, importance = @importance,
         confidence = @confidence, pinned = @pinned, status = @status, evidence = @evidence, valid_from = @valid_from,
         expires_at = @expires_at, superseded_by = @superseded_by, embedding_model = @embedding_model,
         trashed_at = @trashed_at, updated_at = @updated_at
       WHERE id = @id`,
    ),
    setEmbeddingModel: sqlite.prepare('UPDATE memories SET embedding_model = ? WHERE id = ? AND content = ?'),
    clearEmbeddingModels: sqlite.prepare('UPDATE memories SET embedding_model = NULL WHERE embedding_model IS NOT NULL'),
    insertVersion: sqlite.prepare(
      `INSERT INTO memory_versions (memory_id, version, content, category, importance, pinned, status, expires_at, origin, reason, created_at)
       VALUES (?, (SELECT coalesce(max(version), 0) + 1 FROM memory_versions WHERE memory_id = ?), ?, ?, ?, ?, ?, ?, ?, ?, ?)
       RETURNING version`,
    ),
    versions: sqlite.prepare('SELECT * FROM memory_versions WHERE memory_id = ? ORDER BY version'),
    version: sqlite.prepare('SELECT * FROM memory_versions WHERE memory_id = ? AND version = ?'),
    statusBeforeTrash: sqlite.prepare(
      `SELECT status FROM memory_versions WHERE memory_id = ? AND status != 'trashed' ORDER BY version DESC LIMIT 1`,
    ),
    insertEvent: sqlite.prepare(
      'INSERT INTO events (kind, memory_id, thread_id, message_id, category, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    ),
    ftsInsert: sqlite.prepare('INSERT INTO memories_fts (rowid, body) VALUES (?, ?)'),
    ftsDelete: sqlite.prepare('DELETE FROM memories_fts WHERE rowid = ?'),
    ftsCount: sqlite.prepare('SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?'),
    ftsOptimize: sqlite.prepare(`INSERT INTO memories_fts (memories_fts) VALUES ('optimize')`),
    deleteMemory: sqlite.prepare('DELETE FROM memories WHERE id = ?'),
    threadTitle: sqlite.prepare('SELECT title FROM threads WHERE id = ?'),
    uses: sqlite.prepare(
      `SELECT mm.message_id, msg.thread_id, mm.score, mm.reason, mm.rank, msg.created_at
       FROM message_memories mm JOIN messages msg ON msg.id = mm.message_id
       WHERE mm.memory_id = ? ORDER BY mm.message_id DESC LIMIT ?`,
    ),
    usesCount: sqlite.prepare('SELECT count(*) AS n FROM message_memories WHERE memory_id = ?'),
    recordUse: sqlite.prepare(
      `INSERT OR REPLACE INTO message_memories (message_id, memory_id, score, reason, rank)
       SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM memories WHERE id = ?)`,
    ),
    touchUse: sqlite.prepare('UPDATE memories SET access_count = access_count + 1, last_used_at = ? WHERE id = ?'),
    pinnedForPrompt: sqlite.prepare(
      `SELECT * FROM memories WHERE status = 'active' AND pinned = 1 AND (expires_at IS NULL OR expires_at > ?)
       ORDER BY importance DESC, updated_at DESC, id DESC LIMIT ${MAX_PINNED}`,
    ),
    trashedIds: sqlite.prepare(`SELECT id FROM memories WHERE status = 'trashed' AND (? IS NULL OR trashed_at < ?) ORDER BY id`),
    // Index-friendly form of "embedding_model IS NOT ?": two range scans of memories_embedding_model_idx.
    missingVectors: sqlite.prepare(
      `SELECT id, content FROM memories WHERE status NOT IN ('rejected', '${IMPORTING}')
         AND (embedding_model IS NULL OR embedding_model < @model OR embedding_model > @model) ORDER BY id LIMIT @limit`,
    ),
    missingCount: sqlite.prepare(
      `SELECT count(*) AS n FROM memories WHERE status NOT IN ('rejected', '${IMPORTING}')
         AND (embedding_model IS NULL OR embedding_model < @model OR embedding_model > @model)`,
    ),
  };

  const now = () => clock.now();
  // IMMEDIATE: the write lock is taken at BEGIN, where the busy timeout applies. A deferred transaction that read
  // first and then writes while another process holds the lock fails at once (SQLite cannot wait there).
  const tx = <T>(fn: () => T): T => sqlite.transaction(fn).immediate();

  function rowOf(id: number): MemoryRow | undefined {
    return q.byId.get(id) as MemoryRow | undefined;
  }
  function mustRow(id: number): MemoryRow {
    const r = rowOf(id);
    if (!r) throw new MnemoError('NOT_FOUND', `Memory ${id} does not exist (it may have been purged).`);
    return r;
  }
  function memoryOf(id: number): Memory {
    return toMemory(mustRow(id), now());
  }

  // ---- vectors -------------------------------------------------------------------------------------------------

  /** The model vectors are made with now, or null while semantic search is off. */
  function readyModel(): { modelId: string; dimensions: number } | null {
    const s = embedding.status();
    return s.state === 'ready' && s.modelId && s.dimensions ? { modelId: s.modelId, dimensions: s.dimensions } : null;
  }

  /** Follows the model's dimension: a different one rebuilds vec0 empty and marks every memory as needing a vector. */
  function syncVectorTable(): void {
    const model = readyModel();
    if (!model || model.dimensions === vectors.dimensions()) return;
    const from = vectors.dimensions();
    tx(() => {
      if (vectors.ensureDimensions(model.dimensions)) q.clearEmbeddingModels.run();
    });
    logger.info('rebuilt the memory vector index for a new embedding dimension', { from, to: model.dimensions });
  }

  /** Writes a prepared vector if it belongs to the current model; returns the model recorded with the memory. */
  function writeVector(id: number, prepared: PreparedEmbedding | null | undefined): string | null {
    if (!prepared) return null;
    const model = readyModel();
    if (!model || model.modelId !== prepared.modelId || prepared.vector.length !== model.dimensions) return null;
    if (vectors.dimensions() !== model.dimensions) syncVectorTable();
    vectors.upsert(id, prepared.vector);
    return prepared.modelId;
  }

  async function prepareEmbeddings(texts: string[], signal?: AbortSignal): Promise<PreparedEmbedding[] | null> {
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
  }

  async function queryVector(text: string): Promise<Float32Array | null> {
    try {
      return await embedding.embedQuery(text);
    } catch (e) {
      logger.warn('query embedding failed; searching by keyword only', { code: e instanceof MnemoError ? e.code : 'error' });
      return null;
    }
  }

  // ---- write primitives (synchronous) ---------------------------------------------------------------------------

  function writeVersion(r: MemoryRow, origin: MemoryOrigin, reason: string, at: number): number {
    const out = q.insertVersion.get(r.id, r.id, r.content, r.category, r.importance, r.pinned, r.status, r.expires_at, origin, reason, at) as {
      version: number;
    };
    return out.version;
  }

  function writeEvent(kind: string, r: MemoryRow | null, data: Record<string, unknown>, at: number, memoryId: number | null = r?.id ?? null): void {
    q.insertEvent.run(kind, memoryId, r?.source_thread_id ?? null, r?.source_message_id ?? null, r?.category ?? null, JSON.stringify(data), at);
  }

  /** Replaces a memory's full-text entry; `next` null removes it (see purgeIds for what a removal leaves). */
  function setFts(id: number, next: string | null, replacing: boolean): void {
    keywords.changed();
    if (replacing) q.ftsDelete.run(BigInt(id));
    const doc = next === null ? '' : toFtsDocument(next);
    if (doc) q.ftsInsert.run(BigInt(id), doc);
  }

  function createMemory(input: NewMemory, options: CreateOptions): Memory {
    return tx(() => {
      const at = now();
      const status = options.status ?? 'active';
      // Oldest first; a time after now (a clock that ran ahead where it was exported) is taken as now.
      const history = [...(options.history ?? [])].sort((a, b) => a.version - b.version).map((v) => ({ ...v, createdAt: Math.min(v.createdAt, at) }));
      const info = q.insert.run({
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
      const id = Number(info.lastInsertRowid);
      for (const v of history) {
        q.insertVersion.run(id, id, v.content, v.category, v.importance, v.pinned ? 1 : 0, v.status, v.expiresAt, v.origin, v.reason, v.createdAt);
      }
      setFts(id, input.content, false);
      const model = writeVector(id, options.embedding);
      if (model) q.setEmbeddingModel.run(model, id, input.content);
      const r = mustRow(id);
      const version = writeVersion(r, options.origin, options.reason ?? 'created', at);
      if (options.importBatch !== undefined) q.hideForImport.run(options.importBatch, id);
      else writeCreatedEvent(options.eventKind ?? 'learned', r, version, options.origin, options.eventData, at);
      return toMemory(r, at);
    });
  }

  function writeCreatedEvent(kind: string, r: MemoryRow, version: number, origin: MemoryOrigin, data: Record<string, unknown> | undefined, at: number): void {
    writeEvent(kind, r, { version, origin, status: r.status, importance: r.importance, ...data }, at);
  }

  function publishImport(batch: string, eventKind: string): number {
    return tx(() => {
      const at = now();
      const ids = q.importBatchIds.all(batch) as number[];
      for (const id of ids) {
        q.publishOne.run(id);
        const version = q.latestVersion.get(id) as number;
        writeCreatedEvent(eventKind, mustRow(id), version, 'import', undefined, at);
      }
      return ids.length;
    });
  }

  function discardImport(batch: string, only?: readonly number[]): number {
    return tx(() => {
      const hidden = q.importBatchIds.all(batch) as number[];
      const ids = only ? hidden.filter((id) => only.includes(id)) : hidden;
      for (const id of ids) {
        // Hidden rows were never shown: no timeline event, and their FTS tombstones wait for the next merge.
        setFts(id, null, true);
        vectors.remove([id]);
        q.deleteHidden.run(id);
      }
      return ids.length;
    });
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
  function patched(before: MemoryRow, patch: MemoryPatch): { next: MemoryRow; changed: Array<keyof MemoryPatch> } {
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

  /** Applies a patch; returns null when nothing changed (and no touch was asked for). */
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
    q.update.run(next);
    const version = writeVersion(next, options.origin, options.reason, at);
    writeEvent(options.eventKind ?? 'updated', next, { version, fields: changed, origin: options.origin, reason: options.reason, ...options.eventData }, at);
    return next;
  }

  function updateMemory(memoryId: number, patch: MemoryPatch, options: UpdateOptions): Memory {
    return tx(() => {
      const before = mustRow(memoryId);
      return toMemory(applyPatch(before, patch, options) ?? before, now());
    });
  }

  async function purgeIds(ids: readonly number[]): Promise<OpOutput<'memory.purge'>> {
    const purged: PurgedMemory[] = [];
    for (let i = 0; i < ids.length; i += PURGE_CHUNK) {
      const chunk = ids.slice(i, i + PURGE_CHUNK);
      purged.push(
        ...tx(() => {
          const gone: PurgedMemory[] = [];
          const at = now();
          for (const id of chunk) {
            const r = rowOf(id);
            if (!r) continue;
            setFts(id, null, true);
            vectors.remove([id]);
            // memory_versions and message_memories cascade; events keep their rows (no text) with memory_id set NULL.
            q.deleteMemory.run(id);
            writeEvent('purged', r, { memoryId: id }, at, null);
            gone.push({ id, createdAt: r.created_at });
          }
          // A DELETE on a contentless-delete FTS5 table only adds a tombstone: the tokens stay in their segment until
          // it is merged ('delete' with the old document is refused on such tables). Merging now, in the same
          // transaction, rewrites the index without them (about 0.1 s at 100k memories), and secure_delete zeroes the
          // freed pages.
          if (gone.length > 0) q.ftsOptimize.run();
          return gone;
        }),
      );
    }
    if (purged.length === 0) return { purged: 0, backups: NOTHING_ERASED };
    checkpoint();
    return { purged: purged.length, backups: await deps.backups.eraseMemories(purged) };
  }

  /** Out of the trash to where it was (active, archived, in review...); out of the archive to active; else null. */
  function restorePatch(r: MemoryRow): MemoryPatch | null {
    if (r.status === 'archived') return { status: 'active' };
    if (r.status !== 'trashed') return null;
    const previous = (q.statusBeforeTrash.get(r.id) as { status: MemoryStatus } | undefined)?.status;
    return { status: previous ?? 'active' };
  }

  function checkpoint(): void {
    const [result] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    // Busy means another connection is reading: its pages stay in the WAL until the next checkpoint.
    if (result && result.busy !== 0) logger.warn('WAL checkpoint after purge was partial; it completes at the next checkpoint', {});
  }

  // ---- search -----------------------------------------------------------------------------------------------------

  function loadRows(ids: readonly number[], filters: MemoryFilters, at: number): Map<number, MemoryRow> {
    const out = new Map<number, MemoryRow>();
    if (ids.length === 0) return out;
    const { where, params } = filterSql(filters, at);
    // CROSS JOIN fixes the loop order: a rowid lookup per candidate, not a scan of the status index (the planner
    // has no statistics to know that a few hundred ids are fewer than 100k active rows).
    const rows = sqlite
      .prepare(`SELECT m.* FROM json_each(?) AS j CROSS JOIN memories m ON m.id = j.value WHERE ${where.join(' AND ')}`)
      .all(JSON.stringify(ids), ...params) as MemoryRow[];
    for (const r of rows) out.set(r.id, r);
    return out;
  }

  /**
   * The keyword candidates of a search, before filters; null when the query has nothing searchable.
   * - 'search' (memory.search, a search box): every term, the last one as a prefix while typing; when that finds fewer
   *   than THIN_STRICT, the relevant matches follow, so a question typed in natural language still finds what it means.
   * - 'prompt' (a chat message): the relevant matches.
   * - 'related' (extraction's known memories, judged by the model): the relevant matches without the relevance floor.
   */
  function keywordCandidates(query: string, mode: KeywordMode, limit: number, depth: number): KeywordCandidates | null {
    if (mode !== 'search') {
      const relevant = keywords.relevant(query, { depth });
      return relevant && { strict: [], relevant, floor: mode === 'prompt' };
    }
    const strict = keywords.strict(query, { prefix: true, depth });
    const thin = (strict?.length ?? 0) < Math.min(limit, THIN_STRICT);
    // The fallback fills a page: its best few BM25 matches are enough, and each costs a row read and a floor check.
    const relevant = thin ? keywords.relevant(query, { depth: Math.min(depth, Math.max(limit * 2, RELEVANT_FALLBACK_DEPTH)) }) : null;
    return strict === null && relevant === null ? null : { strict: strict ?? [], relevant, floor: true };
  }

  /**
   * One keyword list for ranking, over the rows that passed the filters: strict matches first (they hold every
   * term), then the relevant ones not already there, without those below the relevance floor (keyword-query.ts).
   * Scores keep each part's order and ties: a strictly increasing squash into (1, 3) for strict matches and (-1, 1)
   * for relevant ones.
   */
  function keywordList(found: KeywordCandidates, rows: ReadonlyMap<number, MemoryRow>): KeywordHit[] {
    const squash = (x: number) => x / (1 + Math.abs(x));
    const list = found.strict.map((h) => ({ id: h.id, score: 2 + squash(h.score) }));
    const seen = new Set(list.map((h) => h.id));
    const relevant = (found.relevant?.hits ?? []).filter((h) => !seen.has(h.id) && rows.has(h.id));
    const terms = found.relevant?.terms ?? [];
    const kept = found.floor ? relevantMatches(terms, relevant.map((h) => termKeys(rows.get(h.id)!.content))) : relevant.map(() => true);
    relevant.forEach((h, i) => {
      if (kept[i]) list.push({ id: h.id, score: squash(h.score) });
    });
    return list;
  }

  interface SearchOptions {
    limit: number;
    keyword: KeywordMode;
    /** Candidates per list; default limit x 5 (min 100) semantic, limit x 10 (min 200) keyword. */
    depth?: { semantic: number; keyword: number };
  }

  async function hybridSearch(query: string, filters: MemoryFilters, opts: SearchOptions): Promise<{ hits: Array<RankedHit<MemoryRow>>; mode: 'hybrid' | 'keyword' }> {
    const vector = await queryVector(query);
    // No await from here on: nothing else in this process writes between these reads.
    const at = now();
    const r = deps.settings().retrieval;
    // Candidates per list. The exact vec0 scan costs more with a larger k; keyword depth is nearly free.
    const semanticDepth = Math.min(MAX_K, opts.depth?.semantic ?? Math.max(opts.limit * 5, 100));
    const keywordDepth = opts.depth?.keyword ?? Math.max(opts.limit * 10, 200);
    const model = vector ? readyModel() : null;
    let neighbors: Array<{ id: number; similarity: number }> | null = null;
    if (vector && model && vector.length === model.dimensions) {
      syncVectorTable();
      // The head of the list that decides the shown results is judged for exactness (vector-index.ts, KnnOptions).
      const judged = Math.min(JUDGED, opts.limit);
      neighbors = vectors.knn(vector, semanticDepth, { judged }).map((n) => ({ id: n.id, similarity: 1 - n.distance }));
    }
    const found = keywordCandidates(query, opts.keyword, opts.limit, keywordDepth);
    const candidateIds = found ? [...found.strict, ...(found.relevant?.hits ?? [])].map((k) => k.id) : [];
    const eligible = loadRows([...(neighbors ?? []).map((n) => n.id), ...candidateIds], filters, at);
    const keyword = found && keywordList(found, eligible);
    // A vector of another model (same dimension, not yet replaced) is not comparable with the query's.
    const semantic = neighbors?.filter((n) => eligible.get(n.id)?.embedding_model === model?.modelId) ?? null;
    const ranked = rankHybrid({
      semantic,
      keyword,
      eligible: new Map([...eligible].map(([id, row]) => [id, { ...row, pinned: row.pinned === 1, updatedAt: row.updated_at }])),
      weights: { similarity: r.similarityWeight, importance: r.importanceWeight, recency: r.recencyWeight },
      halfLifeDays: r.recencyHalfLifeDays,
      // Judged against all the neighbours, before filters: the background is the query's, not the filter's.
      minSimilarity: semanticFloor((neighbors ?? []).map((n) => n.similarity), r.minSimilarity),
      now: at,
    });
    return {
      hits: ranked.slice(0, opts.limit).map((h) => ({ ...h, memory: eligible.get(h.memory.id)! })),
      mode: semantic ? 'hybrid' : 'keyword',
    };
  }

  // ---- contract operations ---------------------------------------------------------------------------------------

  /** A memory the user writes or edits follows the same rule as one Mnemo learns: no secrets (secret-detector.ts). */
  function refuseSecret(content: string): void {
    const why = secretRefusal(content);
    if (why) throw new MnemoError('INVALID_INPUT', `This was not saved: ${why}.`, { path: 'content' });
  }

  function refuseDuplicate(content: string, exceptId?: number): void {
    const hash = contentHash(content);
    const dup = (q.byHash.all(hash) as MemoryRow[]).find((r) => r.id !== exceptId && DUPLICATE_STATUSES.includes(r.status));
    if (dup) {
      throw new MnemoError('CONFLICT', `You already have this memory (#${dup.id}, ${dup.status}). Edit that one instead.`, {
        details: { memoryId: dup.id },
      });
    }
  }

  function emitAll(kind: 'memory.updated' | 'memory.deleted' | 'memory.restored', memories: Memory[]): void {
    for (const memory of memories) events.emit(kind, { memory });
  }

  function userReason(changed: Array<keyof MemoryPatch>, patch: MemoryPatch): string {
    if (changed.length === 1 && changed[0] === 'pinned') return patch.pinned ? 'pinned' : 'unpinned';
    if (changed.length === 1 && changed[0] === 'category') return 'recategorized';
    return 'edited';
  }

  const service: MemoryService = {
    async create(input) {
      if (input.expiresAt != null && input.expiresAt <= now()) {
        throw new MnemoError('INVALID_INPUT', 'The expiry date is already past; choose a later one or none.', { path: 'expiresAt' });
      }
      refuseSecret(input.content);
      refuseDuplicate(input.content);
      const prepared = (await prepareEmbeddings([input.content]))?.[0] ?? null;
      const memory = tx(() => {
        refuseDuplicate(input.content); // again: another write may have landed while the vector was made
        return createMemory(
          { content: input.content, category: input.category, importance: input.importance, pinned: input.pinned, expiresAt: input.expiresAt ?? null },
          { origin: 'user', embedding: prepared },
        );
      });
      events.emit('memory.created', { memory });
      return memory;
    },

    get({ memoryId, usesLimit }) {
      const r = mustRow(memoryId);
      const versions = (q.versions.all(memoryId) as VersionRow[]).map(toVersion);
      const title = r.source_thread_id === null ? undefined : (q.threadTitle.get(r.source_thread_id) as { title: string } | undefined);
      const uses = (q.uses.all(memoryId, usesLimit) as UseRow[]).map((u) => ({
        messageId: u.message_id,
        threadId: u.thread_id,
        score: u.score,
        reason: u.reason,
        rank: u.rank,
        at: u.created_at,
      }));
      return {
        memory: toMemory(r, now()),
        versions,
        provenance: { threadId: r.source_thread_id, threadTitle: title?.title ?? null, messageId: r.source_message_id, evidence: r.evidence },
        uses,
        usesTotal: (q.usesCount.get(memoryId) as { n: number }).n,
      };
    },

    list(input) {
      const at = now();
      const { where, params } = filterSql(input, at);
      const match = input.query ? toFtsQuery(input.query, { prefix: true }) : null;
      let from = 'memories m';
      if (match !== null) {
        // Few keyword matches: start from them (rowid lookups). Many: walk the sort index and test membership,
        // which stops after a page. Counting matches first is cheap (the FTS index alone).
        const matches = (q.ftsCount.get(match) as { n: number }).n;
        if (matches <= FTS_DRIVES_BELOW) {
          from = '(SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ?) AS f CROSS JOIN memories m ON m.id = f.id';
          params.unshift(match);
        } else {
          where.push('m.id IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?)');
          params.push(match);
        }
      }
      const clause = where.join(' AND ');
      const total = (sqlite.prepare(`SELECT count(*) AS n FROM ${from} WHERE ${clause}`).get(...params) as { n: number }).n;
      const rows = sqlite
        .prepare(`SELECT m.* FROM ${from} WHERE ${clause} ORDER BY ${SORT_SQL[input.sort as MemorySortKey]} LIMIT ? OFFSET ?`)
        .all(...params, input.limit, input.offset) as MemoryRow[];
      return { items: rows.map((r) => toMemory(r, at)), total };
    },

    async search({ query, limit, ...filters }) {
      const { hits, mode } = await hybridSearch(query, filters, { limit, keyword: 'search' });
      const at = now();
      return { hits: hits.map((h): MemoryHit => ({ ...h, memory: toMemory(h.memory, at) })), mode };
    },

    async update({ memoryId, ...patch }) {
      const before = mustRow(memoryId);
      const contentChanges = patch.content !== undefined && patch.content !== before.content;
      if (contentChanges) {
        refuseSecret(patch.content!);
        refuseDuplicate(patch.content!, memoryId);
      }
      const prepared = contentChanges ? ((await prepareEmbeddings([patch.content!]))?.[0] ?? null) : null;
      const result = tx(() => {
        const current = mustRow(memoryId);
        const reason = userReason(patched(current, patch).changed, patch);
        const next = applyPatch(current, patch, { origin: 'user', reason, embedding: prepared });
        return next ? toMemory(next, now()) : null;
      });
      if (!result) return memoryOf(memoryId);
      events.emit('memory.updated', { memory: result });
      return result;
    },

    trash(memoryId) {
      const memory = tx(() => {
        const r = mustRow(memoryId);
        if (r.status === 'trashed') return null;
        return toMemory(applyPatch(r, { status: 'trashed' }, { origin: 'user', reason: 'deleted', eventKind: 'deleted' })!, now());
      });
      if (!memory) return memoryOf(memoryId);
      events.emit('memory.deleted', { memory });
      return memory;
    },

    restore(memoryId) {
      const memory = tx(() => {
        const r = mustRow(memoryId);
        const patch = restorePatch(r);
        if (!patch) throw new MnemoError('CONFLICT', `Memory ${memoryId} is not in the trash or the archive (it is ${r.status}).`);
        return toMemory(applyPatch(r, patch, { origin: 'user', reason: 'restored', eventKind: 'restored' })!, now());
      });
      events.emit('memory.restored', { memory });
      return memory;
    },

    async purge(memoryIds) {
      for (const id of memoryIds) mustRow(id);
      const result = await purgeIds(memoryIds);
      if (result.purged > 0) events.emit('memory.purged', { memoryIds: [...memoryIds] });
      return result;
    },

    async emptyTrash(trashedBefore) {
      const ids = (q.trashedIds.all(trashedBefore ?? null, trashedBefore ?? null) as Array<{ id: number }>).map((r) => r.id);
      const result = await purgeIds(ids);
      if (result.purged > 0) events.emit('memory.purged', { memoryIds: ids });
      return result;
    },

    async revert(memoryId, version) {
      const current = mustRow(memoryId);
      const v = q.version.get(memoryId, version) as VersionRow | undefined;
      if (!v) throw new MnemoError('NOT_FOUND', `Memory ${memoryId} has no version ${version}.`);
      const prepared = current.content !== v.content ? ((await prepareEmbeddings([v.content]))?.[0] ?? null) : null;
      const memory = tx(() =>
        updateMemory(
          memoryId,
          { content: v.content, category: v.category, importance: v.importance, pinned: v.pinned === 1, expiresAt: v.expires_at },
          { origin: 'user', reason: 'reverted', eventKind: 'reverted', touch: true, embedding: prepared, eventData: { revertedTo: version } },
        ),
      );
      events.emit('memory.updated', { memory });
      return memory;
    },

    async bulk(input) {
      const { action } = input;
      const unique = [...new Set(input.memoryIds)];
      if (action === 'purge') {
        // Only from the trash: a bulk purge must never reach a memory the user did not delete first.
        const trashed = unique.filter((id) => rowOf(id)?.status === 'trashed');
        const { purged, backups } = await purgeIds(trashed);
        if (purged > 0) events.emit('memory.purged', { memoryIds: trashed });
        return { changed: purged, skipped: unique.length - purged, backups };
      }
      const changed: Memory[] = [];
      let skipped = 0;
      tx(() => {
        for (const id of unique) {
          const r = rowOf(id);
          const patch = !r ? null : action === 'restore' ? restorePatch(r) : bulkPatch(r, input);
          if (!r || !patch) {
            skipped++;
            continue;
          }
          const { reason, eventKind } = BULK_EFFECT[action];
          const next = applyPatch(r, patch, { origin: 'user', reason, eventKind, eventData: { bulk: true } });
          if (next) changed.push(toMemory(next, now()));
          else skipped++;
        }
      });
      emitAll(action === 'delete' ? 'memory.deleted' : action === 'restore' ? 'memory.restored' : 'memory.updated', changed);
      return { changed: changed.length, skipped };
    },

    async stats() {
      await embedding.ensureReady();
      const status = embedding.status();
      const at = now();
      const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<MemoryStatus, number>;
      for (const row of sqlite.prepare(`SELECT status, count(*) AS n FROM memories WHERE status != '${IMPORTING}' GROUP BY status`).all() as Array<{ status: MemoryStatus; n: number }>) {
        byStatus[row.status] = row.n;
      }
      const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<MemoryCategory, number>;
      for (const row of sqlite
        .prepare(`SELECT category, count(*) AS n FROM memories WHERE status = 'active' GROUP BY category`)
        .all() as Array<{ category: MemoryCategory; n: number }>) {
        byCategory[row.category] = row.n;
      }
      const count = (sql: string, ...params: unknown[]) => (sqlite.prepare(sql).get(...params) as { n: number }).n;
      const eligible = count(`SELECT count(*) AS n FROM memories WHERE status NOT IN ('rejected', '${IMPORTING}')`);
      const present =
        status.modelId === null
          ? count(`SELECT count(*) AS n FROM memories WHERE status NOT IN ('rejected', '${IMPORTING}') AND embedding_model IS NOT NULL`)
          : eligible - (q.missingCount.get({ model: status.modelId }) as { n: number }).n;
      return {
        total: Object.values(byStatus).reduce((a, b) => a + b, 0),
        byStatus,
        byCategory,
        pinned: count(`SELECT count(*) AS n FROM memories WHERE status = 'active' AND pinned = 1`),
        expired: count(`SELECT count(*) AS n FROM memories WHERE status = 'active' AND expires_at IS NOT NULL AND expires_at <= ?`, at),
        vectors: { present, missing: eligible - present, dimensions: vectors.dimensions() },
        semanticSearch: status,
      };
    },

    async related(text, limit) {
      if (!text.trim()) return [];
      const { hits } = await hybridSearch(text, { statuses: ['active'], expired: false }, { limit, keyword: 'related' });
      const at = now();
      return hits.map((h) => toMemory(h.memory, at));
    },

    async retrieveForPrompt({ query, tokenBudget, estimateTokens, excludeIds }) {
      if (!(tokenBudget > 0)) return { items: [], text: '' };
      const r = deps.settings().retrieval;
      const filters = { statuses: ['active' as const], expired: false, pinned: false, excludeIds };
      // A prompt needs only the best `limit`, and its filters drop few candidates: shallower lists keep prompt
      // assembly fast at 100k memories (docs/BENCHMARKS.md) while browsing searches keep their deeper default.
      const depth = { semantic: Math.max(r.limit * 4, 40), keyword: Math.max(r.limit * 8, 80) };
      const found = query.trim() ? (await hybridSearch(query, filters, { limit: r.limit, keyword: 'prompt', depth })).hits : [];
      const at = now();
      const weights = { similarity: r.similarityWeight, importance: r.importanceWeight, recency: r.recencyWeight };
      const pinned = (q.pinnedForPrompt.all(at) as MemoryRow[]).filter((row) => !excludeIds?.has(row.id)).map((row) => ({
        row,
        score: finalScore({ relevance: 0, importance: row.importance, recency: recencyFactor(at - row.updated_at, r.recencyHalfLifeDays) }, weights),
        reason: 'pinned' as const,
      }));
      const candidates = [...pinned, ...found.map((h) => ({ row: h.memory, score: h.score, reason: h.reason }))];
      const { included, text } = formatMemoriesForPrompt(
        candidates.map((c) => ({ content: c.row.content, category: c.row.category })),
        tokenBudget,
        estimateTokens,
      );
      const items = included.map((i) => {
        const c = candidates[i]!;
        return { memoryId: c.row.id, memory: toMemory(c.row, at), score: c.score, reason: c.reason };
      });
      return { items, text };
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
          if (q.recordUse.run(messageId, item.memoryId, score, item.reason, rank, item.memoryId).changes > 0) q.touchUse.run(at, item.memoryId);
        }
      });
    },

    createMemory,
    updateMemory,
    findByHash(hash) {
      const at = now();
      return (q.byHash.all(hash) as MemoryRow[]).map((r) => toMemory(r, at));
    },
    publishImport,
    discardImport,
    pendingImports() {
      return q.pendingImports.all() as Array<{ batch: string; lastWriteAt: number }>;
    },
    getMemory(memoryId) {
      const r = rowOf(memoryId);
      return r ? toMemory(r, now()) : null;
    },
    withAnyWord(words, { limit, ...filters }) {
      const match = toFtsQuery(words.join(' '), { mode: 'any' });
      if (match === null || limit <= 0) return [];
      const at = now();
      const { where, params } = filterSql(filters, at);
      const rows = sqlite
        .prepare(
          `SELECT m.* FROM (SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ?) AS f CROSS JOIN memories m ON m.id = f.id
           WHERE ${where.join(' AND ')} ORDER BY m.id DESC LIMIT ?`,
        )
        .all(match, ...params, limit) as MemoryRow[];
      return rows.map((r) => toMemory(r, at));
    },
    nearest(vector, { limit, minSimilarity, ...filters }) {
      const model = readyModel();
      if (!model || vector.length !== model.dimensions || limit <= 0) return [];
      syncVectorTable();
      const neighbors = vectors.knn(vector, Math.min(MAX_K, Math.max(limit * 10, 100)));
      const at = now();
      const rows = loadRows(
        neighbors.map((n) => n.id),
        filters,
        at,
      );
      const out: Array<{ memory: Memory; similarity: number }> = [];
      for (const n of neighbors) {
        const row = rows.get(n.id);
        const similarity = 1 - n.distance;
        if (!row || row.embedding_model !== model.modelId || similarity < (minSimilarity ?? -1)) continue;
        out.push({ memory: toMemory(row, at), similarity });
        if (out.length >= limit) break;
      }
      return out;
    },
    prepareEmbeddings,

    async fillMissingVectors(limit = 64, signal) {
      if (!(await embedding.ensureReady())) return { embedded: 0, remaining: service.missingVectorCount() };
      syncVectorTable();
      const model = readyModel();
      if (!model) return { embedded: 0, remaining: service.missingVectorCount() };
      const rows = q.missingVectors.all({ model: model.modelId, limit: Math.max(1, limit) }) as Array<{ id: number; content: string }>;
      if (rows.length === 0) return { embedded: 0, remaining: 0 };
      const made = await embedding.embedPassages(
        rows.map((r) => r.content),
        signal,
      );
      if (!made) return { embedded: 0, remaining: service.missingVectorCount() };
      let embedded = 0;
      tx(() => {
        const current = readyModel();
        if (!current || current.modelId !== model.modelId) return; // the model changed while we embedded
        syncVectorTable();
        rows.forEach((r, i) => {
          const vector = made[i];
          if (!vector || vector.length !== current.dimensions) return;
          // Only if the text is still the one embedded: an edit meanwhile already dropped the old vector.
          if (q.setEmbeddingModel.run(current.modelId, r.id, r.content).changes === 0) return;
          vectors.upsert(r.id, vector);
          embedded++;
        });
      });
      return { embedded, remaining: service.missingVectorCount() };
    },

    missingVectorCount() {
      const model = readyModel();
      if (!model) return (sqlite.prepare(`SELECT count(*) AS n FROM memories WHERE status NOT IN ('rejected', '${IMPORTING}')`).get() as { n: number }).n;
      return (q.missingCount.get({ model: model.modelId }) as { n: number }).n;
    },
  };
  return service;
}

/** Version reason and timeline kind of each bulk action. */
const BULK_EFFECT = {
  delete: { reason: 'deleted', eventKind: 'deleted' },
  archive: { reason: 'archived', eventKind: 'archived' },
  unarchive: { reason: 'unarchived', eventKind: 'unarchived' },
  pin: { reason: 'pinned', eventKind: 'updated' },
  unpin: { reason: 'unpinned', eventKind: 'updated' },
  recategorize: { reason: 'recategorized', eventKind: 'updated' },
  restore: { reason: 'restored', eventKind: 'restored' },
} as const;

const STATUSES: MemoryStatus[] = ['active', 'archived', 'trashed', 'superseded', 'review', 'rejected'];
const CATEGORIES: MemoryCategory[] = ['knowledge', 'preference', 'project', 'skill'];

/** The patch of a bulk action for one memory, or null when it does not apply. restore and purge need the database (bulk). */
function bulkPatch(r: MemoryRow, input: OpParsedInput<'memory.bulk'>): MemoryPatch | null {
  switch (input.action) {
    case 'restore':
    case 'purge':
      return null;
    case 'delete':
      return r.status === 'trashed' ? null : { status: 'trashed' };
    case 'archive':
      return r.status === 'active' ? { status: 'archived' } : null;
    case 'unarchive':
      return r.status === 'archived' ? { status: 'active' } : null;
    case 'pin':
      return r.status !== 'trashed' && r.pinned === 0 ? { pinned: true } : null;
    case 'unpin':
      return r.status !== 'trashed' && r.pinned === 1 ? { pinned: false } : null;
    case 'recategorize':
      return r.status !== 'trashed' && r.category !== input.category ? { category: input.category } : null;
  }
}

export interface VersionRow {
  version: number;
  content: string;
  category: MemoryCategory;
  importance: number;
  pinned: number;
  status: MemoryStatus;
  expires_at: number | null;
  origin: MemoryOrigin;
  reason: string;
  created_at: number;
}

export function toVersion(v: VersionRow): MemoryVersion {
  return {
    version: v.version,
    content: v.content,
    category: v.category,
    importance: v.importance,
    pinned: v.pinned === 1,
    status: v.status,
    expiresAt: v.expires_at,
    origin: v.origin,
    reason: v.reason,
    createdAt: v.created_at,
  };
}

interface UseRow {
  message_id: number;
  thread_id: number;
  score: number;
  reason: MemoryReason;
  rank: number;
  created_at: number;
}

/** The memory store as chat sees it: only ids, scores and reasons travel with an answer, never the memories' text. */
/** What chat uses: memories for a thread's prompt, leaving out the ones the user excluded from that thread. */
export function memoryRetrievalPort(service: MemoryService, exclusions: (threadId: number) => readonly number[]): MemoryRetrievalPort {
  return {
    async retrieveForPrompt(input) {
      const excludeIds = new Set([...(input.excludeIds ?? []), ...exclusions(input.threadId)]);
      const { items, text } = await service.retrieveForPrompt({ ...input, excludeIds });
      return { text, items: items.map(({ memoryId, score, reason }) => ({ memoryId, score, reason })) };
    },
    recordUse: (messageId, items) => service.recordUse(messageId, items),
  };
}
