import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MnemoError } from '../../shared/errors';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { JobQueue, type JobHandler, type JobQueueOptions } from '../../electron/core/jobs/job-queue';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { useTempDirs } from '../support/temp-dir';

const open: Array<{ db: OpenedDatabase; queue: JobQueue }> = [];
afterEach(async () => {
  for (const { db, queue } of open.splice(0)) {
    await queue.stop();
    db.close();
  }
});

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('job queue', () => {
  const tempDir = useTempDirs();
  let now = 1_000_000;
  const clock = { now: () => now };

  function setup(file?: string, opts: Partial<JobQueueOptions> = {}) {
    const db = openDatabase(file ?? path.join(tempDir(), 'q.db'), { migrationsDir: sourceMigrationsDir() });
    const queue = new JobQueue({ sqlite: db.sqlite, clock, logger: silentLogger, baseBackoffMs: 1000, probeIntervalMs: 5, random: () => 0.5, ...opts });
    open.push({ db, queue });
    const count = (sql: string) => (db.sqlite.prepare(sql).get() as { n: number }).n;
    const writes = () => count('SELECT count(*) AS n FROM settings');
    // A handler's commit writes a settings row named after the job, so "exactly once" is countable.
    const writeFor = (jobId: number) => () => db.sqlite.prepare('INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 0)').run(`job-${jobId}`, '1');
    return { db, queue, count, writes, writeFor };
  }

  it('a duplicate enqueue (same idempotency key) is one job, run once', async () => {
    const { queue, writes, writeFor } = setup();
    let runs = 0;
    queue.register({ kind: 'reembed', run: async ({ job }) => (runs++, writeFor(job.id)) });
    const a = queue.enqueue({ kind: 'reembed', idempotencyKey: 'k1' });
    const b = queue.enqueue({ kind: 'reembed', idempotencyKey: 'k1' });
    expect(a).toBe(b);
    queue.start();
    await queue.waitForIdle();
    expect(runs).toBe(1);
    expect(writes()).toBe(1);
  });

  it('a job cancelled while running writes nothing (fencing), and the queue goes on', async () => {
    const { queue, writes, writeFor } = setup();
    const started = deferred();
    const release = deferred();
    queue.register({
      kind: 'reembed',
      run: async ({ job }) => {
        if (job.idempotencyKey === 'slow') {
          started.resolve();
          await release.promise;
        }
        return writeFor(job.id);
      },
    });
    const slow = queue.enqueue({ kind: 'reembed', idempotencyKey: 'slow' });
    queue.enqueue({ kind: 'reembed', idempotencyKey: 'next' });
    queue.start();
    await started.promise;
    queue.cancel(slow);
    release.resolve();
    await queue.waitForIdle();
    expect(queue.get(slow)!.status).toBe('cancelled');
    expect(writes()).toBe(1); // only "next"
  });

  it('a late result after the job was re-claimed by another worker is discarded', async () => {
    const { db, queue, writes, writeFor } = setup();
    const started = deferred();
    const release = deferred();
    queue.register({
      kind: 'reembed',
      run: async ({ job }) => {
        started.resolve();
        await release.promise;
        return writeFor(job.id);
      },
    });
    const id = queue.enqueue({ kind: 'reembed', idempotencyKey: 'x' });
    queue.start();
    await started.promise;
    // Another worker took over after our lease expired: the token moved on.
    db.sqlite.prepare('UPDATE extraction_jobs SET fencing_token = fencing_token + 1 WHERE id = ?').run(id);
    release.resolve();
    await queue.stop();
    expect(writes()).toBe(0);
    expect(queue.get(id)!.status).toBe('running'); // still the other worker's
  });

  it('a deleted job (thread cascade) aborts and writes nothing', async () => {
    const { db, queue, writes, writeFor } = setup();
    const started = deferred();
    const seenAbort = deferred<boolean>();
    queue.register({
      kind: 'reembed',
      run: async ({ job, signal }) => {
        started.resolve();
        await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
        seenAbort.resolve(signal.aborted);
        return writeFor(job.id);
      },
    });
    const id = queue.enqueue({ kind: 'reembed', idempotencyKey: 'gone' });
    queue.start();
    await started.promise;
    db.sqlite.prepare('DELETE FROM extraction_jobs WHERE id = ?').run(id);
    queue.abortIfGone();
    expect(await seenAbort.promise).toBe(true);
    await queue.waitForIdle();
    expect(writes()).toBe(0);
  });

  it('a poison job backs off exponentially, is dead-lettered with its error code, and others still run', async () => {
    const dead: string[] = [];
    const { queue, writes, writeFor } = setup(undefined, { onDead: (_job, code) => dead.push(code) });
    queue.register({
      kind: 'reembed',
      run: async ({ job }) => {
        if (job.idempotencyKey === 'poison') throw new MnemoError('LLM_BAD_OUTPUT', 'unparseable');
        return writeFor(job.id);
      },
    });
    const poison = queue.enqueue({ kind: 'reembed', idempotencyKey: 'poison', maxAttempts: 3 });
    queue.enqueue({ kind: 'reembed', idempotencyKey: 'fine' });
    queue.start();
    const runAfters: number[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      await queue.waitForIdle();
      const job = queue.get(poison)!;
      runAfters.push(job.runAfter - now);
      now = job.runAfter; // jump the clock to the retry time
      queue.poke();
    }
    await queue.waitForIdle();
    expect(queue.get(poison)).toMatchObject({ status: 'dead', attempts: 3, lastErrorCode: 'LLM_BAD_OUTPUT' });
    expect(runAfters.slice(0, 2)).toEqual([1000, 2000]); // base * 2^(attempt-1), jitter fixed at x1
    expect(dead).toEqual(['LLM_BAD_OUTPUT']);
    expect(writes()).toBe(1);
  });

  it('Ollama down with hundreds queued: pauses without burning attempts or spinning, resumes by itself', async () => {
    let up = false;
    let probes = 0;
    const { queue, count, writes, writeFor } = setup(undefined, { probe: async () => (probes++, up) });
    let calls = 0;
    const handler: JobHandler = {
      kind: 'reembed',
      run: async ({ job }) => {
        calls++;
        if (!up) throw new MnemoError('OLLAMA_UNREACHABLE', 'Cannot reach Ollama at http://127.0.0.1:1.');
        return writeFor(job.id);
      },
    };
    queue.register(handler);
    for (let i = 0; i < 300; i++) queue.enqueue({ kind: 'reembed', idempotencyKey: `j${i}` });
    queue.start();
    await queue.waitForIdle();
    expect(queue.state().paused).toMatchObject({ code: 'OLLAMA_UNREACHABLE' });
    expect(calls).toBe(1);
    expect(count("SELECT count(*) AS n FROM extraction_jobs WHERE attempts > 0")).toBe(0);
    // While paused the worker only probes, on its interval.
    const before = probes;
    await new Promise((r) => setTimeout(r, 50));
    expect(probes - before).toBeLessThan(30);
    expect(calls).toBe(1);
    up = true;
    await new Promise<void>((resolve) => {
      const check = () => (writes() === 300 ? resolve() : setTimeout(check, 10));
      check();
    });
    await queue.waitForIdle();
    expect(queue.state()).toMatchObject({ queued: 0, paused: null });
    expect(count("SELECT count(*) AS n FROM extraction_jobs WHERE status = 'done' AND attempts = 1")).toBe(300);
  });

  it('jobs left running by a dead process are re-queued at start and run exactly once', async () => {
    const file = path.join(tempDir(), 'q.db');
    const first = setup(file);
    first.queue.enqueue({ kind: 'reembed', idempotencyKey: 'a' });
    first.db.sqlite.prepare("UPDATE extraction_jobs SET status = 'running', attempts = 1, fencing_token = 1, lease_owner = 'dead-worker'").run();
    await first.queue.stop();
    first.db.close();
    open.splice(0);

    const second = setup(file);
    second.queue.register({ kind: 'reembed', run: async ({ job }) => second.writeFor(job.id) });
    second.queue.start();
    await second.queue.waitForIdle();
    expect(second.writes()).toBe(1);
    expect(second.count("SELECT count(*) AS n FROM extraction_jobs WHERE status = 'done'")).toBe(1);
  });

  it('a job scheduled for later runs once the clock reaches it (clock jump)', async () => {
    const { queue, writes, writeFor } = setup();
    queue.register({ kind: 'reembed', run: async ({ job }) => writeFor(job.id) });
    queue.enqueue({ kind: 'reembed', idempotencyKey: 'later', runAfter: now + 60 * 60_000 });
    queue.start();
    await queue.waitForIdle();
    expect(writes()).toBe(0);
    now += 61 * 60_000;
    queue.poke();
    await new Promise<void>((resolve) => {
      const check = () => (writes() === 1 ? resolve() : setTimeout(check, 5));
      check();
    });
    expect(writes()).toBe(1);
  });

  it('retry puts a dead job back; retrying a done job is refused', async () => {
    const { queue, writeFor } = setup();
    let fail = true;
    queue.register({
      kind: 'reembed',
      run: async ({ job }) => {
        if (fail) throw new MnemoError('INVALID_INPUT', 'bad payload');
        return writeFor(job.id);
      },
    });
    const id = queue.enqueue({ kind: 'reembed', idempotencyKey: 'r' });
    queue.start();
    await queue.waitForIdle();
    expect(queue.get(id)!.status).toBe('dead'); // permanent errors are not retried
    fail = false;
    queue.retry(id);
    await queue.waitForIdle();
    expect(queue.get(id)!.status).toBe('done');
    expect(() => queue.retry(id)).toThrow(/only dead or cancelled/);
  });
});
