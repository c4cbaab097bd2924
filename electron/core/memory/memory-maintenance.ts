/**
 * Memory maintenance, daily and on demand. In order: mark newly expired memories, merge near-duplicates, decay
 * untouched low-importance memories, enforce the cap on active memories, purge old trash.
 *
 * Invariants:
 * - Every change goes through the memory writer (memory-writer.ts): a version with origin 'maintenance' and a timeline
 *   event in the same transaction, so each is undone with revert (importance, merge survivor) or restore (an archived
 *   merged memory, a memory trashed for the cap). Purging old trash is final by definition.
 * - Expiry changes nothing about a memory (it stays active and visible, retrieval skips it); it only gets one
 *   'expired' timeline event per expiry date.
 * - Pinned memories are never decayed. A merge keeps a pin (the survivor is pinned if either was).
 * - The cap trashes only memories Mnemo learned on its own, when there are more of them than the cap (memory-cap.ts
 *   says which are the user's): never one the user wrote, edited, pinned, approved, restored or imported, however
 *   many of those there are. The trash keeps them restorable for trashRetentionDays, as any trashed memory.
 * - Merging compares only vectors of the current model; it checks memories changed since the
 *   previous run (a watermark kept in the 'maintained' timeline event), a bounded number per run, in small
 *   transactions with the event loop free between them.
 * - Consolidation (consolidation-step.ts), after the merge: clusters of related memories are queued, at most
 *   settings.consolidationMaxPerRun, one durable 'consolidate' job each (the background model writes the summary
 *   later, consolidate.job.ts); it continues from its own watermark in the same 'maintained' event.
 * - One run at a time: a call while one runs gets that run's report.
 * - Progress (maintenance.progressed): each step in order ends with done === total; the merge step starts at 0 and
 *   reports between its transactions at most every PROGRESS_EVERY_MS, so 1,000 checked memories are not 1,000 events.
 */
import type { EventPayload, MaintenanceReport, Memory, Settings } from '../../../shared/contract';
import type { EmbeddingService } from '../embedding/embedding.service';
import type { EventBus } from '../runtime/event-bus';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import { compareWordings } from '../text/learned-wording';
import type { TimelineWriter } from '../db/timeline-writer';
import type { MemoryCap } from './memory-cap';
import { createTimeSlicer } from '../runtime/time-slicer';
import type { ConsolidationStep } from './consolidation-step';
import type { MemoryService } from './memory.service';
import type { MemoryWrites } from './memory-writer';
import type { MemoryStores } from './memory.store';
import type { Watermark } from './memory-upkeep.store';

export interface MaintenanceDeps {
  stores: Pick<MemoryStores, 'upkeep' | 'vectors'>;
  clock: Clock;
  events: EventBus;
  logger: Logger;
  /** Changes go through the memory writer's narrow interface; lookups and the trash through the service. */
  memories: MemoryWrites & Pick<MemoryService, 'getMemory' | 'nearest' | 'emptyTrash'>;
  embedding: EmbeddingService;
  settings: () => Settings;
  timeline: TimelineWriter;
  cap: MemoryCap;
  /** Queues summaries of related memories; absent where no background model runs jobs. */
  consolidation?: ConsolidationStep;
}

export interface MemoryMaintenance {
  run(): Promise<MaintenanceReport>;
  /** When the last run finished, from the timeline; null if never. */
  lastRunAt(): number | null;
  /** Resolves when no run is in progress (before the database closes). */
  whenIdle(): Promise<void>;
}

const DAY = 86_400_000;
/** Decay: memories below this importance, unused and unchanged for DECAY_AFTER_DAYS, lose DECAY_FACTOR of it. */
export const DECAY_BELOW = 0.3;
export const DECAY_AFTER_DAYS = 90;
export const DECAY_FACTOR = 0.8;
export const DECAY_FLOOR = 0.05;
/** Memories checked for near-duplicates per run, and per transaction. */
const MERGE_PER_RUN = 1000;
const MERGE_PER_TRANSACTION = 50;
/** Neighbours looked at per checked memory. */
const MERGE_NEIGHBOURS = 5;
/** The merge step's progress between transactions: at most this often (a bar redraws fine at 10 Hz; more is noise). */
const PROGRESS_EVERY_MS = 100;

type MaintenanceStep = EventPayload<'maintenance.progressed'>['step'];

function readWatermark(w: Watermark | undefined): Watermark | null {
  return w && Number.isFinite(w.at) && Number.isFinite(w.id) ? w : null;
}

