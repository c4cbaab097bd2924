import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MnemoError } from '../../shared/errors';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { JobQueue, type JobHandler, type JobQueueOptions } from '../../electron/core/jobs/job-queue';
import { createJobsStore } from '../../electron/core/jobs/jobs.store';
import { formatLeaseOwner } from '../../electron/core/jobs/lease-owner';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { useTempDirs } from '../support/temp-dir';
import { until } from '../support/until';

const open: Array<{ db: OpenedDatabase; queue: JobQueue }> = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const { db, queue } of open.splice(0)) {
    await queue.stop();
    db.close();
  }
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** The pid of a process that has run and ended (and been reaped): as dead as a killed `queue run`. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  expect(r.status).toBe(0);
  return r.pid;
}

/** A live process of this machine other than the test itself (another Mnemo runner, as far as the queue can tell). */
async function liveProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 60000); console.log("up")'], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return child as ChildProcess & { pid: number };
}

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
    const queue = new JobQueue({ store: createJobsStore(db.sqlite), clock, logger: silentLogger, baseBackoffMs: 1000, probeIntervalMs: 5, random: () => 0.5, ...opts });
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
    const a = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'k1' });
    const b = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'k1' });
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
    const slow = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'slow' });
    queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'next' });
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
    const id = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'x' });
    queue.start();
    await started.promise;
    // Another worker took over after our lease expired: the token moved on.
    db.sqlite.prepare('UPDATE jobs SET fencing_token = fencing_token + 1 WHERE id = ?').run(id);
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
    const id = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'gone' });
    queue.start();
    await started.promise;
    db.sqlite.prepare('DELETE FROM jobs WHERE id = ?').run(id);
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
    const poison = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'poison', maxAttempts: 3 });
    queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'fine' });
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

  it('a commit that registers an event and then throws fires nothing; the attempt that commits fires it once, after the commit', async () => {
    const { db, queue, writes, writeFor } = setup();
    const fired: Array<{ attempt: number; inTransaction: boolean; written: number }> = [];
    const failures: string[] = [];
    queue.register({
      kind: 'reembed',
      run: async ({ job }) => (tx) => {
        writeFor(job.id)();
        tx.afterCommit(() => fired.push({ attempt: job.attempts, inTransaction: db.sqlite.inTransaction, written: writes() }));
        if (job.attempts === 1) throw new MnemoError('LLM_BAD_OUTPUT', 'failed after its write');
      },
      onFailure: (job, error, _final, tx) => tx.afterCommit(() => failures.push(`${job.id}:${error.code}`)),
    });
    const id = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'late-throw' });
    await queue.runUntilIdle();
    expect(fired).toEqual([]);
    expect(writes()).toBe(0);
    expect(failures).toEqual([`${id}:LLM_BAD_OUTPUT`]);
    expect(queue.get(id)).toMatchObject({ status: 'queued', lastErrorCode: 'LLM_BAD_OUTPUT' });

    now += 60 * 60_000;
    await queue.runUntilIdle();
    expect(fired).toEqual([{ attempt: 2, inTransaction: false, written: 1 }]);
    expect(queue.get(id)!.status).toBe('done');
  });

  it('an event whose listener throws after the commit leaves the job done, and the next event still fires', async () => {
    const { queue, writes, writeFor } = setup();
    const fired: string[] = [];
    queue.register({
      kind: 'reembed',
      run: async ({ job }) => (tx) => {
        writeFor(job.id)();
        tx.afterCommit(() => {
          throw new Error('a listener failed');
        });
        tx.afterCommit(() => fired.push('second'));
      },
    });
    const id = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'e' });
    await queue.runUntilIdle();
    expect(queue.get(id)!.status).toBe('done');
    expect(writes()).toBe(1);
    expect(fired).toEqual(['second']);
  });

  it('a stored payload that does not fit its kind dead-letters that job with INVALID_INPUT (its handler never runs); the others go on', async () => {
    const dead: Array<{ id: number; code: string }> = [];
    const { db, queue, writes, writeFor } = setup(undefined, { onDead: (job, code) => dead.push({ id: job.id, code }) });
    const ran: string[] = [];
    queue.register({ kind: 'reembed', run: async ({ job }) => (ran.push(job.payload.reason), writeFor(job.id)) });
    const wrongType = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'wrong-type' });
    const notJson = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'not-json' });
    queue.enqueue({ kind: 'reembed', payload: { reason: 'fine' }, idempotencyKey: 'fine' });
    // As an older version, or a hand edit, could have left them.
    const setPayload = db.sqlite.prepare('UPDATE jobs SET payload = ? WHERE id = ?');
    setPayload.run(JSON.stringify({ reason: 42 }), wrongType);
    setPayload.run('{not json', notJson);
    await queue.runUntilIdle();
    expect(ran).toEqual(['fine']);
    expect(writes()).toBe(1);
    expect(dead).toEqual([
      { id: wrongType, code: 'INVALID_INPUT' },
      { id: notJson, code: 'INVALID_INPUT' },
    ]);
    const stored = db.sqlite.prepare('SELECT last_error_message AS message FROM jobs WHERE id = ?');
    expect(stored.get(wrongType)).toEqual({ message: expect.stringMatching(/^Job \d+ \(reembed\) cannot run: .*reason: .*It was set aside; the other jobs go on\.$/) });
    expect(stored.get(notJson)).toEqual({ message: expect.stringContaining('it is not JSON') });
    expect(queue.list({ status: ['dead'], limit: 10 }).map((j) => j.payload)).toEqual([undefined, { reason: 42 }]);
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
    for (let i = 0; i < 300; i++) queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: `j${i}` });
    queue.start();
    await queue.waitForIdle();
    expect(queue.state().paused).toMatchObject({ code: 'OLLAMA_UNREACHABLE' });
    expect(calls).toBe(1);
    expect(count("SELECT count(*) AS n FROM jobs WHERE attempts > 0")).toBe(0);
    // While paused the worker only probes, on its interval.
    const before = probes;
    await new Promise((r) => setTimeout(r, 50));
    expect(probes - before).toBeLessThan(30);
    expect(calls).toBe(1);
    up = true;
    await until(() => writes() === 300, 'all 300 jobs written');
    await queue.waitForIdle();
    expect(queue.state()).toMatchObject({ queued: 0, paused: null });
    expect(count("SELECT count(*) AS n FROM jobs WHERE status = 'done' AND attempts = 1")).toBe(300);
  });

  it('jobs left running by a dead process are re-queued at start and run exactly once', async () => {
    const file = path.join(tempDir(), 'q.db');
    const first = setup(file);
    first.queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'a' });
    first.db.sqlite.prepare("UPDATE jobs SET status = 'running', attempts = 1, fencing_token = 1, lease_owner = 'dead-worker'").run();
    await first.queue.stop();
    first.db.close();
    open.splice(0);

    const second = setup(file);
    second.queue.register({ kind: 'reembed', run: async ({ job }) => second.writeFor(job.id) });
    second.queue.start();
    await second.queue.waitForIdle();
    expect(second.writes()).toBe(1);
    expect(second.count("SELECT count(*) AS n FROM jobs WHERE status = 'done'")).toBe(1);
  });

  it('a job scheduled for later runs once the clock reaches it (clock jump)', async () => {
    const { queue, writes, writeFor } = setup();
    queue.register({ kind: 'reembed', run: async ({ job }) => writeFor(job.id) });
    queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'later', runAfter: now + 60 * 60_000 });
    queue.start();
    await queue.waitForIdle();
    expect(writes()).toBe(0);
    now += 61 * 60_000;
    queue.poke();
    await until(() => writes() === 1, 'the job written');
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
    const id = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'r' });
    queue.start();
    await queue.waitForIdle();
    expect(queue.get(id)!.status).toBe('dead'); // permanent errors are not retried
    fail = false;
    queue.retry(id);
    await queue.waitForIdle();
    expect(queue.get(id)!.status).toBe('done');
    expect(() => queue.retry(id)).toThrow(/only dead or cancelled/);
  });

  describe('jobs whose runner is gone', () => {
    /** Makes a queued job look claimed by `owner` (pid, host), as a runner in another process would leave it. */
    function holdAs(db: OpenedDatabase, jobId: number, owner: { pid: number; host?: string }, leaseExpiresAt: number) {
      db.sqlite
        .prepare("UPDATE jobs SET status = 'running', attempts = 1, fencing_token = fencing_token + 1, lease_owner = ?, lease_expires_at = ? WHERE id = ?")
        .run(formatLeaseOwner({ pid: owner.pid, host: owner.host ?? os.hostname(), id: 'other1' }), leaseExpiresAt, jobId);
    }

    it("a live owner's job is not stolen: neither another queue of this process nor another live process loses its job", async () => {
      const file = path.join(tempDir(), 'q.db');
      const a = setup(file);
      const b = setup(file);
      const started = deferred();
      const release = deferred();
      let runsOfHeld = 0;
      a.queue.register({
        kind: 'reembed',
        run: async ({ job }) => {
          started.resolve();
          await release.promise;
          return a.writeFor(job.id);
        },
      });
      b.queue.register({ kind: 'reembed', run: async ({ job }) => (job.idempotencyKey === 'held' && runsOfHeld++, b.writeFor(job.id)) });
      const held = a.queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'held' });
      a.queue.start();
      await started.promise;
      const other = await liveProcess();
      const elsewhere = b.queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'elsewhere' });
      holdAs(b.db, elsewhere, { pid: other.pid }, now + 60_000);
      b.queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'free' });

      await b.queue.runUntilIdle();
      expect(runsOfHeld).toBe(0);
      expect(b.queue.get(held)!.status).toBe('running');
      expect(b.queue.get(elsewhere)!.status).toBe('running');
      expect(b.queue.state()).toMatchObject({ queued: 0, running: null, runningElsewhere: 2, stalled: 0 });
      expect(b.writes()).toBe(1); // "free" only

      release.resolve();
      await until(() => a.queue.get(held)!.status === 'done');
      expect(b.writes()).toBe(2);
    });

    it("a dead owner's job (its process ended on this machine) is shown as stalled, then taken back and run exactly once", async () => {
      const { db, queue, writes, writeFor } = setup();
      queue.register({ kind: 'reembed', run: async ({ job }) => writeFor(job.id) });
      const id = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'orphan' });
      holdAs(db, id, { pid: deadPid() }, now + 60_000); // the lease alone would hold for another minute
      expect(queue.state()).toMatchObject({ queued: 0, running: null, runningElsewhere: 0, stalled: 1 });

      await queue.runUntilIdle();
      expect(queue.get(id)).toMatchObject({ status: 'done', attempts: 2 });
      expect(writes()).toBe(1);
      expect(queue.state()).toMatchObject({ queued: 0, stalled: 0 });
    });

    it('an expired lease is taken back, even from an owner on another machine (whose process cannot be asked)', async () => {
      const { db, queue, writes, writeFor } = setup();
      queue.register({ kind: 'reembed', run: async ({ job }) => writeFor(job.id) });
      const id = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'far' });
      holdAs(db, id, { pid: process.pid, host: 'another-machine' }, now + 60_000);

      await queue.runUntilIdle();
      expect(queue.get(id)!.status).toBe('running'); // still within its lease: maybe alive
      expect(queue.state()).toMatchObject({ runningElsewhere: 1, stalled: 0 });

      now += 60_000;
      expect(queue.state()).toMatchObject({ runningElsewhere: 0, stalled: 1 });
      await queue.runUntilIdle();
      expect(queue.get(id)!.status).toBe('done');
      expect(writes()).toBe(1);
    });

    it('an idle running queue takes back the job of a runner that claimed it and died meanwhile, without waiting for the lease', { timeout: 20_000 }, async () => {
      const { db, queue, writes, writeFor } = setup(undefined, { leaseMs: 6_000 });
      queue.register({ kind: 'reembed', run: async ({ job }) => writeFor(job.id) });
      const runner = await liveProcess();
      queue.start();
      await queue.waitForIdle(); // asleep, with nothing to do
      // Another runner (a `queue run` in a terminal) enqueues and claims a job: this queue is not told.
      const id = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'cli-job' });
      holdAs(db, id, { pid: runner.pid }, now + 10 * 60_000);
      await queue.waitForIdle();
      expect(queue.get(id)!.status).toBe('running'); // its owner lives

      const exited = new Promise((resolve) => runner.once('exit', resolve));
      runner.kill('SIGKILL');
      await exited;
      await until(() => queue.get(id)!.status === 'done'); // at the next look at other runners' jobs (1 s here)
      expect(writes()).toBe(1);
    });

    it('a lease is renewed while its job runs, so a long job is not taken for abandoned', async () => {
      const file = path.join(tempDir(), 'q.db');
      const a = setup(file, { leaseMs: 6_000 });
      const b = setup(file, { leaseMs: 6_000 });
      const started = deferred();
      const release = deferred();
      a.queue.register({ kind: 'reembed', run: async ({ job }) => (started.resolve(), await release.promise, a.writeFor(job.id)) });
      b.queue.register({ kind: 'reembed', run: async ({ job }) => b.writeFor(job.id) });
      const id = a.queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'long' });
      a.queue.start();
      await started.promise;
      const leaseAt = () => (a.db.sqlite.prepare('SELECT lease_expires_at AS at FROM jobs WHERE id = ?').get(id) as { at: number }).at;
      const first = leaseAt();
      now += 5_000; // most of the lease gone; the heartbeat (every second here) renews it from the new time
      await until(() => leaseAt() > first);
      now += 2_000; // past the first lease, within the renewed one
      await b.queue.runUntilIdle();
      expect(b.writes()).toBe(0);
      expect(b.queue.state()).toMatchObject({ runningElsewhere: 1, stalled: 0 });
      release.resolve();
      await until(() => a.queue.get(id)!.status === 'done');
      expect(a.writes()).toBe(1);
    });
  });

  describe('status in a process whose queue does not run (the CLI)', () => {
    it('asks the model server when jobs wait: unreachable from here is reported as this process\'s view, not as a pause', async () => {
      let up = false;
      const { queue } = setup(undefined, {
        probe: async () => {
          if (!up) throw new MnemoError('OLLAMA_UNREACHABLE', 'Cannot reach Ollama at http://127.0.0.1:9. Start it with "ollama serve" or set OLLAMA_HOST.');
          return true;
        },
      });
      queue.register({ kind: 'reembed', run: async () => null });
      expect((await queue.status()).paused).toBeNull(); // nothing waits: nothing to ask
      queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'w' });
      expect(queue.state().paused).toBeNull();
      // The runner (the app) may ask another address than this process: its view is its own, the queue is not paused.
      const down = await queue.status();
      expect(down.paused).toBeNull();
      expect(down.unreachableHere).toEqual({ code: 'OLLAMA_UNREACHABLE', message: expect.stringContaining('ollama serve') });
      up = true;
      const back = await queue.status();
      expect(back.paused).toBeNull();
      expect(back).not.toHaveProperty('unreachableHere');
    });

    it('a pause a runner recorded (Ollama unreachable) stands while the server does not answer here either, not once it does', async () => {
      const file = path.join(tempDir(), 'q.db');
      const runner = setup(file);
      runner.queue.register({ kind: 'reembed', run: async () => Promise.reject(new MnemoError('OLLAMA_UNREACHABLE', 'Cannot reach Ollama at http://127.0.0.1:9.')) });
      runner.queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'u' });
      const pausedAt = now;
      await runner.queue.runUntilIdle();

      let up = false;
      const asker = setup(file, {
        probe: async () => {
          if (!up) throw new MnemoError('OLLAMA_UNREACHABLE', 'Cannot reach Ollama at http://127.0.0.1:11434.');
          return true;
        },
      });
      expect(await asker.queue.status()).toMatchObject({
        paused: { code: 'OLLAMA_UNREACHABLE', message: 'Cannot reach Ollama at http://127.0.0.1:9.', since: pausedAt },
        unreachableHere: { code: 'OLLAMA_UNREACHABLE', message: 'Cannot reach Ollama at http://127.0.0.1:11434.' },
      });
      up = true;
      expect((await asker.queue.status()).paused).toBeNull(); // the server answers: the record is history
    });

    it('a model server that does not answer is reported as unreachable after a short time', { timeout: 20_000 }, async () => {
      const { queue } = setup(undefined, {
        probe: (signal) => new Promise<boolean>((_, reject) => signal?.addEventListener('abort', () => reject(new MnemoError('ABORTED', 'stopped')))),
      });
      queue.register({ kind: 'reembed', run: async () => null });
      queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'w' });
      expect(await queue.status()).toMatchObject({ paused: null, unreachableHere: { code: 'OLLAMA_UNREACHABLE', message: expect.stringMatching(/did not answer/) } });
    });

    it('reports the pause another runner recorded (model missing), with its time, until the job runs', async () => {
      const file = path.join(tempDir(), 'q.db');
      let installed = false;
      const runner = setup(file);
      runner.queue.register({
        kind: 'reembed',
        run: async ({ job }) => {
          if (!installed) throw new MnemoError('MODEL_NOT_FOUND', 'Model "llama3.2" is not installed in Ollama. Install it with "ollama pull llama3.2".');
          return runner.writeFor(job.id);
        },
      });
      runner.queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'm' });
      const pausedAt = now;
      await runner.queue.runUntilIdle(); // pauses, gives the job back and ends, like `queue run --until-idle`

      const asker = setup(file, { probe: async () => true }); // Ollama itself answers
      expect((await asker.queue.status()).paused).toEqual({ code: 'MODEL_NOT_FOUND', message: expect.stringContaining('ollama pull llama3.2'), since: pausedAt });

      installed = true;
      now += 1_000;
      const next = setup(file);
      next.queue.register({ kind: 'reembed', run: async ({ job }) => next.writeFor(job.id) });
      await next.queue.runUntilIdle();
      expect(next.writes()).toBe(1);
      expect((await asker.queue.status()).paused).toBeNull();
    });

    it('a recorded pause ends when a runner takes the job again, even if that runner is stopped before it finishes', async () => {
      const file = path.join(tempDir(), 'q.db');
      const runner = setup(file);
      runner.queue.register({ kind: 'reembed', run: async () => Promise.reject(new MnemoError('MODEL_NOT_FOUND', 'Model "llama3.2" is not installed in Ollama.')) });
      const id = runner.queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'm' });
      await runner.queue.runUntilIdle();
      const asker = setup(file, { probe: async () => true });
      expect((await asker.queue.status()).paused).toMatchObject({ code: 'MODEL_NOT_FOUND' });

      // The model is back; the app takes the job and is closed in the middle of it: the job waits again, not paused.
      const app = setup(file);
      const started = deferred();
      app.queue.register({ kind: 'reembed', run: ({ signal }) => (started.resolve(), new Promise((_, reject) => signal.addEventListener('abort', () => reject(new MnemoError('ABORTED', 'stopped'))))) });
      app.queue.start();
      await started.promise;
      await app.queue.stop();
      expect(asker.queue.get(id)).toMatchObject({ status: 'queued', lastErrorCode: null });
      expect((await asker.queue.status()).paused).toBeNull();
    });
  });
});
