/**
 * Importing memories: parse (import-parse.ts), plan, then write.
 *
 * Invariants:
 * - Planning only reads, in time slices (time-slicer.ts) so other calls are answered meanwhile; vectors are made in
 *   the embedder's worker thread. A dry run stops after planning, so it writes nothing at all (it does not even let the vector
 *   index follow a new model's dimension: the near-duplicate check is skipped when the index has another dimension).
 * - Vectors are made before the write, in batches, outside any transaction; without an embedder the memories are saved
 *   without one and the background re-embed job fills them in later.
 * - A real run is all or nothing as the user sees it, without holding the database for the whole write (issue 11:
 *   one transaction of 3,000 memories blocked every call for about 1.5 s): it writes in short transactions (one
 *   time slice each), every memory hidden under the import's batch (status 'importing', memory.repo.ts: no read sees
 *   it, no timeline event yet), then publishes them all in one short transaction with a timeline event each and one
 *   summary event. Exact duplicates are checked as each is written and again at publishing (other work may have
 *   written the same text between slices); a duplicate touches nothing. Bus events go out after the publish.
 * - A failure or a shutdown (stop()) mid-write removes the batch; if even that fails (a full disk), the batch is
 *   removed before this process's next import writes. A process killed mid-write leaves its batch hidden; every core
 *   removes such batches at start and before an import writes, once their owner is gone (recoverAbandoned). While a
 *   batch is hidden its rows still sit in the keyword and vector indexes, so a search whose top candidates are mostly
 *   such rows may list fewer results until the import publishes (seconds).
 * - Exact identity is the content hash (content-hash.ts). A hash match in the trash, among rejected or superseded
 *   memories, or a near-duplicate by meaning in the same category, is a conflict: reported, and skipped unless
 *   onConflict is 'import'.
 * - Imported memories are the user's (memory-cap.ts): the cap never counts or trashes them. The report carries the
 *   cap standing after the import (a dry run's as if applied), so the user is told when the total goes past the cap.
 */
import type { ImportItem, ImportReport, MemoryCategory, MemoryStatus, OpParsedInput, Settings } from '../../../shared/contract';
import { userTimeZone } from '../../../shared/time-zone';
import type { EventBus } from '../runtime/event-bus';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import { MnemoError } from '../../../shared/errors';
import { secretRefusal } from '../safety/secret-detector';
import { formatLeaseOwner, judgeLease, newLeaseOwner, type LeaseOwner } from '../jobs/lease-owner';
import { contentHash } from './content-hash';
import { parseImport, type ImportCandidate } from './import-parse';
import type { MemoryCap } from './memory-cap';
import { createTimeSlicer } from '../runtime/time-slicer';
import type { TimelineWriter } from '../db/timeline-writer';
import type { MemoryService } from './memory.service';
import type { MemoryWrites, PreparedEmbedding } from './memory-writer';
import type { VectorIndex } from '../search/vector-index';

export interface MemoryImportDeps {
  /** The vector index, for the dimension its table has now. */
  vectors: Pick<VectorIndex, 'storedDimensions'>;
  clock: Clock;
  events: EventBus;
  logger: Logger;
  /** Writes go through the memory writer's narrow interface; lookups and vectors through the service. */
  memories: MemoryWrites & Pick<MemoryService, 'findByHash' | 'nearest' | 'prepareEmbeddings' | 'pendingImports'>;
  settings: () => Settings;
  timeline: TimelineWriter;
  cap: MemoryCap;
  /** Who writes this core's imports (tests pass another process's identity); default this process. */
  owner?: LeaseOwner;
}

/** Texts embedded per call while planning. */
const EMBED_BATCH = 64;
/**
 * A batch of hidden memories whose newest write is older than this is abandoned even when its process cannot be asked
 * (another machine; a recycled pid): a live import writes a slice every few milliseconds.
 */
const ABANDONED_AFTER_MS = 10 * 60_000;
/** Imports with at least this many items to check announce their progress. */
const PROGRESS_FROM = 100;
/** Hash matches with these statuses mean "you already have this": nothing to do. */
const PRESENT: MemoryStatus[] = ['active', 'archived', 'review'];
const CONFLICT_REASONS: Partial<Record<MemoryStatus, string>> = {
  trashed: 'the same memory is in the trash',
  rejected: 'you rejected this memory before',
  superseded: 'this memory was replaced by a newer one',
};

