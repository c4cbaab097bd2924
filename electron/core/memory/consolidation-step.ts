/**
 * Maintenance's consolidation step: finds clusters of related memories (consolidation-clusters.ts says which) and
 * queues one durable `consolidate` job per cluster (consolidate.job.ts asks the background model and writes).
 *
 * Bounded work, whatever the store's size (never all pairs):
 * - Seeds: the active memories changed since the previous run (a watermark kept in the 'maintained' event, as the
 *   near-duplicate merge does), at most SEEDS_PER_RUN, plus SAMPLE_PER_RUN taken from a random place in the id order,
 *   so memories that never change are looked at over time too. Each seed costs one nearest-neighbour query.
 * - At most settings.consolidationMaxPerRun clusters per run; the step stops looking once it has them.
 * - Read-only until the queueing: seeds are looked at with the event loop given a turn between slices
 *   (time-slicer.ts); the jobs are queued in one short transaction at the end.
 * - A memory is never in two clusters at once: those in a queued or running job, or in a consolidation proposal that
 *   waits for review or was rejected (the user said no to summarising it), are left out.
 * - The job's idempotency key is its memories with their versions: a cluster whose summary was refused is not asked
 *   for again until one of its memories changes.
 */
import type { MemoryCategory, Settings } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';
import type { JobQueue } from '../jobs/job-queue';
import type { Clock } from '../ports/clock.port';
import { createTimeSlicer } from '../runtime/time-slicer';
import { CLUSTER_SIMILARITY, MAX_CLUSTER_SIZE, MIN_CLUSTER_SIZE, createClusterer, type Cluster, type ClusterMember } from './consolidation-clusters';
import type { MemoryCap } from './memory-cap';
import type { MemoryService } from './memory.service';
import type { MemoryStores } from './memory.store';
import type { Watermark } from './memory-upkeep.store';

/** Changed memories looked at per run, and memories sampled from the rest. */
export const SEEDS_PER_RUN = 200;
export const SAMPLE_PER_RUN = 50;

export interface ConsolidationStepResult {
  queued: number;
  /** Where the next run continues; null when nothing was looked at (turned off, no semantic search). */
  watermark: Watermark | null;
}

export interface ConsolidationStep {
  run(input: { model: string; watermark: Watermark }): Promise<ConsolidationStepResult>;
  /** Summaries written (not proposals) since the last 'maintained' event, for the report of the run about to end. */
  summarisedSinceLastRun(): number;
}

export interface ConsolidationStepDeps {
  /** Only for the jobs table (queued clusters, clusters asked before), until that table has its store. */
  sqlite: Sqlite;
  stores: Pick<MemoryStores, 'upkeep' | 'vectors'>;
  clock: Clock;
  memories: Pick<MemoryService, 'nearest' | 'transaction'>;
  cap: MemoryCap;
  queue: Pick<JobQueue, 'enqueue'>;
  settings: () => Settings;
}

export function createConsolidationStep(deps: ConsolidationStepDeps): ConsolidationStep {
  const { sqlite, clock, memories, cap, queue } = deps;
  const { upkeep, vectors } = deps.stores;
  const q = {
    pendingJobs: sqlite.prepare(`SELECT payload FROM jobs WHERE kind = 'consolidate' AND status IN ('queued', 'running')`).pluck(),
    asked: sqlite.prepare('SELECT 1 FROM jobs WHERE idempotency_key = ?').pluck(),
  };

  /** Memories already in a cluster: a queued or running job's, a proposal's (waiting or rejected). */
  function taken(): number[] {
    const ids: number[] = [];
    for (const payload of q.pendingJobs.all() as string[]) {
      try {
        for (const m of (JSON.parse(payload) as { memories?: Array<{ id?: unknown }> }).memories ?? []) if (typeof m.id === 'number') ids.push(m.id);
      } catch {
        // A payload that is not JSON fails its own job; it holds no memory back here.
      }
    }
    for (const data of upkeep.consolidationProposals()) {
      const d = JSON.parse(data) as { from?: unknown };
      if (Array.isArray(d.from)) for (const id of d.from) if (typeof id === 'number') ids.push(id);
    }
    return ids;
  }

  function memberOf(id: number, model: string): ClusterMember | null {
    const r = upkeep.clusterRow(id);
    if (!r || r.status !== 'active' || r.embedding_model !== model) return null;
    // usersOwn is filled for the few seeds with enough neighbours (usersAmong reads the versions).
    return { id: r.id, category: r.category, pinned: r.pinned === 1, usersOwn: false };
  }

  /** A cluster's job: its memories oldest first, each at its current version (the key says which versions). */
  function jobOf(cluster: Cluster): { members: Array<{ id: number; version: number }>; key: string } {
    const members = [...cluster.ids].sort((a, b) => a - b).map((id) => ({ id, version: upkeep.latestVersion(id)! }));
    return { members, key: `consolidate:${members.map((m) => `${m.id}v${m.version}`).join(',')}` };
  }

  return {
    async run({ model, watermark }) {
      const settings = deps.settings();
      if (!settings.consolidationEnabled) return { queued: 0, watermark: null };
      const now = clock.now();
      const changed = upkeep.changedSince(model, now, watermark, SEEDS_PER_RUN);
      const sampled = upkeep.sample(model, now, SAMPLE_PER_RUN);
      const clusterer = createClusterer(taken());
      const jobs: Array<ReturnType<typeof jobOf>> = [];
      const slicer = createTimeSlicer();
      let next = watermark;
      const seeds = [...changed.map((c) => ({ ...c, changed: true })), ...sampled.map((s) => ({ id: s.id, updated_at: 0, changed: false }))];
      for (const s of seeds) {
        if (jobs.length >= settings.consolidationMaxPerRun) break;
        if (s.changed) next = { at: s.updated_at, id: s.id };
        const seed = memberOf(s.id, model);
        const vector = seed ? vectors.stored(s.id) : null;
        if (seed && vector) {
          const near = memories
            .nearest(vector, { limit: MAX_CLUSTER_SIZE + 4, minSimilarity: CLUSTER_SIMILARITY, categories: [seed.category as MemoryCategory], statuses: ['active'] })
            .filter((n) => n.memory.id !== seed.id && !n.memory.expired);
          if (near.length + 1 >= MIN_CLUSTER_SIZE) {
            const users = cap.usersAmong([seed.id, ...near.map((n) => n.memory.id)]);
            const cluster = clusterer.around(
              { ...seed, usersOwn: users.has(seed.id) },
              near.map((n) => ({ member: { id: n.memory.id, category: n.memory.category, pinned: n.memory.pinned, usersOwn: users.has(n.memory.id) }, similarity: n.similarity })),
            );
            const job = cluster ? jobOf(cluster) : null;
            // Asked before, unchanged since (its summary was refused, or the job failed): not again, and it takes
            // no place among this run's clusters.
            if (job && q.asked.get(job.key) === undefined) jobs.push(job);
          }
        }
        // Each nearest() scans the vectors: other calls get a turn between seeds (reads only, no transaction open).
        await slicer.yield();
      }
      if (jobs.length > 0) {
        memories.transaction(() => {
          for (const { members, key } of jobs) queue.enqueue({ kind: 'consolidate', payload: { memories: members }, idempotencyKey: key });
        });
      }
      return { queued: jobs.length, watermark: next };
    },
    summarisedSinceLastRun: upkeep.summarisedSinceLastRun,
  };
}
