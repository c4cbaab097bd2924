/**
 * The jobs table's store (electron/core/jobs/jobs.store.ts) on real SQLite: which job is next (due, of a claimable
 * kind, oldest run_after first, a patient kind held back below its threshold), the idempotency key, the fencing token
 * that guards every write after a claim, and statements whose text depends on a list prepared once per shape.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import { createJobsStore, type NewJob } from '../../electron/core/jobs/jobs.store';
import { useTempDirs } from '../support/temp-dir';

const open: OpenedDatabase[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
});

describe('the jobs store', () => {
  const tempDir = useTempDirs();

  function setup() {
    const db = openDatabase(path.join(tempDir(), 'jobs.db'), { migrationsDir: sourceMigrationsDir() });
    open.push(db);
    const store = createJobsStore(db.sqlite);
    const thread = () => Number(db.sqlite.prepare("INSERT INTO threads (title, created_at, updated_at, last_activity_at) VALUES ('t', 1, 1, 1)").run().lastInsertRowid);
    const job = (key: string, over: Partial<NewJob> = {}): NewJob => ({
      kind: 'extract',
      idempotencyKey: key,
      threadId: null,
      messageId: null,
      payload: { userMessageId: 1, assistantMessageId: 2 },
      maxAttempts: 5,
      runAfter: 100,
      ...over,
    });
    return { db, store, thread, job };
  }

  it('an idempotency key stores one job: the second insert returns the first one’s id and changes nothing', () => {
    const { store, job } = setup();
    const id = store.insert(job('k', { runAfter: 100 }), 50);
    expect(store.insert(job('k', { runAfter: 999 }), 60)).toBe(id);
    expect(store.get(id)).toMatchObject({ id, runAfter: 100, status: 'queued', attempts: 0 });
  });

  it('next due: oldest run_after first, never one not yet due or of a kind not asked for', () => {
    const { store, job } = setup();
    const later = store.insert(job('later', { runAfter: 300 }), 0);
    const title = store.insert(job('title', { kind: 'title', runAfter: 50, payload: { userMessageId: 1, assistantMessageId: 2 } }), 0);
    const older = store.insert(job('older', { runAfter: 100 }), 0);
    const newer = store.insert(job('newer', { runAfter: 200 }), 0);
    expect(store.nextDue(['extract'], null, 250)?.id).toBe(older);
    expect(store.nextDue(['extract', 'title'], null, 250)?.id).toBe(title);
    expect(store.nextDue(['extract'], null, 99)).toBeNull();
    expect(store.nextRunAfter(['extract'], 250)).toBe(300);
    expect(store.anyDue(['summarize'], 1000)).toBe(false);
    expect([later, newer].every((id) => store.get(id)?.status === 'queued')).toBe(true);
  });

  it('a patient kind waits until its threshold of due jobs of its thread waits; other kinds are not held', () => {
    const { store, job, thread } = setup();
    const t = thread();
    const first = store.insert(job('a', { threadId: t, runAfter: 10 }), 0);
    const patient = new Map([['extract' as const, { threshold: 3 }]]);
    expect(store.nextDue(['extract'], patient, 100)).toBeNull();
    store.insert(job('b', { threadId: t, runAfter: 20 }), 0);
    expect(store.nextDue(['extract'], patient, 100)).toBeNull();
    store.insert(job('c', { threadId: t, runAfter: 30 }), 0);
    expect(store.nextDue(['extract'], patient, 100)?.id).toBe(first);
    const other = store.insert(job('t', { kind: 'title', threadId: t, runAfter: 5 }), 0);
    expect(store.nextDue(['title', 'extract'], patient, 100)?.id).toBe(other);
  });

  it('a kind patient for one thread holds only that thread\'s jobs; the other threads\' run', () => {
    const { store, job, thread } = setup();
    const chatting = thread();
    const left = thread();
    const here = store.insert(job('here', { threadId: chatting, runAfter: 10 }), 0);
    const patient = new Map([['extract' as const, { threshold: 2, onlyThread: chatting }]]);
    expect(store.nextDue(['extract'], patient, 100)).toBeNull();
    const there = store.insert(job('there', { threadId: left, runAfter: 20 }), 0);
    expect(store.nextDue(['extract'], patient, 100)?.id).toBe(there);
    store.insert(job('here too', { threadId: chatting, runAfter: 30 }), 0);
    expect(store.nextDue(['extract'], patient, 100)?.id).toBe(here);
  });

  it('after a claim only the holder of the current fencing token writes: an older token changes nothing', () => {
    const { store, job } = setup();
    const id = store.insert(job('k'), 0);
    const lease = { owner: 'me', expiresAt: 1_000 };
    const first = store.write(() => store.take(id, lease, [], 100));
    expect(first).toMatchObject({ status: 'running', attempts: 1 });
    store.giveBack(first, null, 110);
    const second = store.write(() => store.take(id, lease, [], 120));
    expect(second.fencingToken).toBe(first.fencingToken + 1);
    expect(store.holdsLease(first)).toBe(false);
    expect(store.recordFailure(first, { status: 'dead', runAfter: 0, code: 'INTERNAL', message: 'x', finishedAt: 130 }, 130)).toBe(false);
    expect(store.holdsLease(second)).toBe(true);
    expect(store.recordFailure(second, { status: 'queued', runAfter: 500, code: 'LLM_BAD_OUTPUT', message: 'bad', finishedAt: null }, 130)).toBe(true);
    expect(store.get(id)).toMatchObject({ status: 'queued', runAfter: 500, lastErrorCode: 'LLM_BAD_OUTPUT', attempts: 1 }) // the given-back attempt was returned;
  });

  it('a claim clears a pause recorded on the job (its codes only) and keeps any other error', () => {
    const { store, job } = setup();
    const paused = store.insert(job('p'), 0);
    const failed = store.insert(job('f'), 0);
    for (const [id, code] of [[paused, 'DB_BUSY'], [failed, 'LLM_BAD_OUTPUT']] as const) {
      const claimed = store.write(() => store.take(id, { owner: 'me', expiresAt: 1_000 }, [], 10));
      store.giveBack(claimed, { code, message: 'why' }, 20);
    }
    expect(store.lastErrorOf(['DB_BUSY'])).toMatchObject({ code: 'DB_BUSY', message: 'why', since: 20 });
    expect(store.write(() => store.take(paused, { owner: 'me', expiresAt: 1_000 }, ['DB_BUSY'], 30)).lastErrorCode).toBeNull();
    expect(store.write(() => store.take(failed, { owner: 'me', expiresAt: 1_000 }, ['DB_BUSY'], 30)).lastErrorCode).toBe('LLM_BAD_OUTPUT');
  });

  it('payloads of a kind in the statuses asked for, as read (undefined when not JSON); a key is known whatever became of its job', () => {
    const { db, store, job } = setup();
    const cluster = (key: string, ids: number[]) => job(key, { kind: 'consolidate', payload: { memories: ids.map((id) => ({ id, version: 1 })) } });
    store.insert(cluster('queued', [1, 2]), 0);
    const running = store.insert(cluster('running', [3]), 0);
    store.write(() => store.take(running, { owner: 'me', expiresAt: 1_000 }, [], 10));
    const cancelled = store.insert(cluster('cancelled', [4]), 0);
    store.cancel(cancelled, 20);
    store.insert(job('extract'), 0);
    const broken = store.insert(cluster('broken', [5]), 0);
    db.sqlite.prepare("UPDATE jobs SET payload = 'not json' WHERE id = ?").run(broken);

    const ids = (payloads: unknown[]) => payloads.map((p) => (p as { memories: Array<{ id: number }> } | undefined)?.memories.map((m) => m.id) ?? 'unreadable');
    expect(ids(store.payloadsOf('consolidate', ['queued', 'running'])).sort()).toEqual([[1, 2], [3], 'unreadable'].sort());
    expect(ids(store.payloadsOf('consolidate', ['cancelled']))).toEqual([[4]]);
    expect(store.payloadsOf('title', ['queued'])).toEqual([]);
    expect([store.hasKey('cancelled'), store.hasKey('running'), store.hasKey('never')]).toEqual([true, true, false]);
  });

  it('a statement whose text depends on a list is prepared once per shape, not once per call', () => {
    const { db, store, job } = setup();
    store.insert(job('k'), 0);
    let prepared = 0;
    const prepare = db.sqlite.prepare.bind(db.sqlite);
    db.sqlite.prepare = ((sql: string) => {
      prepared += 1;
      return prepare(sql);
    }) as typeof db.sqlite.prepare;
    for (let i = 0; i < 5; i++) {
      store.nextDue(['extract', 'title'], new Map([['extract' as const, { threshold: 2 }]]), 200);
      store.list(['queued'], 10);
    }
    expect(prepared).toBe(2);
  });
});
