/**
 * Moving memories between statuses and out of existence, one or many at a time: trash, restore, archive, pin,
 * recategorize, purge, empty the trash. The rows are written by memory-writer.ts; this file holds which change each
 * action makes to which memory, and what a purge does after its commit.
 *
 * Invariants:
 * - A bulk action is one transaction; a memory it does not apply to (already trashed, not archived...) is skipped and
 *   counted, never an error. Bus events go out after the commit.
 * - Restore brings a memory back to the status it had before the trash (active, archived, in review...), and out of
 *   the archive to active.
 * - A bulk purge only reaches memories already in the trash.
 * - A purge takes what was written from the purged memories with it, in its transaction (derived-memories.ts): the
 *   consolidation summaries written from them (their other originals come back active) and, through
 *   `writtenFromMemories`, the profile's lines that draw on them. The answer counts both.
 * - After a purge commits, the WAL is checkpointed (TRUNCATE) so the text is not left in it, then the same memories
 *   are erased from every backup (backup-scrub.ts); the answer says what happened there, the files that could not be
 *   changed included.
 */
import type { Memory, MemoryChangedKind, OpOutput, OpParsedInput } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { NOTHING_ERASED, type BackupScrubber, type PurgedMemory } from '../ports/backup-scrubber.port';
import type { EventBus } from '../runtime/event-bus';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import { toMemory, type MemoryRow } from './memory.repo';
import type { MemoryStore } from './memory.store';
import type { MemoryUpkeepStore } from './memory-upkeep.store';
import { createDerivedMemories } from './derived-memories';
import type { MemoryPatch, MemoryWriter } from './memory-writer';

export interface MemoryBulk {
  bulk(input: OpParsedInput<'memory.bulk'>): Promise<OpOutput<'memory.bulk'>>;
  /** forgotten: trashed because the user asked to forget it (memory-forget.ts): the asking message, null from a tool call. */
  trash(memoryId: number, how?: { forgotten: number | null }): Memory;
  restore(memoryId: number): Memory;
  purge(memoryIds: readonly number[]): Promise<OpOutput<'memory.purge'>>;
  emptyTrash(trashedBefore?: number): Promise<OpOutput<'memory.emptyTrash'>>;
}

export interface MemoryBulkDeps {
  store: MemoryStore;
  upkeep: MemoryUpkeepStore;
  clock: Clock;
  events: EventBus;
  logger: Logger;
  writer: MemoryWriter;
  /** Erases purged memories from the backups, after the purge has committed here. */
  backups: BackupScrubber;
  writtenFromMemories?: WrittenFromMemories | undefined;
}

/**
 * Text written from memories outside the memories table (the profile): told of a purge inside its transaction, with
 * every wording each purged memory had; says how many lines it removed and what to announce after the commit.
 */
export interface WrittenFromMemories {
  forget(purged: ReadonlyArray<{ id: number; content: string }>): { lines: number; afterCommit?: (() => void) | undefined };
}

type PurgeOutput = OpOutput<'memory.purge'>;

const PURGE_CHUNK = 500;

/** Version reason and timeline kind of each bulk action. */
const BULK_EFFECT = {
  delete: { reason: 'deleted', eventKind: 'deleted' },
  archive: { reason: 'archived', eventKind: 'archived' },
  unarchive: { reason: 'unarchived', eventKind: 'unarchived' },
  pin: { reason: 'pinned', eventKind: 'updated' },
  unpin: { reason: 'unpinned', eventKind: 'updated' },
  recategorize: { reason: 'recategorized', eventKind: 'updated' },
  restore: { reason: 'restored', eventKind: 'restored' },
} as const satisfies Record<Exclude<OpParsedInput<'memory.bulk'>['action'], 'purge'>, { reason: string; eventKind: MemoryChangedKind }>;

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

