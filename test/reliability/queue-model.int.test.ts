/**
 * A model-based property test of the job queue (fast-check commands): random sequences of enqueue (including
 * duplicates), processing rounds with scripted outcomes (success, retryable failure, permanent failure), cancel,
 * retry and clock jumps, checked after every step against a plain in-memory model of what the queue promises:
 * one row per idempotency key, a job's effect written exactly once and only when it succeeds, retries until
 * maxAttempts then dead, cancelled jobs never run, retry revives only dead or cancelled jobs.
 */
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MnemoError } from '../../shared/errors';
import { openDatabase, sourceMigrationsDir } from '../../electron/core/db/open-database';
import { JobQueue } from '../../electron/core/jobs/job-queue';
import { createJobsStore } from '../../electron/core/jobs/jobs.store';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { useTempDirs } from '../support/temp-dir';

type Outcome = 'ok' | 'transient' | 'permanent';
const MAX_ATTEMPTS = 3;

interface ModelJob {
  status: 'queued' | 'done' | 'dead' | 'cancelled';
  attempts: number;
  writes: number;
  /** Outcomes for successive attempts; after the script runs out, 'ok'. */
  script: Outcome[];
  runs: number;
}

interface Real {
  queue: JobQueue;
  clock: { now: number };
  writes: () => Map<string, number>;
  ids: Map<string, number>;
}

type Model = Map<string, ModelJob>;

class Enqueue implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly key: string,
    readonly script: Outcome[],
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const id = r.queue.enqueue({ kind: 'reembed', idempotencyKey: this.key, maxAttempts: MAX_ATTEMPTS, payload: { reason: this.script.join('/') } });
    if (!m.has(this.key)) m.set(this.key, { status: 'queued', attempts: 0, writes: 0, script: this.script, runs: 0 });
    else expect(id).toBe(r.ids.get(this.key)); // a duplicate enqueue is the same job
    r.ids.set(this.key, id);
    await compare(m, r);
  }
  toString = () => `enqueue(${this.key}, ${this.script.join('/')})`;
}

class ProcessRound implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    // Jump past every backoff, then let the worker drain what is due: each queued job runs exactly once.
    r.clock.now += 10 * 60 * 60_000;
    await r.queue.runUntilIdle();
    for (const job of m.values()) {
      if (job.status !== 'queued') continue;
      const outcome = job.script[job.runs] ?? 'ok';
      job.runs++;
      job.attempts++;
      if (outcome === 'ok') {
        job.status = 'done';
        job.writes++;
      } else if (outcome === 'permanent' || job.attempts >= MAX_ATTEMPTS) job.status = 'dead';
    }
    await compare(m, r);
  }
  toString = () => 'process';
}

class Cancel implements fc.AsyncCommand<Model, Real> {
  constructor(readonly key: string) {}
  check = (m: Readonly<Model>) => m.has(this.key);
  async run(m: Model, r: Real) {
    r.queue.cancel(r.ids.get(this.key)!);
    const job = m.get(this.key)!;
    if (job.status === 'queued') job.status = 'cancelled';
    await compare(m, r);
  }
  toString = () => `cancel(${this.key})`;
}

class Retry implements fc.AsyncCommand<Model, Real> {
  constructor(readonly key: string) {}
  check = (m: Readonly<Model>) => m.has(this.key);
  async run(m: Model, r: Real) {
    const job = m.get(this.key)!;
    const revivable = job.status === 'dead' || job.status === 'cancelled';
    if (revivable) {
      r.queue.retry(r.ids.get(this.key)!);
      job.status = 'queued';
      job.attempts = 0;
    } else if (job.status !== 'queued') {
      expect(() => r.queue.retry(r.ids.get(this.key)!)).toThrow(MnemoError);
    }
    await compare(m, r);
  }
  toString = () => `retry(${this.key})`;
}

async function compare(m: Model, r: Real): Promise<void> {
  const writes = r.writes();
  for (const [key, job] of m) {
    const real = r.queue.get(r.ids.get(key)!)!;
    expect({ key, status: real.status, attempts: real.attempts }).toEqual({ key, status: job.status, attempts: job.attempts });
    expect({ key, writes: writes.get(key) ?? 0 }).toEqual({ key, writes: job.writes });
  }
}

describe('job queue model', () => {
  const tempDir = useTempDirs();

  it('behaves like its model under random command sequences (property)', async () => {
    const keys = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    const script = fc.array(fc.constantFrom<Outcome>('ok', 'transient', 'permanent'), { maxLength: 4 });
    const commands = [
      fc.tuple(keys, script).map(([k, s]) => new Enqueue(k, s)),
      fc.constant(new ProcessRound()),
      keys.map((k) => new Cancel(k)),
      keys.map((k) => new Retry(k)),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
        const db = openDatabase(path.join(tempDir(), 'q.db'), { migrationsDir: sourceMigrationsDir() });
        const clock = { now: 1_000_000 };
        const queue = new JobQueue({ store: createJobsStore(db.sqlite), clock: { now: () => clock.now }, logger: silentLogger, random: () => 0.5 });
        const attemptsSeen = new Map<number, number>();
        queue.register({
          kind: 'reembed',
          run: async ({ job }) => {
            // The outcome of this run comes from the job's script (its payload, through the database), indexed by how
            // often it ran before.
            const runIndex = attemptsSeen.get(job.id) ?? 0;
            attemptsSeen.set(job.id, runIndex + 1);
            const outcome = (job.payload.reason.split('/').filter(Boolean) as Outcome[])[runIndex] ?? 'ok';
            if (outcome === 'transient') throw new MnemoError('LLM_STREAM_ERROR', 'scripted transient failure');
            if (outcome === 'permanent') throw new MnemoError('INVALID_INPUT', 'scripted permanent failure');
            return () => db.sqlite.prepare('INSERT INTO events (kind, data, created_at) VALUES (?, ?, 0)').run('job-write', job.idempotencyKey);
          },
        });
        const real: Real = {
          queue,
          clock,
          ids: new Map(),
          writes: () => new Map((db.sqlite.prepare("SELECT data AS key, count(*) AS n FROM events WHERE kind = 'job-write' GROUP BY data").all() as Array<{ key: string; n: number }>).map((r) => [r.key, r.n])),
        };
        try {
          await fc.asyncModelRun(() => ({ model: new Map(), real }), cmds);
        } finally {
          await queue.stop();
          db.close();
        }
      }),
      { numRuns: 60 },
    );
  });
});
