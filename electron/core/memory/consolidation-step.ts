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

/** Changed memories looked at per run, and memories sampled from the rest. */
export const SEEDS_PER_RUN = 200;
export const SAMPLE_PER_RUN = 50;

export interface Watermark {
  at: number;
  id: number;
}

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
  sqlite: Sqlite;
  clock: Clock;
  memories: Pick<MemoryService, 'nearest' | 'transaction'>;
  cap: MemoryCap;
  queue: Pick<JobQueue, 'enqueue'>;
  settings: () => Settings;
}

export function createConsolidationStep(deps: ConsolidationStepDeps): ConsolidationStep {
  const { sqlite, clock, memories, cap, queue } = deps;
  const q = {
    changed: sqlite.prepare(
      `SELECT id, updated_at FROM memories
       WHERE status = 'active' AND embedding_model = @model AND (expires_at IS NULL OR expires_at > @now)
         AND (updated_at > @at OR (updated_at = @at AND id > @id))
       ORDER BY updated_at, id LIMIT @limit`,
    ),
    // A random place in the id order, then the next active ones (abs of random() alone can overflow at its minimum).
    sample: sqlite.prepare(
      `SELECT id, updated_at FROM memories
       WHERE id >= (SELECT abs(random() % 4294967296) % (coalesce(max(id), 0) + 1) FROM memories)
         AND status = 'active' AND embedding_model = @model AND (expires_at IS NULL OR expires_at > @now)
       ORDER BY id LIMIT @limit`,
    ),
    vector: sqlite.prepare('SELECT embedding FROM memory_vectors WHERE memory_id = ?').pluck(),
    row: sqlite.prepare(`SELECT id, category, pinned, status, embedding_model FROM memories WHERE id = ?`),
    version: sqlite.prepare('SELECT max(version) FROM memory_versions WHERE memory_id = ?').pluck(),
    pendingJobs: sqlite.prepare(`SELECT payload FROM jobs WHERE kind = 'consolidate' AND status IN ('queued', 'running')`).pluck(),
    proposals: sqlite.prepare(
      `SELECT e.data FROM events e JOIN memories m ON m.id = e.memory_id
       WHERE e.kind = 'proposed' AND m.status IN ('review', 'rejected') AND json_extract(e.data, '$.flag') = 'consolidation'`,
    ).pluck(),
    asked: sqlite.prepare('SELECT 1 FROM jobs WHERE idempotency_key = ?').pluck(),
    // By event id, not time: a summary written in the same millisecond as a run is counted once.
    summarisedSinceLastRun: sqlite.prepare(
      `SELECT count(*) FROM events WHERE kind = 'consolidated' AND id > coalesce((SELECT max(id) FROM events WHERE kind = 'maintained'), 0)`,
    ).pluck(),
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
    for (const data of q.proposals.all() as string[]) {
      const d = JSON.parse(data) as { from?: unknown };
      if (Array.isArray(d.from)) for (const id of d.from) if (typeof id === 'number') ids.push(id);
    }
    return ids;
  }

  function storedVector(id: number): Float32Array | null {
    const b = q.vector.get(BigInt(id)) as Buffer | undefined;
    return b ? new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) : null;
  }

  function memberOf(id: number, model: string): ClusterMember | null {
    const r = q.row.get(id) as { id: number; category: string; pinned: number; status: string; embedding_model: string | null } | undefined;
    if (!r || r.status !== 'active' || r.embedding_model !== model) return null;
    // usersOwn is filled for the few seeds with enough neighbours (usersAmong reads the versions).
    return { id: r.id, category: r.category, pinned: r.pinned === 1, usersOwn: false };
  }

  /** A cluster's job: its memories oldest first, each at its current version (the key says which versions). */
  function jobOf(cluster: Cluster): { members: Array<{ id: number; version: number }>; key: string } {
    const members = [...cluster.ids].sort((a, b) => a - b).map((id) => ({ id, version: q.version.get(id) as number }));
    return { members, key: `consolidate:${members.map((m) => `${m.id}v${m.version}`).join(',')}` };
  }

  return {
    async run({ model, watermark }) {
      const settings = deps.settings();
      if (!settings.consolidationEnabled) return { queued: 0, watermark: null };
      const now = clock.now();
      const changed = q.changed.all({ model, now, ...watermark, limit: SEEDS_PER_RUN }) as Array<{ id: number; updated_at: number }>;
      const sampled = q.sample.all({ model, now, limit: SAMPLE_PER_RUN }) as Array<{ id: number }>;
      const clusterer = createClusterer(taken());
      const jobs: Array<ReturnType<typeof jobOf>> = [];
      const slicer = createTimeSlicer();
      let next = watermark;
      const seeds = [...changed.map((c) => ({ ...c, changed: true })), ...sampled.map((s) => ({ id: s.id, updated_at: 0, changed: false }))];
      for (const s of seeds) {
        if (jobs.length >= settings.consolidationMaxPerRun) break;
        if (s.changed) next = { at: s.updated_at, id: s.id };
        const seed = memberOf(s.id, model);
        const vector = seed ? storedVector(s.id) : null;
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
    summarisedSinceLastRun: () => q.summarisedSinceLastRun.get() as number,
  };
}
