/**
 * The memories table family, one memory at a time and in lists: memories, memory_versions, memories_fts and
 * message_memories. Every statement is prepared once, here; rows come out typed (memory.repo.ts) and no rule is
 * decided here: which versions, events, vectors and FTS entries change together is memory-writer.ts's, what a list or a
 * search returns is memory-search.ts's. The reads maintenance, consolidation, the cap and purges sweep with are in
 * memory-upkeep.store.ts.
 *
 * Statements that take filters (memory.repo.ts filterSql: any set of statuses, categories, ids) are built per call, as
 * they always were; the hot ones of retrieval (pinned memories, learned-within, rows by id) are fixed statements.
 */
import type { MemoryCategory, MemoryReason, MemoryStatus } from '../../../shared/contract';
import { checkpointAfterPurge } from '../db/checkpoint-after-purge';
import type { Sqlite } from '../db/open-database';
import type Database from 'better-sqlite3';
import { writeTransaction } from '../db/write-transaction';
import type { Logger } from '../ports/logger.port';
import { createKeywordIndex, type KeywordIndex } from '../search/keyword-index';
import { createVectorIndex, type VectorIndex, type VectorIndexOptions } from '../search/vector-index';
import { createMemoryUpkeepStore, type MemoryUpkeepStore } from './memory-upkeep.store';
import { filterSql, IMPORTING, LEARNED_AT_SQL, SORT_SQL, type MemoryFilters, type MemoryRow, type MemorySortKey, type VersionRow } from './memory.repo';
import { MnemoError } from '../../../shared/errors';

/** Below this many keyword matches a filtered list starts from the matches rather than from the sort index. */
const FTS_DRIVES_BELOW = 2000;

/** The columns a new memory is written with (memory-writer.ts fills them); the rest start empty. */
export type NewMemoryRow = Omit<MemoryRow, 'id' | 'superseded_by' | 'access_count' | 'last_used_at' | 'embedding_model'>;

/** One version as written: the memory's fields at that time, who changed it and why. */
export interface NewVersion {
  memoryId: number;
  content: string;
  category: MemoryCategory;
  importance: number;
  pinned: number;
  status: MemoryStatus;
  expiresAt: number | null;
  origin: string;
  reason: string;
  createdAt: number;
}

export interface UseRow {
  message_id: number;
  thread_id: number;
  score: number;
  reason: MemoryReason;
  rank: number;
  created_at: number;
}

export interface AsOfRow {
  memory_id: number;
  version: number;
  content: string;
  category: MemoryCategory;
  importance: number;
  pinned: number;
}

/** "As of": the latest version of each memory written at or before @at, kept if it was active and not yet expired then. */
const asOfBase = `FROM memory_versions v
  WHERE v.created_at <= @at AND v.version = (SELECT max(version) FROM memory_versions w WHERE w.memory_id = v.memory_id AND w.created_at <= @at)
    AND v.status = 'active' AND (v.expires_at IS NULL OR v.expires_at > @at)`;

/** Active, pinned, unexpired (at the one parameter) memories, most important then most recently changed first. */
export function pinnedActiveSql(limit: number): string {
  return `SELECT * FROM memories WHERE status = 'active' AND pinned = 1 AND (expires_at IS NULL OR expires_at > ?)
    ORDER BY importance DESC, updated_at DESC, id DESC LIMIT ${limit}`;
}

/** Memories expected to have a vector: all but rejected ones and those an unfinished import hides. */
const VECTOR_ELIGIBLE = `status NOT IN ('rejected', '${IMPORTING}')`;