interface Planned {
  candidate: ImportCandidate;
  item: ImportItem;
  hash: string;
  embedding: PreparedEmbedding | null;
}

export interface MemoryImporter {
  import(input: OpParsedInput<'memory.import'>, signal?: AbortSignal): Promise<ImportReport>;
  /** Removes what imports killed mid-write left hidden; returns how many memories. */
  recoverAbandoned(): number;
  /** Stops running imports (each removes what it wrote) and waits for them: the core is shutting down. */
  stop(): Promise<void>;
}

export function createMemoryImporter(deps: MemoryImportDeps): MemoryImporter {
  const { clock, events, logger, memories } = deps;
  const me = deps.owner ?? newLeaseOwner();
  const owner = formatLeaseOwner(me);
  let batches = 0;
  /** This process's failed imports whose hidden rows could not be removed then (e.g. a full disk): retried. */
  const leftBehind = new Set<string>();
  const shutdown = new AbortController();
  const running = new Set<Promise<ImportReport>>();
  const { timeline, cap, vectors } = deps;

  /** Exact-duplicate outcome of one item against the database, or null when its text is not there. */
  function exactMatch(hash: string): Pick<ImportItem, 'outcome' | 'existingId' | 'reason'> | null {
    const found = memories.findByHash(hash);
    const present = found.find((m) => PRESENT.includes(m.status));
    if (present) return { outcome: 'duplicate', existingId: present.id, reason: `already remembered (#${present.id}, ${present.status})` };
    const other = found[0];
    if (other) return { outcome: 'conflict', existingId: other.id, reason: CONFLICT_REASONS[other.status] ?? `the same memory exists as ${other.status}` };
    return null;
  }

  async function plan(candidates: ImportCandidate[], signal: AbortSignal | undefined): Promise<{ planned: Planned[]; nearDuplicateCheck: boolean }> {
    const firstLine = new Map<string, ImportItem>();
    // Planning only reads, so it can give other calls a turn between items (the write re-checks exact duplicates).
    const slicer = createTimeSlicer();
    const planOne = (candidate: ImportCandidate): Planned => {
      const item: ImportItem = {
        ...(candidate.line !== undefined ? { line: candidate.line } : {}),
        ...(candidate.index !== undefined ? { index: candidate.index } : {}),
        content: candidate.content,
        category: candidate.category,
        outcome: 'new',
      };
      // The secret check costs about 40 µs a line: here it runs in the planning's time slices, not in one parse.
      const invalid = candidate.invalid ?? secretRefusal(candidate.content) ?? undefined;
      if (invalid) return { candidate, item: { ...item, outcome: 'invalid', reason: invalid }, hash: '', embedding: null };
      const hash = contentHash(candidate.content);
      const earlier = firstLine.get(hash);
      if (earlier) {
        const where = earlier.line !== undefined ? `line ${earlier.line}` : `item ${earlier.index}`;
        return { candidate, item: { ...item, outcome: 'duplicate', reason: `repeats ${where} of this import` }, hash, embedding: null };
      }
      firstLine.set(hash, item);
      const match = exactMatch(hash);
      return { candidate, item: match ? { ...item, ...match } : item, hash, embedding: null };
    };
    const planned: Planned[] = [];
    for (const candidate of candidates) {
      planned.push(planOne(candidate));
      await slicer.yield();
      throwIfStopped(signal);
    }

    // Vectors for what may be written: new items, and conflicts in case they are imported anyway.
    const toEmbed = planned.filter((p) => p.item.outcome === 'new' || p.item.outcome === 'conflict');
    const total = toEmbed.length;
    const announce = total >= PROGRESS_FROM;
    let semantic = total > 0;
    for (let i = 0; i < total && semantic; i += EMBED_BATCH) {
      const batch = toEmbed.slice(i, i + EMBED_BATCH);
      const made = await memories.prepareEmbeddings(
        batch.map((p) => p.candidate.content),
        signal,
      );
      if (!made) {
        semantic = false; // semantic search is off: no near-duplicate check, vectors come later
        break;
      }
      batch.forEach((p, j) => (p.embedding = made[j] ?? null));
      if (announce) events.emit('import.progressed', { done: Math.min(i + EMBED_BATCH, total), total });
    }
    if (announce && !semantic) events.emit('import.progressed', { done: total, total });

    // Near-duplicates by meaning, in the same category. Only against vectors the index can compare (same dimension).
    const threshold = deps.settings().nearDuplicateSimilarity;
    // Read from the schema now: the memory service rebuilds the index when the model's dimension changes. Comparing
    // it with a vector's length first keeps nearest() from rebuilding the index, a write a dry run must not make.
    const indexDimensions = vectors.storedDimensions();
    let nearDuplicateCheck = false;
    for (const p of planned) {
      await slicer.yield(); // each nearest() scans the stored vectors
      throwIfStopped(signal);
      if (p.item.outcome !== 'new' || !p.embedding || p.embedding.vector.length !== indexDimensions) continue;
      nearDuplicateCheck = true;
      const [near] = memories.nearest(p.embedding.vector, {
        limit: 1,
        minSimilarity: threshold,
        categories: [categoryOf(p.candidate)],
        statuses: PRESENT,
      });
      if (near) {
        p.item = { ...p.item, outcome: 'conflict', existingId: near.memory.id, reason: `close in meaning to #${near.memory.id} (similarity ${near.similarity.toFixed(2)})` };
      }
    }
    return { planned, nearDuplicateCheck };
  }

  /**
   * Writes what the plan imports, in short transactions between which other calls are answered: every memory hidden
   * under this import's batch, then all of them shown at once with the summary event. Any failure, or a stop asked for
   * meanwhile, removes what was written; a process killed meanwhile leaves hidden rows that recoverAbandoned() removes.
   */
  async function write(planned: Planned[], onConflict: 'skip' | 'import', format: ImportReport['format'], signal: AbortSignal | undefined): Promise<ImportSummary> {
    const batch = `${owner}/${++batches}`;
    const toWrite = planned.filter((p) => isWritten(p.item, onConflict));
    const slicer = createTimeSlicer();
    try {
      for (let next = 0; next < toWrite.length; ) {
        throwIfStopped(signal);
        memories.transaction(() => {
          do {
            writeHidden(toWrite[next++]!, batch);
          } while (next < toWrite.length && !slicer.spent());
        });
        await slicer.yield();
      }
      return memories.transaction(() => {
        // Again at the end: an exact duplicate may have been written by other work between the slices.
        const late: number[] = [];
        for (const p of toWrite) {
          const now = p.item.memoryId === undefined ? null : exactMatch(p.hash);
          if (now?.outcome !== 'duplicate') continue;
          late.push(p.item.memoryId!);
          p.item = withoutWrite(p.item, now);
        }
        if (late.length > 0) memories.discardImport(batch, late);
        const written = memories.publishImport(batch, 'imported');
        const summary = { written, ...counts(planned) };
        timeline.record('import_completed', {}, { ...summary, format, origin: 'import' });
        return summary;
      });
    } catch (e) {
      try {
        memories.discardImport(batch);
      } catch (cleanup) {
        // Still hidden: removed before the next import writes, or at the next start of any host.
        leftBehind.add(batch);
        logger.error('could not remove the memories of a failed import', { code: cleanup instanceof MnemoError ? cleanup.code : 'error' });
      }
      throw e;
    }
  }

  /** One memory of the plan, hidden under the batch; an exact duplicate written since planning is reported instead. */
  function writeHidden(p: Planned, batch: string): void {
    const now = exactMatch(p.hash);
    if (now?.outcome === 'duplicate') {
      p.item = { ...p.item, ...now };
      return;
    }
    const c = p.candidate;
    const memory = memories.createMemory(
      {
        content: c.content,
        category: categoryOf(c),
        ...(c.importance !== undefined ? { importance: c.importance } : {}),
        ...(c.confidence !== undefined ? { confidence: c.confidence } : {}),
        ...(c.pinned !== undefined ? { pinned: c.pinned } : {}),
        validFrom: c.validFrom ?? null,
        expiresAt: c.expiresAt ?? null,
      },
      {
        origin: 'import',
        status: c.status ?? 'active',
        evidence: c.evidence ?? null,
        embedding: p.embedding,
        reason: 'imported',
        importBatch: batch,
        ...(c.history ? { history: c.history } : {}),
      },
    );
    p.item = { ...p.item, memoryId: memory.id, ...(p.item.outcome === 'conflict' ? { imported: true } : {}) };
  }

  /**
   * Removes the hidden memories of imports whose process is gone (killed, crashed, lost power): the same judgement
   * as a job's lease (lease-owner.ts), with the batch's newest write as its heartbeat. This process's own imports
   * are never touched. Runs when the core starts and before every import writes.
   */
  function recoverAbandoned(): number {
    let removed = 0;
    for (const { batch, lastWriteAt } of memories.pendingImports()) {
      const lease = { owner: batch.slice(0, batch.lastIndexOf('/')), expiresAt: lastWriteAt + ABANDONED_AFTER_MS };
      if (!leftBehind.has(batch) && judgeLease(lease, me, clock.now()) !== 'gone') continue;
      const n = memories.discardImport(batch);
      leftBehind.delete(batch);
      removed += n;
      logger.warn('removed the memories of an import that never finished (its process is gone)', { memories: n });
    }
    return removed;
  }

  return {
    recoverAbandoned,
    async import(input, signal) {
      const run = importOnce(input, signal ? AbortSignal.any([signal, shutdown.signal]) : shutdown.signal);
      running.add(run);
      try {
        return await run;
      } finally {
        running.delete(run);
      }
    },
    async stop() {
      shutdown.abort();
      await Promise.allSettled([...running]);
    },
  };

  async function importOnce(input: OpParsedInput<'memory.import'>, signal: AbortSignal): Promise<ImportReport> {
    const parsed = parseImport(input.content, input.format, input.defaultCategory, userTimeZone(deps.settings().timeZone));
    const { planned, nearDuplicateCheck } = await plan(parsed.items, signal);
    if (!input.dryRun) recoverAbandoned();
    const summary = input.dryRun ? { written: 0, ...counts(planned) } : await write(planned, input.onConflict, parsed.format, signal);
    if (!input.dryRun) {
      events.emit('memory.imported', { written: summary.written, duplicate: summary.duplicate, conflicting: summary.conflicting, invalid: summary.invalid });
      logger.info('memories imported', { format: parsed.format, ...summary });
    }
    // Imported memories are the user's: they never count against the cap, whose standing the report shows (a dry
    // run's as if it were applied), so the user sees before and after whether the total goes past it.
    const addedActive = input.dryRun ? planned.filter((p) => isWritten(p.item, input.onConflict) && (p.candidate.status ?? 'active') === 'active').length : 0;
    return { format: parsed.format, dryRun: input.dryRun, ...summary, nearDuplicateCheck, cap: cap.standing(addedActive), items: planned.map((p) => p.item) };
  }
}

function throwIfStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new MnemoError('ABORTED', 'The import was stopped before it finished (Mnemo was closing); nothing was imported. Import the file again.');
}

/** The item as the report shows it when its memory was not kept after all. */
function withoutWrite(item: ImportItem, outcome: Partial<ImportItem>): ImportItem {
  const { memoryId: _memoryId, imported: _imported, ...rest } = item;
  return { ...rest, ...outcome };
}

/** Whether the write imports an item of the plan: a new one, or a conflict when asked to. */
function isWritten(item: ImportItem, onConflict: 'skip' | 'import'): boolean {
  return item.outcome === 'new' || (item.outcome === 'conflict' && onConflict === 'import');
}

interface ImportSummary {
  written: number;
  new: number;
  duplicate: number;
  conflicting: number;
  invalid: number;
}

function counts(planned: readonly Planned[]): Omit<ImportSummary, 'written'> {
  const n = (outcome: ImportItem['outcome']) => planned.filter((p) => p.item.outcome === outcome).length;
  return { new: n('new'), duplicate: n('duplicate'), conflicting: n('conflict'), invalid: n('invalid') };
}

/** Parsing gives every importable item a category (only invalid ones have none). */
function categoryOf(c: ImportCandidate): MemoryCategory {
  return c.category ?? 'knowledge';
}
