/**
 * The long-term memory store as its callers see it: the contract's memory operations, retrieval for chat, and the
 * writes and lookups extraction, import, maintenance and review build on. It assembles the parts and checks what a
 * user may write; each rule lives in the part that enforces it:
 * - memory-writer.ts: the only code that writes memories (row, version, timeline event, FTS entry and vector in one
 *   transaction; synchronous, no bus events).
 * - memory-search.ts: list, hybrid search, prompt retrieval (never an inactive or expired memory; pinned first).
 * - memory-vectors.ts: vectors made outside any transaction, missing ones filled in the background.
 * - memory-bulk.ts: trash, restore, bulk actions and purge (WAL checkpoint and backups scrubbed after the commit).
 * The parts read and write through the stores they are handed (memory.store.ts createMemoryStores), never `sqlite`.
 *
 * Invariants kept here:
 * - What the user writes (create, edit, revert) follows the rules a learned memory does: no secrets
 *   (secret-detector.ts), no exact duplicate of an active, archived or in-review memory (checked again inside the
 *   write transaction, since making the vector awaited).
 * - Bus events (memory.created, ...) are emitted only after the transaction commits.
 */
import type { Memory, MemoryCategory, MemoryHit, MemoryReason, MemoryStatus, OpOutput, OpParsedInput, Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { BackupScrubber } from '../ports/backup-scrubber.port';
import type { MemoryRetrievalPort } from '../ports/memory-retrieval.port';
import type { MessageBranches } from '../conversation/message-branches';
import type { EmbeddingService } from '../embedding/embedding.service';
import type { EventBus } from '../runtime/event-bus';
import { secretRefusal } from '../safety/secret-detector';
import { evidenceFile } from './learned-files';
import { attachmentsOf } from '../conversation/messages.store';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import type { TimelineWriter } from '../db/timeline-writer';
import { contentHash } from './content-hash';
import { createMemoryBulk, type MemoryBulk, type WrittenFromMemories } from './memory-bulk';
import { createMemorySearch, type MemorySearch } from './memory-search';
import { createMemoryVectors, readyModelOf, type MemoryVectors } from './memory-vectors';
import { createMemoryWriter, patched, type MemoryPatch, type MemoryWrites, type PreparedEmbedding } from './memory-writer';
import { createMemoryLineage } from './memory-lineage';
import { toMemory, toVersion } from './memory.repo';
import type { MemoryStores } from './memory.store';

export interface MemoryService extends MemoryWrites {
  // Contract operations.
  create(input: OpParsedInput<'memory.create'>): Promise<Memory>;
  get(input: OpParsedInput<'memory.get'>): OpOutput<'memory.get'>;
  list(input: OpParsedInput<'memory.list'>): OpOutput<'memory.list'>;
  search(input: OpParsedInput<'memory.search'>): Promise<OpOutput<'memory.search'>>;
  update(input: OpParsedInput<'memory.update'>): Promise<Memory>;
  trash: MemoryBulk['trash'];
  restore: MemoryBulk['restore'];
  purge: MemoryBulk['purge'];
  emptyTrash: MemoryBulk['emptyTrash'];
  revert(memoryId: number, version: number): Promise<Memory>;
  bulk: MemoryBulk['bulk'];
  stats(): Promise<OpOutput<'memory.stats'>>;

  // For chat (MemoryRetrievalPort).
  retrieveForPrompt: MemorySearch['retrieveForPrompt'];
  related: MemorySearch['related'];
  /** Hybrid search with any filters (the memory tools: chat/memory-tool-sources.ts). */
  hybridSearch: MemorySearch['hybridSearch'];
  newestLearnedWithin: MemorySearch['newestLearnedWithin'];
  /** Records which memories an answer used and bumps their use counts. Synchronous: runs inside the caller's transaction. */
  recordUse(messageId: number, items: ReadonlyArray<{ memoryId: number; score: number; reason: MemoryReason; matched?: readonly string[] }>): void;

  // Lookups for extraction, import and maintenance: synchronous, usable inside a caller's transaction.
  findByHash(hash: string): Memory[];
  getMemory(memoryId: number): Memory | null;
  /** Whether the memory was learned, confirmed or merged from this user message or another version of it (message-branches.ts). */
  heardFrom(memoryId: number, userMessageId: number): boolean;
  /** Import batches with hidden memories, and when each last wrote one. */
  pendingImports(): Array<{ batch: string; lastWriteAt: number }>;
  withAnyWord: MemorySearch['withAnyWord'];
  nearest: MemorySearch['nearest'];
  prepareEmbeddings: MemoryVectors['prepareEmbeddings'];

  // Background: vectors for memories that have none of the current model.
  fillMissingVectors: MemoryVectors['fillMissingVectors'];
  missingVectorCount: MemoryVectors['missingVectorCount'];
}

export interface MemoryServiceDeps {
  /** memory.store.ts createMemoryStores: the family's stores and search indexes, over one connection. */
  stores: MemoryStores;
  clock: Clock;
  events: EventBus;
  logger: Logger;
  embedding: EmbeddingService;
  settings: () => Settings;
  /** Erases purged memories from the backups, after the purge has committed here. */
  backups: BackupScrubber;
  timeline: TimelineWriter;
  branches: MessageBranches;
  /** Text written from memories elsewhere (the profile), which a purge reaches too (memory-bulk.ts). */
  writtenFromMemories?: WrittenFromMemories;
}

/** Statuses an exact duplicate typed by hand collides with. */
const DUPLICATE_STATUSES: MemoryStatus[] = ['active', 'archived', 'review'];
const STATUSES: MemoryStatus[] = ['active', 'archived', 'trashed', 'superseded', 'review', 'rejected'];
const CATEGORIES: MemoryCategory[] = ['knowledge', 'preference', 'project', 'skill'];

export function createMemoryService(deps: MemoryServiceDeps): MemoryService {
  const { stores, clock, events, logger, embedding } = deps;
  const { memories: store, upkeep } = stores;
  const { branches } = deps;
  const index = stores.vectors;
  const writer = createMemoryWriter({
    store,
    clock,
    logger,
    timeline: deps.timeline,
    keywords: stores.keywords,
    vectors: index,
    readyModel: () => readyModelOf(embedding.status()),
  });
  const vectors = createMemoryVectors({ store, embedding, logger, index, writer });
  const search = createMemorySearch({ store, clock, settings: deps.settings, keywords: stores.keywords, index, vectors });
  const bulk = createMemoryBulk({ store, upkeep, clock, events, logger, writer, backups: deps.backups, writtenFromMemories: deps.writtenFromMemories });
  const lineage = createMemoryLineage(upkeep);

  const now = () => clock.now();
  const { mustRow } = store;
  const memoryOf = (id: number): Memory => toMemory(mustRow(id), now());
  /** The learned file of its source message that a memory's evidence came from (learned-files.ts), or null. */
  const sourceFile = (messageId: number | null, evidence: string | null): string | null => {
    const m = messageId === null ? undefined : store.sourceMessage(messageId);
    return m ? evidenceFile(evidence, m.content, attachmentsOf(m.attachments)) : null;
  };

  /** A memory the user writes or edits follows the same rule as one Mnemo learns: no secrets (secret-detector.ts). */
  function refuseSecret(content: string): void {
    const why = secretRefusal(content);
    if (why) throw new MnemoError('INVALID_INPUT', `This was not saved: ${why}.`, { path: 'content' });
  }

  function refuseDuplicate(content: string, exceptId?: number): void {
    const dup = store.byHash(contentHash(content)).find((r) => r.id !== exceptId && DUPLICATE_STATUSES.includes(r.status));
    if (dup) {
      throw new MnemoError('CONFLICT', `You already have this memory (#${dup.id}, ${dup.status}). Edit that one instead.`, {
        details: { memoryId: dup.id },
      });
    }
  }

  function userReason(changed: Array<keyof MemoryPatch>, patch: MemoryPatch): string {
    if (changed.length === 1 && changed[0] === 'pinned') return patch.pinned ? 'pinned' : 'unpinned';
    if (changed.length === 1 && changed[0] === 'category') return 'recategorized';
    return 'edited';
  }

  const vectorFor = async (content: string): Promise<PreparedEmbedding | null> => (await vectors.prepareEmbeddings([content]))?.[0] ?? null;

  return {
    async create(input) {
      if (input.expiresAt != null && input.expiresAt <= now()) {
        throw new MnemoError('INVALID_INPUT', 'The expiry date is already past; choose a later one or none.', { path: 'expiresAt' });
      }
      refuseSecret(input.content);
      refuseDuplicate(input.content);
      const prepared = await vectorFor(input.content);
      const memory = writer.transaction(() => {
        refuseDuplicate(input.content); // again: another write may have landed while the vector was made
        return writer.createMemory(
          { content: input.content, category: input.category, importance: input.importance, pinned: input.pinned, expiresAt: input.expiresAt ?? null },
          { origin: 'user', embedding: prepared },
        );
      });
      events.emit('memory.created', { memory });
      return memory;
    },

    get({ memoryId, usesLimit }) {
      const r = mustRow(memoryId);
      const versions = store.versions(memoryId).map(toVersion);
      const threadTitle = r.source_thread_id === null ? null : store.threadTitle(r.source_thread_id);
      const uses = store.uses(memoryId, usesLimit).map((u) => ({
        messageId: u.message_id,
        threadId: u.thread_id,
        score: u.score,
        reason: u.reason,
        rank: u.rank,
        at: u.created_at,
      }));
      const file = sourceFile(r.source_message_id, r.evidence);
      return {
        memory: toMemory(r, now()),
        versions,
        provenance: {
          threadId: r.source_thread_id,
          threadTitle,
          messageId: r.source_message_id,
          evidence: r.evidence,
          // Named only when the evidence came from a file the user let Mnemo learn from (older readers see the same shape).
          ...(file !== null ? { file } : {}),
          // Learned from a question the user edited afterwards: kept, and said so (conversation/message-branches.ts).
          ...(r.source_message_id !== null && branches.wasEditedLater(r.source_message_id) ? { messageEdited: true } : {}),
          // Written by a connected app (MCP): its origin reads 'extraction', so the app is named here.
          ...upkeep.writtenBy(memoryId),
        },
        uses,
        usesTotal: store.usesCount(memoryId),
        // A supersede, both ways: what it replaced, and what replaced it (the chat's chips read supersededBy).
        ...lineage.of(memoryId),
      };
    },

    list: search.list,

    async search({ query, limit, ...filters }) {
      const { hits, mode } = await search.hybridSearch(query, filters, { limit, keyword: 'search' });
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
      const prepared = contentChanges ? await vectorFor(patch.content!) : null;
      const result = writer.transaction(() => {
        const current = mustRow(memoryId);
        const reason = userReason(patched(current, patch).changed, patch);
        const next = writer.applyPatch(current, patch, { origin: 'user', reason, embedding: prepared });
        return next ? toMemory(next, now()) : null;
      });
      if (!result) return memoryOf(memoryId);
      events.emit('memory.updated', { memory: result });
      return result;
    },

    trash: bulk.trash,
    restore: bulk.restore,
    purge: bulk.purge,
    emptyTrash: bulk.emptyTrash,
    bulk: bulk.bulk,

    async revert(memoryId, version) {
      const current = mustRow(memoryId);
      const v = store.version(memoryId, version);
      if (!v) throw new MnemoError('NOT_FOUND', `Memory ${memoryId} has no version ${version}.`);
      const prepared = current.content !== v.content ? await vectorFor(v.content) : null;
      const memory = writer.updateMemory(
        memoryId,
        { content: v.content, category: v.category, importance: v.importance, pinned: v.pinned === 1, expiresAt: v.expires_at },
        { origin: 'user', reason: 'reverted', eventKind: 'reverted', touch: true, embedding: prepared, eventData: { revertedTo: version } },
      );
      events.emit('memory.updated', { memory });
      return memory;
    },

    async stats() {
      await embedding.ensureReady();
      const status = embedding.status();
      const at = now();
      const byStatus = Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<MemoryStatus, number>;
      for (const row of store.countsByStatus()) byStatus[row.status] = row.n;
      const byCategory = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<MemoryCategory, number>;
      for (const row of store.activeCountsByCategory()) byCategory[row.category] = row.n;
      return {
        total: Object.values(byStatus).reduce((a, b) => a + b, 0),
        byStatus,
        byCategory,
        pinned: store.activePinnedCount(),
        expired: store.activeExpiredCount(at),
        vectors: vectors.counts(status.modelId),
        semanticSearch: status,
      };
    },

    retrieveForPrompt: search.retrieveForPrompt,
    related: search.related,
    hybridSearch: search.hybridSearch,
    newestLearnedWithin: search.newestLearnedWithin,
    recordUse: writer.recordUse,

    transaction: writer.transaction,
    createMemory: writer.createMemory,
    updateMemory: writer.updateMemory,
    publishImport: writer.publishImport,
    discardImport: writer.discardImport,
    noteExpired: writer.noteExpired,

    findByHash(hash) {
      const at = now();
      return store.byHash(hash).map((r) => toMemory(r, at));
    },
    getMemory(memoryId) {
      const r = store.row(memoryId);
      return r ? toMemory(r, now()) : null;
    },
    heardFrom(memoryId, userMessageId) {
      return upkeep.heardFrom(memoryId, branches.versionsOf(userMessageId));
    },
    pendingImports() {
      return store.pendingImports();
    },
    withAnyWord: search.withAnyWord,
    nearest: search.nearest,
    prepareEmbeddings: vectors.prepareEmbeddings,

    fillMissingVectors: vectors.fillMissingVectors,
    missingVectorCount: vectors.missingVectorCount,
  };
}

/**
 * What chat uses: memories for a thread's prompt, leaving out the ones the user excluded from that thread. Only ids,
 * scores, reasons and the matched words (the user's own, from the message) travel with an answer, never the memories' text.
 */
export function memoryRetrievalPort(
  service: MemoryService,
  exclusions: (threadId: number) => readonly number[],
  episodesWithin: MemoryRetrievalPort['episodesWithin'],
): MemoryRetrievalPort {
  return {
    episodesWithin,
    async retrieveForPrompt(input) {
      const excludeIds = new Set([...(input.excludeIds ?? []), ...exclusions(input.threadId)]);
      const { items, text, semanticTimedOut } = await service.retrieveForPrompt({ ...input, excludeIds });
      return { text, semanticTimedOut, items: items.map(({ memoryId, score, reason, matched }) => ({ memoryId, score, reason, ...(matched ? { matched } : {}) })) };
    },
    recordUse: (messageId, items) => service.recordUse(messageId, items),
  };
}
