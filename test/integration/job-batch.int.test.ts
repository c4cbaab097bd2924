/**
 * Batches in the durable queue (handler.batch): the due jobs of one kind and thread run together and one commit
 * completes those still held; a failure is the claimed job's, and the others go back with their attempts; the lane's
 * PREEMPTED gives every job of the batch back with its attempt.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MnemoError } from '../../shared/errors';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { JobQueue, type JobHandler } from '../../electron/core/jobs/job-queue';
import { createJobsStore } from '../../electron/core/jobs/jobs.store';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { useTempDirs } from '../support/temp-dir';
import { until } from '../support/until';

const open: Array<{ db: OpenedDatabase; queue: JobQueue }> = [];
afterEach(async () => {
  for (const { db, queue } of open.splice(0)) {
    await queue.stop();
    db.close();
  }
});

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('job batches', () => {
  const tempDir = useTempDirs();

  function setup(stretchLeftMs?: () => number, conversation?: { leftMs: () => number; threadId: () => number | null }) {
    const db = openDatabase(path.join(tempDir(), 'q.db'), { migrationsDir: sourceMigrationsDir() });
    const queue = new JobQueue({ store: createJobsStore(db.sqlite), clock: { now: () => 1_000_000 }, logger: silentLogger, baseBackoffMs: 60_000, random: () => 0.5, ...(stretchLeftMs ? { stretchLeftMs } : {}), ...(conversation ? { conversationLeftMs: conversation.leftMs, chattingThreadId: conversation.threadId } : {}) });
    open.push({ db, queue });
    const thread = () => Number(db.sqlite.prepare("INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES ('t', 1, 1, 1)").run().lastInsertRowid);
    const enqueue = (threadId: number, n: number) =>
      queue.enqueue({ kind: 'extract', idempotencyKey: `x${threadId}-${n}`, threadId, payload: { userMessageId: n, assistantMessageId: n + 1 } });
    const written = () => (db.sqlite.prepare("SELECT key FROM settings WHERE key LIKE 'job-%' ORDER BY key").all() as Array<{ key: string }>).map((r) => r.key);
    return { db, queue, thread, enqueue, written };
  }

  it('runs the due jobs of one thread together, up to the batch size, and completes each with one commit', async () => {
    const { db, queue, thread, enqueue, written } = setup();
    const batches: number[][] = [];
    const handler: JobHandler = {
      kind: 'extract',
      batch: 3,
      run: async ({ job, batch }) => {
        expect(batch[0]!.id).toBe(job.id);
        batches.push(batch.map((b) => b.id));
        return (_tx, held) => {
          for (const id of held) db.sqlite.prepare("INSERT INTO settings (key, value, updated_at) VALUES (?, '1', 0)").run(`job-${id}`);
        };
      },
    };
    queue.register(handler);
    const a = thread();
    const b = thread();
    const ids = [enqueue(a, 1), enqueue(a, 3), enqueue(b, 5), enqueue(a, 7), enqueue(a, 9)];
    queue.start();
    await queue.waitForIdle();
    // Thread a's first three, then thread b's one, then thread a's last: never two threads in one batch.
    expect(batches).toEqual([[ids[0], ids[1], ids[3]], [ids[2]], [ids[4]]]);
    expect(written()).toHaveLength(5);
    for (const id of ids) expect(queue.get(id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('a job of the batch cancelled while it runs is not in the commit, and stays cancelled', async () => {
    const { queue, thread, enqueue } = setup();
    const started = deferred();
    const go = deferred();
    let held: number[] = [];
    queue.register({
      kind: 'extract',
      batch: 3,
      run: async () => {
        started.resolve();
        await go.promise;
        return (_tx, h) => void (held = [...h]);
      },
    });
    const t = thread();
    const [first, second] = [enqueue(t, 1), enqueue(t, 3)];
    queue.start();
    await started.promise;
    queue.cancel(second);
    go.resolve();
    await queue.waitForIdle();
    expect(held).toEqual([first]);
    expect(queue.get(first)!.status).toBe('done');
    expect(queue.get(second)!.status).toBe('cancelled');
  });

  it('a failure is the claimed job\'s; the others go back with their attempts returned', async () => {
    const { queue, thread, enqueue } = setup();
    let runs = 0;
    queue.register({
      kind: 'extract',
      batch: 3,
      run: async () => {
        runs++;
        throw new MnemoError('LLM_BAD_OUTPUT', 'nothing usable');
      },
    });
    const t = thread();
    const [first, second, third] = [enqueue(t, 1), enqueue(t, 3), enqueue(t, 5)];
    await queue.runUntilIdle();
    // Each job carried the failure once, as the claimed job of a batch (first of [1,2,3], then of [2,3], then of
    // [3]); going back as a companion cost none of them an attempt. Each now waits for its backoff.
    expect(runs).toBe(3);
    for (const id of [first, second, third]) expect(queue.get(id)).toMatchObject({ status: 'queued', attempts: 1, lastErrorCode: 'LLM_BAD_OUTPUT' });
  });

  it('PREEMPTED gives every job of the batch back with its attempt, and the batch runs again whole', async () => {
    const { queue, thread, enqueue } = setup();
    const batches: number[][] = [];
    queue.register({
      kind: 'extract',
      batch: 3,
      run: async ({ batch }) => {
        batches.push(batch.map((b) => b.id));
        if (batches.length === 1) throw new MnemoError('PREEMPTED', 'the chat needs the model');
        return () => {};
      },
    });
    const t = thread();
    const ids = [enqueue(t, 1), enqueue(t, 3)];
    await queue.runUntilIdle();
    expect(batches).toEqual([ids, ids]);
    for (const id of ids) expect(queue.get(id)).toMatchObject({ status: 'done', attempts: 1, lastErrorCode: null });
  });

  it('mid-conversation a patient kind waits until a batch of its thread waits; when the stretch ends, it runs what waits', async () => {
    let stretch = 60_000;
    const { queue, thread, enqueue } = setup(() => stretch);
    const batches: number[][] = [];
    queue.register({ kind: 'extract', batch: 3, patience: 3, run: async ({ batch }) => (batches.push(batch.map((b) => b.id)), () => {}) });
    queue.register({ kind: 'reembed', run: async () => () => {} });
    const a = thread();
    const b = thread();
    const first = enqueue(a, 1);
    const other = enqueue(b, 2);
    const second = enqueue(a, 3);
    const reembed = queue.enqueue({ kind: 'reembed', payload: { reason: 'test' }, idempotencyKey: 'r' });
    queue.start();
    // An impatient kind runs, though queued after the exchanges: they were passed over. They are work still to do, so
    // the queue is not idle.
    await until(() => queue.get(reembed)!.status === 'done', 'the reembed job');
    expect(batches).toEqual([]);
    let idle = false;
    void queue.waitForIdle().then(() => (idle = true));
    // A third exchange of thread a: a batch's worth waits, and it runs as one batch.
    const third = enqueue(a, 5);
    await until(() => queue.get(third)!.status === 'done', "thread a's batch");
    expect(batches).toEqual([[first, second, third]]);
    expect(idle).toBe(false);
    // The user is away now: thread b's lone exchange runs too.
    stretch = 0;
    queue.poke();
    await queue.waitForIdle();
    expect(batches).toEqual([[first, second, third], [other]]);
  });

  it('while learning keeps up, only a kind patient at any speed waits for its stretch, in the thread being chatted in', async () => {
    let conversation = 60_000;
    let chattingIn: number | null = null;
    const { queue, thread, enqueue } = setup(() => 0, { leftMs: () => conversation, threadId: () => chattingIn });
    const ran: Array<[string, number[]]> = [];
    queue.register({ kind: 'extract', batch: 3, patience: 3, run: async ({ batch }) => (ran.push(['extract', batch.map((b) => b.id)]), () => {}) });
    queue.register({ kind: 'focus', batch: 3, patience: 3, patienceAtAnySpeed: true, run: async ({ batch }) => (ran.push(['focus', batch.map((b) => b.id)]), () => {}) });
    const a = thread();
    const b = thread();
    chattingIn = a;
    const focus = (n: number, threadId = a) => queue.enqueue({ kind: 'focus', payload: { afterMessageId: 0 }, idempotencyKey: `f${n}`, threadId });
    const first = enqueue(a, 1);
    const f1 = focus(1);
    queue.start();
    await until(() => queue.get(first)!.status === 'done', 'the extraction');
    expect(ran).toEqual([['extract', [first]]]);
    const f2 = focus(2);
    const f3 = focus(3);
    await until(() => queue.get(f3)!.status === 'done', 'the stretch of three');
    expect(ran).toEqual([['extract', [first]], ['focus', [f1, f2, f3]]]);
    // Another thread's does not wait: the user is not chatting there.
    const elsewhere = focus(5, b);
    await until(() => queue.get(elsewhere)!.status === 'done', "the other thread's update");
    expect(ran.at(-1)).toEqual(['focus', [elsewhere]]);
    // A lone one waits until the conversation is over.
    const f4 = focus(4);
    let idle = false;
    void queue.waitForIdle().then(() => (idle = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(queue.get(f4)!.status).toBe('queued');
    expect(idle).toBe(false);
    conversation = 0;
    queue.poke();
    await queue.waitForIdle();
    expect(ran.at(-1)).toEqual(['focus', [f4]]);
  });

  it("a kind that spares a thread's first job: the first runs at once, the next wait for their stretch", async () => {
    const { queue, thread } = setup(() => 0, { leftMs: () => 60_000, threadId: () => chattingIn });
    let chattingIn: number | null = null;
    const ran: number[][] = [];
    queue.register({ kind: 'focus', batch: 3, patience: 3, patienceAtAnySpeed: true, firstAtOnce: true, run: async ({ batch }) => (ran.push(batch.map((b) => b.id)), () => {}) });
    const a = thread();
    chattingIn = a;
    const job = (n: number) => queue.enqueue({ kind: 'focus', payload: { afterMessageId: 0 }, idempotencyKey: `f${n}`, threadId: a });
    const first = job(1);
    queue.start();
    await until(() => queue.get(first)!.status === 'done', "the thread's first job");
    const second = job(2);
    await new Promise((r) => setTimeout(r, 50));
    expect(queue.get(second)!.status).toBe('queued');
    const third = job(3);
    const fourth = job(4);
    await until(() => queue.get(fourth)!.status === 'done', 'the stretch of three');
    expect(ran).toEqual([[first], [second, third, fourth]]);
  });
});