export function createMemoryBulk(deps: MemoryBulkDeps): MemoryBulk {
  const { store, clock, events, logger, writer } = deps;
  const derived = createDerivedMemories(deps.upkeep);
  const now = () => clock.now();

  /** Out of the trash to where it was (active, archived, in review...); out of the archive to active; else null. */
  function restorePatch(r: MemoryRow): MemoryPatch | null {
    if (r.status === 'archived') return { status: 'active' };
    if (r.status !== 'trashed') return null;
    const previous = store.statusBeforeTrash(r.id);
    return { status: previous ?? 'active' };
  }

  /** One chunk: the memories, the summaries written from them, their remaining originals back, the profile's lines. */
  function purgeChunk(ids: readonly number[]) {
    return writer.transaction(() => {
      const given = new Set(ids.filter((id) => store.row(id) !== undefined));
      const all = derived.closure([...given]);
      const summaries = all.filter((id) => !given.has(id));
      const restored = derived.remainingOriginals(summaries, new Set(all)).map((id) =>
        toMemory(
          writer.applyPatch(store.mustRow(id), { status: 'active', supersededBy: null }, { origin: 'user', reason: 'unconsolidated', eventKind: 'restored', eventData: { sourcePurged: true } })!,
          now(),
        ),
      );
      const wordings = all.map((id) => ({ id, content: derived.allWording(id) })).filter((w) => w.content !== '');
      const gone = writer.purge(all);
      const written = deps.writtenFromMemories?.forget(wordings) ?? { lines: 0 };
      return { gone, summaries: gone.filter((m) => !given.has(m.id)).length, restored, written };
    });
  }

  async function purgeIds(ids: readonly number[]): Promise<PurgeOutput & { ids: number[] }> {
    const purged: PurgedMemory[] = [];
    const returned: PurgedMemory[] = [];
    const result = { summaries: 0, profileLines: 0 };
    for (let i = 0; i < ids.length; i += PURGE_CHUNK) {
      const chunk = purgeChunk(ids.slice(i, i + PURGE_CHUNK));
      purged.push(...chunk.gone);
      result.summaries += chunk.summaries;
      result.profileLines += chunk.written.lines;
      returned.push(...chunk.restored.map((m) => ({ id: m.id, createdAt: m.createdAt })));
      emitAll('memory.restored', chunk.restored);
      chunk.written.afterCommit?.();
    }
    if (purged.length === 0) return { purged: 0, backups: NOTHING_ERASED, derived: result, ids: [] };
    checkpoint();
    const backups = await deps.backups.eraseMemories(purged, returned);
    return { purged: purged.length - result.summaries, backups, derived: result, ids: purged.map((m) => m.id) };
  }

  const checkpoint = () => store.checkpointAfterPurge(logger);

  function emitAll(kind: 'memory.updated' | 'memory.deleted' | 'memory.restored', memories: Memory[]): void {
    for (const memory of memories) events.emit(kind, { memory });
  }

  return {
    trash(memoryId, how) {
      const memory = writer.transaction(() => {
        const r = store.mustRow(memoryId);
        if (r.status === 'trashed') return null;
        const eventData = how ? { eventData: { forgotten: how.forgotten } } : {};
        return toMemory(writer.applyPatch(r, { status: 'trashed' }, { origin: 'user', reason: 'deleted', eventKind: 'deleted', ...eventData })!, now());
      });
      if (!memory) return toMemory(store.mustRow(memoryId), now());
      events.emit('memory.deleted', { memory });
      return memory;
    },

    restore(memoryId) {
      const memory = writer.transaction(() => {
        const r = store.mustRow(memoryId);
        const patch = restorePatch(r);
        if (!patch) throw new MnemoError('CONFLICT', `Memory ${memoryId} is not in the trash or the archive (it is ${r.status}).`);
        return toMemory(writer.applyPatch(r, patch, { origin: 'user', reason: 'restored', eventKind: 'restored' })!, now());
      });
      events.emit('memory.restored', { memory });
      return memory;
    },

    async purge(memoryIds) {
      for (const id of memoryIds) store.mustRow(id);
      const { ids, ...result } = await purgeIds(memoryIds);
      if (ids.length > 0) events.emit('memory.purged', { memoryIds: ids });
      return result;
    },

    async emptyTrash(trashedBefore) {
      const trashed = store.trashedIds(trashedBefore ?? null);
      const { ids, ...result } = await purgeIds(trashed);
      if (ids.length > 0) events.emit('memory.purged', { memoryIds: ids });
      return result;
    },

    async bulk(input) {
      const { action } = input;
      const unique = [...new Set(input.memoryIds)];
      if (action === 'purge') {
        // Only from the trash: a bulk purge must never reach a memory the user did not delete first.
        const trashed = unique.filter((id) => store.row(id)?.status === 'trashed');
        const { purged, backups, derived: written, ids } = await purgeIds(trashed);
        if (ids.length > 0) events.emit('memory.purged', { memoryIds: ids });
        return { changed: purged, skipped: unique.length - purged, backups, derived: written };
      }
      const changed: Memory[] = [];
      let skipped = 0;
      writer.transaction(() => {
        for (const id of unique) {
          const r = store.row(id);
          const patch = !r ? null : action === 'restore' ? restorePatch(r) : bulkPatch(r, input);
          if (!r || !patch) {
            skipped++;
            continue;
          }
          const { reason, eventKind } = BULK_EFFECT[action];
          const next = writer.applyPatch(r, patch, { origin: 'user', reason, eventKind, eventData: { bulk: true } });
          if (next) changed.push(toMemory(next, now()));
          else skipped++;
        }
      });
      emitAll(action === 'delete' ? 'memory.deleted' : action === 'restore' ? 'memory.restored' : 'memory.updated', changed);
      return { changed: changed.length, skipped };
    },
  };
}
