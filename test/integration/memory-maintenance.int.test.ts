import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { MaintenanceReport, Memory } from '../../shared/contract';
import type { Core, CoreOptions } from '../../electron/core/create-core';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { createTestClock, type TestClock } from '../support/memory-harness';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

const DAY = 86_400_000;
const NOTHING: MaintenanceReport = { merged: 0, decayed: 0, trashedForCap: 0, purged: 0, expired: 0, mergePending: 0, mergeChecked: false };

describe('memory maintenance', () => {
  const tempDir = useTempDirs();
  const open: Core[] = [];
  afterEach(async () => {
    for (const core of open.splice(0)) await core.dispose();
  });

  function start(options: Partial<CoreOptions> = {}): { client: Client; core: Core; dir: string; clock: TestClock } {
    const dir = tempDir();
    const clock = createTestClock();
    const { core, client } = createTestCore(dir, { startQueue: false, embedder: null, clock, ...options });
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

  it('does not merge without semantic search, and says it did not look', async () => {
    const { client } = start();
    await add(client, 'Prefers green tea in the morning', { category: 'preference' });
    await add(client, 'Prefers green tea in the morning, always', { category: 'preference' });
    expect(await maintain(client)).toMatchObject({ merged: 0, mergeChecked: false });
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

  it('enforces the cap: trashes the least important unpinned memories, never pinned ones; restore undoes it', async () => {
    const { client } = start();
    unwrap(await client.call('settings.update', { patch: { activeMemoryCap: 100 } }));
    // 100 ordinary memories, 2 pinned ones that matter least, and 3 that matter little.
    const lines = [
      ...Array.from({ length: 100 }, (_, i) => `- Ordinary fact number ${i} _(importance 0.50)_`),
      '- Pinned but minor fact alpha _(pinned · importance 0.01)_',
      '- Pinned but minor fact beta _(pinned · importance 0.01)_',
      '- Minor fact gamma _(importance 0.02)_',
      '- Minor fact delta _(importance 0.03)_',
      '- Minor fact epsilon _(importance 0.04)_',
    ];
    const imported = unwrap(await client.call('memory.import', { content: lines.join('\n'), dryRun: false }));
    expect(imported.written).toBe(105);

    expect(await maintain(client)).toMatchObject({ trashedForCap: 5 });
    const active = unwrap(await client.call('memory.list', { limit: 500 }));
    expect(active.total).toBe(100);
    expect(active.items.filter((m) => m.pinned).map((m) => m.content).sort()).toEqual(['Pinned but minor fact alpha', 'Pinned but minor fact beta']);
    const trashed = unwrap(await client.call('memory.list', { statuses: ['trashed'], sort: 'importance', limit: 10 })).items;
    expect(trashed.map((m) => m.content)).toEqual(['Ordinary fact number 1', 'Ordinary fact number 0', 'Minor fact epsilon', 'Minor fact delta', 'Minor fact gamma']);
    const detail = await get(client, trashed[4]!.id);
    expect(detail.versions.at(-1)).toMatchObject({ origin: 'maintenance', reason: 'over the cap', status: 'trashed' });

    expect(unwrap(await client.call('memory.restore', { memoryId: trashed[4]!.id }))).toMatchObject({ status: 'active' });
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