export function createMemoryStore(sqlite: Sqlite) {
  const q = {
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
    ftsInsert: sqlite.prepare('INSERT INTO memories_fts (rowid, body) VALUES (?, ?)'),
    ftsDelete: sqlite.prepare('DELETE FROM memories_fts WHERE rowid = ?'),
    ftsOptimize: sqlite.prepare(`INSERT INTO memories_fts (memories_fts) VALUES ('optimize')`),
    ftsCount: sqlite.prepare('SELECT count(*) AS n FROM memories_fts WHERE memories_fts MATCH ?'),
    deleteMemory: sqlite.prepare('DELETE FROM memories WHERE id = ?'),
    recordUse: sqlite.prepare(
      `INSERT OR REPLACE INTO message_memories (message_id, memory_id, score, reason, rank, matched)
       SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM memories WHERE id = ?)`,
    ),
    touchUse: sqlite.prepare('UPDATE memories SET access_count = access_count + 1, last_used_at = ? WHERE id = ?'),
    versions: sqlite.prepare('SELECT * FROM memory_versions WHERE memory_id = ? ORDER BY version'),
    version: sqlite.prepare('SELECT * FROM memory_versions WHERE memory_id = ? AND version = ?'),
    versionAt: sqlite.prepare('SELECT * FROM memory_versions WHERE memory_id = ? AND created_at <= ? ORDER BY version DESC LIMIT 1'),
    versionBefore: sqlite.prepare('SELECT * FROM memory_versions WHERE memory_id = ? AND version < ? ORDER BY version DESC LIMIT 1'),
    statusBeforeTrash: sqlite.prepare(`SELECT status FROM memory_versions WHERE memory_id = ? AND status != 'trashed' ORDER BY version DESC LIMIT 1`),
    trashedIds: sqlite.prepare(`SELECT id FROM memories WHERE status = 'trashed' AND (? IS NULL OR trashed_at < ?) ORDER BY id`).pluck(),
    threadTitle: sqlite.prepare('SELECT title FROM threads WHERE id = ?').pluck(),
    sourceMessage: sqlite.prepare('SELECT content, attachments FROM messages WHERE id = ?'),
    uses: sqlite.prepare(
      `SELECT mm.message_id, msg.thread_id, mm.score, mm.reason, mm.rank, msg.created_at
       FROM message_memories mm JOIN messages msg ON msg.id = mm.message_id
       WHERE mm.memory_id = ? ORDER BY mm.message_id DESC LIMIT ?`,
    ),
    usesCount: sqlite.prepare('SELECT count(*) AS n FROM message_memories WHERE memory_id = ?'),
    byStatus: sqlite.prepare(`SELECT status, count(*) AS n FROM memories WHERE status != '${IMPORTING}' GROUP BY status`),
    activeByCategory: sqlite.prepare(`SELECT category, count(*) AS n FROM memories WHERE status = 'active' GROUP BY category`),
    activePinned: sqlite.prepare(`SELECT count(*) AS n FROM memories WHERE status = 'active' AND pinned = 1`),
    activeExpired: sqlite.prepare(`SELECT count(*) AS n FROM memories WHERE status = 'active' AND expires_at IS NOT NULL AND expires_at <= ?`),
    learnedWithin: sqlite.prepare(
      `SELECT m.id FROM json_each(?) AS j CROSS JOIN memories m ON m.id = j.value WHERE m.created_at >= ? AND ${LEARNED_AT_SQL} >= ? AND ${LEARNED_AT_SQL} < ?`,
    ).pluck(),
    // Vectors are expected for every memory but rejected ones (and those an unfinished import still hides).
    // Index-friendly form of "embedding_model IS NOT ?": two range scans of memories_embedding_model_idx.
    missingVectors: sqlite.prepare(
      `SELECT id, content FROM memories WHERE ${VECTOR_ELIGIBLE}
         AND (embedding_model IS NULL OR embedding_model < @model OR embedding_model > @model) ORDER BY id LIMIT @limit`,
    ),
    missingCount: sqlite.prepare(
      `SELECT count(*) AS n FROM memories WHERE ${VECTOR_ELIGIBLE}
         AND (embedding_model IS NULL OR embedding_model < @model OR embedding_model > @model)`,
    ),
    eligibleCount: sqlite.prepare(`SELECT count(*) AS n FROM memories WHERE ${VECTOR_ELIGIBLE}`),
    withAnyVector: sqlite.prepare(`SELECT count(*) AS n FROM memories WHERE ${VECTOR_ELIGIBLE} AND embedding_model IS NOT NULL`),
    asOfCount: sqlite.prepare(`SELECT count(*) AS n ${asOfBase}`).pluck(),
    asOf: sqlite.prepare(`SELECT v.memory_id, v.version, v.content, v.category, v.importance, v.pinned ${asOfBase} ORDER BY v.pinned DESC, v.importance DESC, v.memory_id LIMIT @limit OFFSET @offset`),
  };
  const count = (statement: { get(...params: unknown[]): unknown }, ...params: unknown[]) => (statement.get(...params) as { n: number }).n;
  // The limit is written into the SQL, one statement per limit: bound as a parameter, the planner takes it for a small
  // one and walks the importance index through every active memory (16 ms at 30k) instead of reading the few pinned
  // ones through (status, pinned) and sorting them (6 us).
  const pinnedActive = new Map<number, Database.Statement>();
  const pinnedActiveUpTo = (limit: number): Database.Statement => {
    if (!Number.isInteger(limit) || limit < 0) throw new Error(`invalid limit ${limit}`);
    let statement = pinnedActive.get(limit);
    if (!statement) {
      statement = sqlite.prepare(pinnedActiveSql(limit));
      pinnedActive.set(limit, statement);
    }
    return statement;
  };
  const row = (id: number) => q.byId.get(id) as MemoryRow | undefined;

  return {
    /** Runs `fn` in one IMMEDIATE transaction (a savepoint inside another): db/write-transaction.ts. */
    transaction: <T>(fn: () => T): T => writeTransaction(sqlite, fn),
    /** The WAL folded back after a purge committed (db/checkpoint-after-purge.ts). */
    checkpointAfterPurge: (logger: Logger) => checkpointAfterPurge(sqlite, logger),

    // One memory. A memory an unfinished import is writing does not exist for these (IMPORTING).
    row,
    /** The row, or NOT_FOUND. */
    mustRow(id: number): MemoryRow {
      const r = row(id);
      if (!r) throw new MnemoError('NOT_FOUND', `Memory ${id} does not exist (it may have been purged).`);
      return r;
    },
    /** Rows with this content hash, newest first. */
    byHash: (hash: string) => q.byHash.all(hash) as MemoryRow[],

    // Writes (memory-writer.ts only).
    insert: (r: NewMemoryRow): number => Number(q.insert.run(r).lastInsertRowid),
    update: (r: MemoryRow): void => void q.update.run(r),
    /** Writes the next version of a memory; returns its number. */
    insertVersion(v: NewVersion): number {
      const out = q.insertVersion.get(v.memoryId, v.memoryId, v.content, v.category, v.importance, v.pinned, v.status, v.expiresAt, v.origin, v.reason, v.createdAt) as { version: number };
      return out.version;
    },
    /** Records the model of a vector, if the memory's text is still `content`; returns whether it did. */
    setEmbeddingModel: (modelId: string, id: number, content: string): boolean => q.setEmbeddingModel.run(modelId, id, content).changes > 0,
    clearEmbeddingModels: (): void => void q.clearEmbeddingModels.run(),
    hideForImport: (batch: string, id: number): void => void q.hideForImport.run(batch, id),
    importBatchIds: (batch: string) => q.importBatchIds.all(batch) as number[],
    publishImported: (id: number): void => void q.publishOne.run(id),
    latestVersion: (id: number) => q.latestVersion.get(id) as number | null,
    deleteHidden: (id: number): void => void q.deleteHidden.run(id),
    deleteMemory: (id: number): void => void q.deleteMemory.run(id),
    ftsInsert: (id: number, doc: string): void => void q.ftsInsert.run(BigInt(id), doc),
    ftsDelete: (id: number): void => void q.ftsDelete.run(BigInt(id)),
    /** Merges the FTS segments (a purge's tombstones go with their tokens). */
    ftsOptimize: (): void => void q.ftsOptimize.run(),
    /** One use of a memory by an answer, if the memory still exists; returns whether it was written. */
    recordUse: (messageId: number, memoryId: number, score: number, reason: MemoryReason, rank: number, matched: string | null): boolean =>
      q.recordUse.run(messageId, memoryId, score, reason, rank, matched, memoryId).changes > 0,
    touchUse: (at: number, id: number): void => void q.touchUse.run(at, id),

    // Versions, uses and provenance.
    versions: (id: number) => q.versions.all(id) as VersionRow[],
    version: (id: number, version: number) => q.version.get(id, version) as VersionRow | undefined,
    /** The latest version written at or before `at`. */
    versionAt: (id: number, at: number) => q.versionAt.get(id, at) as VersionRow | undefined,
    /** The version before `version`. */
    versionBefore: (id: number, version: number) => q.versionBefore.get(id, version) as VersionRow | undefined,
    /** The newest status a memory had outside the trash. */
    statusBeforeTrash: (id: number) => (q.statusBeforeTrash.get(id) as { status: MemoryStatus } | undefined)?.status,
    /** Trashed memories, all or those trashed before a time. */
    trashedIds: (before: number | null) => q.trashedIds.all(before, before) as number[],
    threadTitle: (threadId: number) => (q.threadTitle.get(threadId) as string | undefined) ?? null,
    sourceMessage: (messageId: number) => q.sourceMessage.get(messageId) as { content: string; attachments: string | null } | undefined,
    uses: (id: number, limit: number) => q.uses.all(id, limit) as UseRow[],
    usesCount: (id: number) => count(q.usesCount, id),
    /** Import batches with hidden memories, and when each last wrote one. */
    pendingImports: () => q.pendingImports.all() as Array<{ batch: string; lastWriteAt: number }>,

    // Counts (memory.stats).
    countsByStatus: () => q.byStatus.all() as Array<{ status: MemoryStatus; n: number }>,
    activeCountsByCategory: () => q.activeByCategory.all() as Array<{ category: MemoryCategory; n: number }>,
    activePinnedCount: () => count(q.activePinned),
    activeExpiredCount: (at: number) => count(q.activeExpired, at),

    // Lists and search (memory-search.ts decides what they are for).
    /** The rows among `ids` that pass the filters. */
    rowsAmong(ids: readonly number[], filters: MemoryFilters, at: number): MemoryRow[] {
      const { where, params } = filterSql(filters, at);
      // CROSS JOIN fixes the loop order: a rowid lookup per candidate, not a scan of the status index (the planner
      // has no statistics to know that a few hundred ids are fewer than 100k active rows).
      return sqlite.prepare(`SELECT m.* FROM json_each(?) AS j CROSS JOIN memories m ON m.id = j.value WHERE ${where.join(' AND ')}`).all(JSON.stringify(ids), ...params) as MemoryRow[];
    },
    /** Those of `ids` learned within [from, to) (LEARNED_AT_SQL). */
    learnedWithin: (ids: readonly number[], window: { from: number; to: number }) => q.learnedWithin.all(JSON.stringify(ids), window.from, window.from, window.to) as number[],
    /** Rows passing the filters, newest first. */
    newest(filters: MemoryFilters, at: number, limit: number): MemoryRow[] {
      const { where, params } = filterSql(filters, at);
      return sqlite.prepare(`SELECT m.* FROM memories m WHERE ${where.join(' AND ')} ORDER BY m.created_at DESC, m.id DESC LIMIT ?`).all(...params, limit) as MemoryRow[];
    },
    /** Active, pinned, unexpired memories: most important, then most recently changed, first. */
    pinnedActive: (at: number, limit: number) => pinnedActiveUpTo(limit).all(at) as MemoryRow[],
    /** A page of the rows passing the filters and matching an FTS query (null: any), in a sort order, and their total. */
    page(input: { filters: MemoryFilters; match: string | null; sort: MemorySortKey; limit: number; offset: number; at: number }): { rows: MemoryRow[]; total: number } {
      const { where, params } = filterSql(input.filters, input.at);
      let from = 'memories m';
      if (input.match !== null) {
        // Few keyword matches: start from them (rowid lookups). Many: walk the sort index and test membership,
        // which stops after a page. Counting matches first is cheap (the FTS index alone).
        if (count(q.ftsCount, input.match) <= FTS_DRIVES_BELOW) {
          from = '(SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ?) AS f CROSS JOIN memories m ON m.id = f.id';
          params.unshift(input.match);
        } else {
          where.push('m.id IN (SELECT rowid FROM memories_fts WHERE memories_fts MATCH ?)');
          params.push(input.match);
        }
      }
      const clause = where.join(' AND ');
      const total = count(sqlite.prepare(`SELECT count(*) AS n FROM ${from} WHERE ${clause}`), ...params);
      const rows = sqlite.prepare(`SELECT m.* FROM ${from} WHERE ${clause} ORDER BY ${SORT_SQL[input.sort]} LIMIT ? OFFSET ?`).all(...params, input.limit, input.offset) as MemoryRow[];
      return { rows, total };
    },
    /** Rows passing the filters whose FTS entry matches `match`, newest first. */
    matching(match: string, filters: MemoryFilters, at: number, limit: number): MemoryRow[] {
      const { where, params } = filterSql(filters, at);
      return sqlite
        .prepare(
          `SELECT m.* FROM (SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ?) AS f CROSS JOIN memories m ON m.id = f.id
           WHERE ${where.join(' AND ')} ORDER BY m.id DESC LIMIT ?`,
        )
        .all(match, ...params, limit) as MemoryRow[];
    },

    // Vectors (memory-vectors.ts): every memory but rejected ones, and those an unfinished import hides, should have one.
    /** Memories without a vector of `model`, by id. */
    missingVectors: (modelId: string, limit: number) => q.missingVectors.all({ model: modelId, limit }) as Array<{ id: number; content: string }>,
    missingVectorCount: (modelId: string) => count(q.missingCount, { model: modelId }),
    vectorEligibleCount: () => count(q.eligibleCount),
    withAnyVectorCount: () => count(q.withAnyVector),

    /** The latest version of each memory written at or before `at`, active and unexpired then; a page and the total. */
    asOf(at: number, limit: number, offset: number): { rows: AsOfRow[]; total: number } {
      return { total: q.asOfCount.get({ at }) as number, rows: q.asOf.all({ at, limit, offset }) as AsOfRow[] };
    },
  };
}

export type MemoryStore = ReturnType<typeof createMemoryStore>;

/** The memories family's stores and its search indexes, over one database connection. */
export interface MemoryStores {
  memories: MemoryStore;
  upkeep: MemoryUpkeepStore;
  keywords: KeywordIndex;
  vectors: VectorIndex;
}

export function createMemoryStores(sqlite: Sqlite, options: { vectorSearch?: VectorIndexOptions } = {}): MemoryStores {
  return {
    memories: createMemoryStore(sqlite),
    upkeep: createMemoryUpkeepStore(sqlite),
    keywords: createKeywordIndex(sqlite),
    vectors: createVectorIndex(sqlite, options.vectorSearch),
  };
}