/**
 * Which of two near-duplicates survives: the one whose wording the merge rule keeps (learned-wording.ts, as when
 * the extractor merges). Ties: pinned, then more important, then older.
 */
export function pickSurvivor<T extends Pick<Memory, 'id' | 'content' | 'pinned' | 'importance'>>(a: T, b: T): T {
  const byWording = compareWordings(a.content, b.content);
  if (byWording !== 0) return byWording > 0 ? a : b;
  if (a.pinned !== b.pinned) return a.pinned ? a : b;
  if (a.importance !== b.importance) return a.importance > b.importance ? a : b;
  return a.id < b.id ? a : b;
}

/** The importance after one decay step, or null when it is at the floor already. */
export function decayedImportance(importance: number): number | null {
  if (importance <= DECAY_FLOOR) return null;
  return Math.max(DECAY_FLOOR, Math.round(importance * DECAY_FACTOR * 10_000) / 10_000);
}

export function createMemoryMaintenance(deps: MaintenanceDeps): MemoryMaintenance {
  const { clock, events, logger, memories, embedding, timeline, cap } = deps;
  const { upkeep, vectors } = deps.stores;
  const tx = memories.transaction;
  // Emitted between transactions only: events leave after the writes they describe have committed.
  const progressed = (step: MaintenanceStep, done: number, total: number) => events.emit('maintenance.progressed', { step, done, total });
  /** A step that is one transaction: it reports once, when it is done. */
  const stepDone = (step: MaintenanceStep, n: number) => {
    progressed(step, n, n);
    return n;
  };

  function lastRun(): { at: number; watermark: Watermark; consolidationWatermark: Watermark } | null {
    const row = upkeep.lastMaintained();
    if (!row) return null;
    const start = { at: 0, id: 0 };
    try {
      const data = JSON.parse(row.data) as { mergeWatermark?: Watermark; consolidationWatermark?: Watermark };
      return { at: row.at, watermark: readWatermark(data.mergeWatermark) ?? start, consolidationWatermark: readWatermark(data.consolidationWatermark) ?? start };
    } catch {
      // An unreadable record only means checking every memory again.
      return { at: row.at, watermark: start, consolidationWatermark: start };
    }
  }

  /** Queues summaries of clusters of related memories (needs semantic search, like the merge). */
  async function consolidate(): Promise<{ queued: number; watermark: Watermark | null }> {
    const status = embedding.status();
    if (!deps.consolidation || status.state !== 'ready' || !status.modelId) return { queued: 0, watermark: null };
    return deps.consolidation.run({ model: status.modelId, watermark: lastRun()?.consolidationWatermark ?? { at: 0, id: 0 } });
  }

  function markExpired(): number {
    return tx(() => {
      const ids = upkeep.newlyExpired(clock.now());
      for (const id of ids) memories.noteExpired(id);
      return ids.length;
    });
  }

  /** Merges `loser` into `survivor`: the survivor takes the higher importance and any pin; the loser is archived pointing at it. */
  function mergePair(survivor: Memory, loser: Memory, similarity: number): Memory {
    memories.updateMemory(
      loser.id,
      { status: 'archived', supersededBy: survivor.id },
      { origin: 'maintenance', reason: 'merged', eventKind: 'merged', eventData: { into: survivor.id, similarity: Math.round(similarity * 1000) / 1000 } },
    );
    return memories.updateMemory(
      survivor.id,
      { importance: Math.max(survivor.importance, loser.importance), pinned: survivor.pinned || loser.pinned },
      { origin: 'maintenance', reason: 'merged', eventKind: 'merged', touch: true, eventData: { from: loser.id } },
    );
  }

  async function mergeNearDuplicates(): Promise<{ merged: number; pending: number; checked: boolean; watermark: Watermark | null }> {
    await embedding.ensureReady();
    const status = embedding.status();
    // A model of another dimension: nearest() rebuilds the index, the re-embed job refills it; nothing to compare yet.
    if (status.state !== 'ready' || !status.modelId) {
      return { merged: 0, pending: 0, checked: false, watermark: null };
    }
    const model = status.modelId;
    const threshold = deps.settings().nearDuplicateSimilarity;
    let watermark = lastRun()?.watermark ?? { at: 0, id: 0 };
    const candidates = upkeep.mergeCandidates(model, watermark, MERGE_PER_RUN);
    let merged = 0;
    const slicer = createTimeSlicer();
    progressed('merge', 0, candidates.length);
    let reportedAt = clock.now();
    for (let i = 0; i < candidates.length; ) {
      const first = i;
      merged += tx(() => {
        let n = 0;
        // A transaction ends after MERGE_PER_TRANSACTION memories or once its time slice is spent (merges write
        // versions and events, so 50 of them can take long), whichever comes first; it always makes progress.
        for (; i < candidates.length && i - first < MERGE_PER_TRANSACTION && (i === first || !slicer.spent()); i++) {
          const c = candidates[i]!;
          let current = memories.getMemory(c.id);
          const vector = current?.status === 'active' && current.embeddingModel === model ? vectors.stored(c.id) : null;
          if (!current || !vector) continue;
          const near = memories.nearest(vector, { limit: MERGE_NEIGHBOURS + 1, minSimilarity: threshold, categories: [current.category], statuses: ['active'] });
          for (const { memory: other, similarity } of near) {
            if (other.id === current.id) continue;
            const survivor = pickSurvivor(current, other);
            current = mergePair(survivor, survivor === current ? other : current, similarity);
            n++;
          }
        }
        return n;
      });
      const last = candidates[i - 1]!;
      watermark = { at: last.updated_at, id: last.id };
      if (i === candidates.length || clock.now() - reportedAt >= PROGRESS_EVERY_MS) {
        progressed('merge', i, candidates.length);
        reportedAt = clock.now();
      }
      // Each nearest() is a full scan of the vectors: give other calls a turn between transactions.
      await slicer.yield();
    }
    const pending = upkeep.mergePending(model, watermark);
    return { merged, pending, checked: true, watermark };
  }

  function decay(): number {
    return tx(() => {
      const cutoff = clock.now() - DECAY_AFTER_DAYS * DAY;
      const rows = upkeep.decayable(DECAY_BELOW, DECAY_FLOOR, cutoff);
      let n = 0;
      for (const r of rows) {
        const next = decayedImportance(r.importance);
        if (next === null) continue;
        memories.updateMemory(r.id, { importance: next }, { origin: 'maintenance', reason: 'decayed', eventKind: 'decayed', eventData: { from: r.importance, to: next } });
        n++;
      }
      return n;
    });
  }

  function enforceCap(): number {
    return tx(() => {
      const standing = cap.standing();
      const ids = cap.leastValuableLearned(standing.overCap);
      for (const id of ids) {
        memories.updateMemory(id, { status: 'trashed' }, { origin: 'maintenance', reason: 'over the cap', eventKind: 'deleted', eventData: { cap: standing.cap } });
      }
      return ids.length;
    });
  }

  let running: Promise<MaintenanceReport> | null = null;

  async function runOnce(): Promise<MaintenanceReport> {
    const expired = stepDone('expire', markExpired());
    const merge = await mergeNearDuplicates();
    const consolidation = await consolidate();
    const decayed = stepDone('decay', decay());
    const trashedForCap = stepDone('cap', enforceCap());
    const trash = await memories.emptyTrash(clock.now() - deps.settings().trashRetentionDays * DAY);
    stepDone('purge', trash.purged);
    const report: MaintenanceReport = {
      merged: merge.merged,
      decayed,
      trashedForCap,
      purged: trash.purged,
      ...(trash.backups.remaining.length > 0 ? { purgedCopiesRemain: trash.backups.remaining } : {}),
      expired,
      mergePending: merge.pending,
      mergeChecked: merge.checked,
      cap: cap.standing(),
      clustersQueued: consolidation.queued,
      clustersSummarised: deps.consolidation?.summarisedSinceLastRun() ?? 0,
    };
    const previous = lastRun();
    const watermark = merge.watermark ?? previous?.watermark ?? { at: 0, id: 0 };
    const consolidationWatermark = consolidation.watermark ?? previous?.consolidationWatermark ?? { at: 0, id: 0 };
    timeline.record('maintained', {}, { ...report, mergeWatermark: watermark, consolidationWatermark, origin: 'maintenance' });
    events.emit('memory.maintained', { report });
    logger.info('memory maintenance done', { ...report });
    return report;
  }

  return {
    run() {
      running ??= runOnce().finally(() => {
        running = null;
      });
      return running;
    },
    lastRunAt: () => lastRun()?.at ?? null,
    whenIdle: () => (running ?? Promise.resolve()).then(
      () => undefined,
      () => undefined,
    ),
  };
}
