import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { EventPayload, MaintenanceReport, Memory } from '../../shared/contract';
import type { Core, CoreOptions } from '../../electron/core/create-core';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { createTestClock, openMemoryHarness, type TestClock } from '../support/memory-harness';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

const DAY = 86_400_000;
const NOTHING: MaintenanceReport = {
  merged: 0,
  decayed: 0,
  trashedForCap: 0,
  purged: 0,
  expired: 0,
  mergePending: 0,
  mergeChecked: false,
  cap: { cap: 10_000, active: 1, learned: 0, overCap: 0, restorableDays: 30 },
  clustersQueued: 0,
  clustersSummarised: 0,
};

describe('memory maintenance', () => {
  const tempDir = useTempDirs();
  const open: Core[] = [];
  afterEach(async () => {
    for (const core of open.splice(0)) await core.dispose();
  });

  function start(options: Partial<CoreOptions> & { dir?: string } = {}): { client: Client; core: Core; dir: string; clock: TestClock } {
    const { dir = tempDir(), ...rest } = options;
    const clock = (rest.clock as TestClock | undefined) ?? createTestClock();
    const { core, client } = createTestCore(dir, { startQueue: false, embedder: null, ...rest, clock });
    open.push(core);
    return { core, client, dir, clock };
  }

  const add = async (client: Client, content: string, more: { category?: Memory['category']; importance?: number; pinned?: boolean; expiresAt?: number } = {}) =>
    unwrap(await client.call('memory.create', { content, ...more }));
  const get = async (client: Client, id: number) => unwrap(await client.call('memory.get', { memoryId: id }));
  const maintain = async (client: Client) => unwrap(await client.call('memory.maintain', {}));

  function timeline(dir: string, kind: string): Array<{ memory_id: number | null; data: Record<string, unknown> }> {
    const db = new Database(path.join(dir, 'mnemo.db'), { readonly: true });
    try {
      return (db.prepare('SELECT memory_id, data FROM events WHERE kind = ? ORDER BY id').all(kind) as Array<{ memory_id: number | null; data: string }>).map((r) => ({
        memory_id: r.memory_id,
        data: JSON.parse(r.data) as Record<string, unknown>,
      }));
    } finally {
      db.close();
    }
  }

  it('does nothing to a fresh store, and says so', async () => {
    const { client, core } = start();
    const seen: unknown[] = [];
    core.subscribe((m) => m.event === 'memory.maintained' && seen.push(m.payload));
    await add(client, 'Lives in Lisbon');
    expect(await maintain(client)).toEqual(NOTHING);
    expect(seen).toEqual([{ report: NOTHING }]);
  });

  it('merges a near-duplicate into the more complete wording, keeps the higher importance and the pin; restore and revert undo it', async () => {
    const { client, dir } = start({ embedder: createBagOfWordsEmbedder() });
    const short = await add(client, 'Prefers green tea in the morning', { category: 'preference', importance: 0.9, pinned: true });
    const long = await add(client, 'Prefers green tea in the morning, always', { category: 'preference', importance: 0.4 });
    const otherCategory = await add(client, 'Prefers green tea in the morning, usually', { category: 'knowledge' });
    const unrelated = await add(client, 'Plays chess on Sundays', { category: 'preference' });

    expect(await maintain(client)).toMatchObject({ merged: 1, mergeChecked: true, mergePending: 0 });
    const survivor = await get(client, long.id);
    expect(survivor.memory).toMatchObject({ status: 'active', importance: 0.9, pinned: true, content: 'Prefers green tea in the morning, always' });
    expect(survivor.versions.at(-1)).toMatchObject({ origin: 'maintenance', reason: 'merged' });
    const merged = await get(client, short.id);
    expect(merged.memory).toMatchObject({ status: 'archived', supersededBy: long.id });
    expect(merged.versions.at(-1)).toMatchObject({ origin: 'maintenance', reason: 'merged', status: 'archived' });
    expect((await get(client, otherCategory.id)).memory.status).toBe('active');
    expect((await get(client, unrelated.id)).memory.status).toBe('active');
    expect(timeline(dir, 'merged').map((e) => e.memory_id)).toEqual([short.id, long.id]);

    // A second run finds nothing more to merge.
    expect(await maintain(client)).toMatchObject({ merged: 0, mergeChecked: true });

    // Undo: the archived one comes back, the survivor goes back to its own importance and pin.
    unwrap(await client.call('memory.restore', { memoryId: short.id }));
    unwrap(await client.call('memory.revert', { memoryId: long.id, version: survivor.versions.at(-2)!.version }));
    expect((await get(client, short.id)).memory).toMatchObject({ status: 'active', importance: 0.9, pinned: true });
    expect((await get(client, long.id)).memory).toMatchObject({ status: 'active', importance: 0.4, pinned: false });
  });

  type Progress = EventPayload<'maintenance.progressed'>;
  const STEPS: Progress['step'][] = ['expire', 'merge', 'decay', 'cap', 'purge'];

  /** Collects maintenance.progressed as the core sends it. */
  function progressOf(core: Core): Progress[] {
    const seen: Progress[] = [];
    core.subscribe((m) => m.event === 'maintenance.progressed' && seen.push(m.payload));
    return seen;
  }

  /** The steps in maintenance's order, each one run of events that never goes back, never past its total, ending done. */
  function expectWellFormed(progress: Progress[], steps: Progress['step'][]) {
    const runs = steps.map((step) => progress.filter((p) => p.step === step));
    expect(runs.flat()).toEqual(progress);
    for (const run of runs) {
      expect(run.length).toBeGreaterThan(0);
      for (const [i, p] of run.entries()) {
        expect(p.total).toBe(run[0]!.total);
        expect(p.done).toBeLessThanOrEqual(p.total);
        if (i > 0) expect(p.done).toBeGreaterThanOrEqual(run[i - 1]!.done);
      }
      expect(run.at(-1)!.done).toBe(run.at(-1)!.total);
    }
  }

  /** 120 memories sharing no words (so none merges), and one near-duplicate pair. */
  async function manyMemories(client: Client) {
    for (let i = 0; i < 120; i++) await add(client, `w${i}alpha w${i}beta w${i}gamma`, { category: 'knowledge' });
    await add(client, 'Prefers green tea in the morning', { category: 'preference' });
    await add(client, 'Prefers green tea in the morning, always', { category: 'preference' });
  }

  it('reports its steps in order, each ending done; the merge step not once per memory', { timeout: 120_000 }, async () => {
    const { client, core } = start({ embedder: createBagOfWordsEmbedder() });
    await manyMemories(client);
    const old = await add(client, 'Trashed long ago');
    unwrap(await client.call('memory.delete', { memoryId: old.id }));
    const progress = progressOf(core);
    expect(await maintain(client)).toMatchObject({ merged: 1, purged: 0 });
    expectWellFormed(progress, STEPS);
    // The clock stands still here: no 100 ms pass, so 122 checked memories in three transactions are two events.
    expect(progress).toEqual([
      { step: 'expire', done: 0, total: 0 },
      { step: 'merge', done: 0, total: 122 },
      { step: 'merge', done: 122, total: 122 },
      { step: 'decay', done: 0, total: 0 },
      { step: 'cap', done: 0, total: 0 },
      { step: 'purge', done: 0, total: 0 },
    ]);
  });

  it('reports the merge step between its transactions as time passes, and what it purged', { timeout: 120_000 }, async () => {
    // A clock a second later at every look: every transaction boundary is past the 100 ms between reports.
    const clock = createTestClock();
    const ticking: TestClock = { ...clock, now: () => (clock.advance(1000), clock.now()) };
    const { client, core } = start({ embedder: createBagOfWordsEmbedder(), clock: ticking });
    await manyMemories(client);
    const old = await add(client, 'Trashed long ago');
    unwrap(await client.call('memory.delete', { memoryId: old.id }));
    clock.advance(60 * DAY);
    const progress = progressOf(core);
    expect(await maintain(client)).toMatchObject({ merged: 1, purged: 1 });
    expectWellFormed(progress, STEPS);
    const merge = progress.filter((p) => p.step === 'merge');
    // 50 memories a transaction at most: at least three reports after the first.
    expect(merge.length).toBeGreaterThanOrEqual(4);
    expect(merge.slice(1, -1).every((p) => p.done > 0 && p.done < 122)).toBe(true);
    expect(progress.at(-1)).toEqual({ step: 'purge', done: 1, total: 1 });
  });

  it('does not merge without semantic search, and says it did not look', async () => {
    const { client, core } = start();
    await add(client, 'Prefers green tea in the morning', { category: 'preference' });
    await add(client, 'Prefers green tea in the morning, always', { category: 'preference' });
    const progress = progressOf(core);
    expect(await maintain(client)).toMatchObject({ merged: 0, mergeChecked: false });
    // Nothing compared, so no merge step to report.
    expectWellFormed(progress, ['expire', 'decay', 'cap', 'purge']);
  });

  it('decays low-importance memories untouched for 90 days, once per 90 days, never pinned ones; revert undoes it', async () => {
    const { client, clock } = start();
    const low = await add(client, 'Once tried pottery', { importance: 0.25 });
    const pinnedLow = await add(client, 'Keeps a spare key under the mat', { importance: 0.25, pinned: true });
    const important = await add(client, 'Is allergic to peanuts', { importance: 0.9 });
    clock.advance(80 * DAY);
    const recent = await add(client, 'Visited a pottery fair', { importance: 0.1 });
    clock.advance(11 * DAY);

    expect(await maintain(client)).toMatchObject({ decayed: 1 });
    const decayed = await get(client, low.id);
    expect(decayed.memory.importance).toBeCloseTo(0.2, 10);
    expect(decayed.versions.at(-1)).toMatchObject({ origin: 'maintenance', reason: 'decayed' });
    for (const id of [pinnedLow.id, important.id, recent.id]) expect((await get(client, id)).versions).toHaveLength(1);

    // Just decayed counts as touched: the next step comes 90 days later, not tomorrow.
    clock.advance(DAY);
    expect(await maintain(client)).toMatchObject({ decayed: 0 });

    unwrap(await client.call('memory.revert', { memoryId: low.id, version: 1 }));
    expect((await get(client, low.id)).memory.importance).toBe(0.25);
  });

  /** Memories Mnemo learned on its own, written as the extraction job writes them, before the core opens the folder. */
  async function learnBeforeStart(dir: string, clock: TestClock, items: Array<{ content: string; importance: number; status?: 'review' }>): Promise<Map<string, number>> {
    const h = openMemoryHarness(dir, { embedder: null, clock });
    try {
      const ids = new Map<string, number>();
      for (const { content, importance, status } of items) {
        ids.set(content, h.memories.createMemory({ content, category: 'knowledge', importance }, { origin: 'extraction', ...(status ? { status } : {}) }).id);
      }
      return ids;
    } finally {
      await h.close();
    }
  }

  const importLines = async (client: Client, lines: string[]) => unwrap(await client.call('memory.import', { content: lines.join('\n'), dryRun: false }));
  const activeContents = async (client: Client) =>
    new Set(unwrap(await client.call('memory.list', { limit: 500 })).items.map((m) => m.content));

  it('never trashes what the user imported or wrote for the cap, however many: the report says the cap counts learned memories only', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    await learnBeforeStart(dir, clock, [
      { content: 'Learned minor fact one', importance: 0.02 },
      { content: 'Learned minor fact two', importance: 0.03 },
    ]);
    const { client } = start({ dir, clock });
    unwrap(await client.call('settings.update', { patch: { activeMemoryCap: 100 } }));
    // Two imports of 60, both least important of all, and one written by hand: 123 active, above the cap of 100.
    expect((await importLines(client, Array.from({ length: 60 }, (_, i) => `- First import fact ${i} _(importance 0.01)_`))).written).toBe(60);
    expect((await importLines(client, Array.from({ length: 60 }, (_, i) => `- Second import fact ${i} _(importance 0.01)_`))).written).toBe(60);
    await add(client, 'Written by hand and minor', { importance: 0.01 });

    const report = await maintain(client);
    expect(report).toMatchObject({ trashedForCap: 0, cap: { cap: 100, active: 123, learned: 2, overCap: 0 } });
    expect(unwrap(await client.call('memory.list', { statuses: ['trashed'] })).total).toBe(0);
    expect((await activeContents(client)).size).toBe(123);
    expect(timeline(dir, 'maintained').at(-1)!.data).toMatchObject({ trashedForCap: 0, cap: { active: 123, learned: 2 } });
  });

  it('trashes the learned memories beyond the cap, least valuable first, never one the user edited, pinned, approved or that replaced theirs; restore keeps it', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const learned = await learnBeforeStart(dir, clock, [
      ...Array.from({ length: 102 }, (_, i) => ({ content: `Learned ordinary fact ${i}`, importance: 0.5 })),
      { content: 'Learned minor fact gamma', importance: 0.02 },
      { content: 'Learned minor fact delta', importance: 0.03 },
      { content: 'Learned minor fact epsilon', importance: 0.04 },
      { content: 'Learned, then recategorized by the user', importance: 0.01 },
      { content: 'Learned, then pinned by the user', importance: 0.01 },
      { content: 'Learned, then approved from review', importance: 0.01, status: 'review' },
      { content: 'Learned, then merged with a fact the user wrote', importance: 0.01 },
      { content: 'Learned, and it replaced a fact the user wrote', importance: 0.01 },
    ]);
    const id = (content: string) => learned.get(content)!;
    const { client } = start({ dir, clock });
    unwrap(await client.call('settings.update', { patch: { activeMemoryCap: 100 } }));
    unwrap(await client.call('memory.update', { memoryId: id('Learned, then recategorized by the user'), category: 'project' }));
    unwrap(await client.call('memory.update', { memoryId: id('Learned, then pinned by the user'), pinned: true }));
    unwrap(await client.call('review.approve', { memoryId: id('Learned, then approved from review') }));
    await importLines(client, Array.from({ length: 60 }, (_, i) => `- Imported fact ${i} _(importance 0.01)_`));

    // The user's facts a learned memory took over: one merged into it (as maintenance merges), one it superseded (as
    // extraction corrects an outdated fact). The newer memory carries the user's fact, so it is the user's too.
    const merged = await add(client, 'Wrote by hand, merged later', { importance: 0.01 });
    const replaced = await add(client, 'Wrote by hand, replaced later', { importance: 0.01 });
    const h = openMemoryHarness(dir, { embedder: null, clock });
    try {
      h.memories.updateMemory(merged.id, { status: 'archived', supersededBy: id('Learned, then merged with a fact the user wrote') }, { origin: 'maintenance', reason: 'merged', eventKind: 'merged' });
      h.memories.updateMemory(replaced.id, { status: 'superseded', supersededBy: id('Learned, and it replaced a fact the user wrote') }, { origin: 'extraction', reason: 'superseded', eventKind: 'superseded' });
    } finally {
      await h.close();
    }

    // 105 learned memories that are Mnemo's alone, cap 100: the 5 worth least go, ties broken by use, then age.
    const report = await maintain(client);
    const lowest = ['Learned minor fact gamma', 'Learned minor fact delta', 'Learned minor fact epsilon', 'Learned ordinary fact 0', 'Learned ordinary fact 1'];
    expect(report).toMatchObject({ trashedForCap: 5, cap: { cap: 100, active: 165, learned: 100, overCap: 0, restorableDays: 30 } });
    const trashed = unwrap(await client.call('memory.list', { statuses: ['trashed'], limit: 10 })).items;
    expect(trashed.map((m) => m.content).sort()).toEqual([...lowest].sort());
    const active = await activeContents(client);
    for (const content of [...learned.keys()].filter((c) => !lowest.includes(c))) expect(active.has(content), content).toBe(true);
    for (let i = 0; i < 60; i++) expect(active.has(`Imported fact ${i}`)).toBe(true);

    // Shown: each is a version and a timeline event of the maintenance, naming the cap.
    const gamma = await get(client, id('Learned minor fact gamma'));
    expect(gamma.versions.at(-1)).toMatchObject({ origin: 'maintenance', reason: 'over the cap', status: 'trashed' });
    expect(timeline(dir, 'deleted').filter((e) => e.data.reason === 'over the cap')).toHaveLength(5);
    expect(timeline(dir, 'deleted').find((e) => e.memory_id === gamma.memory.id)!.data).toMatchObject({ origin: 'maintenance', cap: 100 });

    // Reversible: a restored memory is the user's choice to keep it, so the cap does not take it again.
    expect(unwrap(await client.call('memory.restore', { memoryId: gamma.memory.id }))).toMatchObject({ status: 'active' });
    expect(await maintain(client)).toMatchObject({ trashedForCap: 0, cap: { learned: 100, overCap: 0 } });
    expect((await get(client, gamma.memory.id)).memory.status).toBe('active');
  });

  it('purges trash older than the retention, keeps newer trash', async () => {
    const { client, clock } = start();
    const old = await add(client, 'Trashed long ago');
    unwrap(await client.call('memory.delete', { memoryId: old.id }));
    clock.advance(25 * DAY);
    const recent = await add(client, 'Trashed last week');
    unwrap(await client.call('memory.delete', { memoryId: recent.id }));
    clock.advance(6 * DAY);
    expect(await maintain(client)).toMatchObject({ purged: 1 });
    expect(await client.call('memory.get', { memoryId: old.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect((await get(client, recent.id)).memory.status).toBe('trashed');
  });

  it('marks a memory that expired with one timeline event, and again only after a new expiry passes', async () => {
    const { client, clock, dir } = start();
    const m = await add(client, 'Has a dentist appointment on Friday', { expiresAt: clock.now() + DAY });
    expect(await maintain(client)).toMatchObject({ expired: 0 });
    clock.advance(2 * DAY);
    expect(await maintain(client)).toMatchObject({ expired: 1 });
    expect(await maintain(client)).toMatchObject({ expired: 0 });
    expect((await get(client, m.id)).memory).toMatchObject({ status: 'active', expired: true });
    expect((await get(client, m.id)).versions).toHaveLength(1); // expiry itself is not a change

    unwrap(await client.call('memory.update', { memoryId: m.id, expiresAt: clock.now() + DAY }));
    clock.advance(2 * DAY);
    expect(await maintain(client)).toMatchObject({ expired: 1 });
    expect(timeline(dir, 'expired').map((e) => e.memory_id)).toEqual([m.id, m.id]);
    expect(timeline(dir, 'maintained')).toHaveLength(4);
  });
});
