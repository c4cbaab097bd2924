import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { EventName, Memory } from '../../shared/contract';
import type { Core, CoreOptions } from '../../electron/core/create-core';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { createTestClock, type TestClock } from '../support/memory-harness';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

const DAY = 86_400_000;
const COFFEE = { espresso: 'coffee', latte: 'coffee', cappuccino: 'coffee' };

describe('long-term memory store', () => {
  const tempDir = useTempDirs();
  const open: Core[] = [];
  afterEach(async () => {
    for (const core of open.splice(0)) await core.dispose();
  });

  function start(options: Partial<CoreOptions> & { clock?: TestClock } = {}): { client: Client; core: Core; dir: string; clock: TestClock } {
    const dir = tempDir();
    const clock = options.clock ?? createTestClock();
    const { core, client } = createTestCore(dir, { startQueue: false, embedder: null, clock, ...options });
    open.push(core);
    return { core, client, dir, clock };
  }

  const add = async (client: Client, content: string, more: { category?: Memory['category']; importance?: number; pinned?: boolean; expiresAt?: number } = {}) =>
    unwrap(await client.call('memory.create', { content, ...more }));

  function collect(core: Core): Array<{ event: EventName; payload: unknown }> {
    const seen: Array<{ event: EventName; payload: unknown }> = [];
    core.subscribe((m) => {
      if (m.event.startsWith('memory.')) seen.push({ event: m.event, payload: m.payload });
    });
    return seen;
  }

  describe('writes and history', () => {
    it('adds a memory by hand as version 1 with origin user, and announces it', async () => {
      const { client, core } = start();
      const seen = collect(core);
      const m = await add(client, 'Prefers tea over coffee', { category: 'preference', importance: 0.8 });
      expect(m).toMatchObject({ content: 'Prefers tea over coffee', category: 'preference', importance: 0.8, status: 'active', pinned: false, expired: false, embeddingModel: null });
      const detail = unwrap(await client.call('memory.get', { memoryId: m.id }));
      expect(detail.versions).toEqual([expect.objectContaining({ version: 1, origin: 'user', reason: 'created', content: 'Prefers tea over coffee' })]);
      expect(seen).toEqual([{ event: 'memory.created', payload: { memory: m } }]);
    });

    it('refuses an exact duplicate (case, spacing and punctuation aside) with CONFLICT naming the existing memory', async () => {
      const { client } = start();
      const m = await add(client, 'Lives in Lisbon.');
      const r = await client.call('memory.create', { content: '  lives   in LISBON ' });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe('CONFLICT');
        expect(r.error.message).toContain(`#${m.id}`);
      }
    });

    it('refuses an expiry in the past when adding, with the field named', async () => {
      const { client, clock } = start();
      const r = await client.call('memory.create', { content: 'Has a dentist appointment', expiresAt: clock.now() - 1 });
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', path: 'expiresAt' } });
    });

    it('versions every edit and reverts to any version as a new version', async () => {
      const { client, clock } = start();
      const m = await add(client, 'Lives in Lisbon', { importance: 0.4 });
      clock.advance(1000);
      unwrap(await client.call('memory.update', { memoryId: m.id, content: 'Lives in Berlin', importance: 0.9 }));
      clock.advance(1000);
      unwrap(await client.call('memory.update', { memoryId: m.id, pinned: true }));
      // An update that changes nothing is not a version.
      unwrap(await client.call('memory.update', { memoryId: m.id, pinned: true, importance: 0.9 }));

      const reverted = unwrap(await client.call('memory.revert', { memoryId: m.id, version: 1 }));
      expect(reverted).toMatchObject({ content: 'Lives in Lisbon', importance: 0.4, pinned: false });
      const { versions } = unwrap(await client.call('memory.get', { memoryId: m.id }));
      expect(versions.map((v) => [v.version, v.reason, v.content, v.importance, v.pinned])).toEqual([
        [1, 'created', 'Lives in Lisbon', 0.4, false],
        [2, 'edited', 'Lives in Berlin', 0.9, false],
        [3, 'pinned', 'Lives in Berlin', 0.9, true],
        [4, 'reverted', 'Lives in Lisbon', 0.4, false],
      ]);
      // The keyword index follows the text.
      expect(unwrap(await client.call('memory.search', { query: 'Berlin' })).hits).toEqual([]);
      expect(unwrap(await client.call('memory.search', { query: 'Lisbon' })).hits.map((h) => h.memory.id)).toEqual([m.id]);

      const missing = await client.call('memory.revert', { memoryId: m.id, version: 9 });
      expect(missing).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    });

    it('writes a timeline event for every change, in the same transaction, without the text', async () => {
      const { client, dir } = start();
      const m = await add(client, 'Secretword zebulon in a memory');
      unwrap(await client.call('memory.update', { memoryId: m.id, content: 'Secretword zebulon changed' }));
      unwrap(await client.call('memory.delete', { memoryId: m.id }));
      unwrap(await client.call('memory.restore', { memoryId: m.id }));
      unwrap(await client.call('memory.revert', { memoryId: m.id, version: 1 }));
      const db = new Database(path.join(dir, 'mnemo.db'), { readonly: true });
      try {
        const rows = db.prepare('SELECT kind, memory_id, category, data FROM events ORDER BY id').all() as Array<{ kind: string; memory_id: number; data: string }>;
        expect(rows.map((r) => r.kind)).toEqual(['learned', 'updated', 'deleted', 'restored', 'reverted']);
        expect(rows.every((r) => r.memory_id === m.id)).toBe(true);
        expect(rows.map((r) => (JSON.parse(r.data) as { version: number }).version)).toEqual([1, 2, 3, 4, 5]);
        for (const r of rows) expect(r.data.toLowerCase()).not.toContain('zebulon');
      } finally {
        db.close();
      }
    });

    it('answers NOT_FOUND for a memory that does not exist', async () => {
      const { client } = start();
      for (const op of ['memory.get', 'memory.delete', 'memory.restore', 'memory.purge'] as const) {
        expect(await client.call(op, { memoryId: 424242 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
      }
      expect(await client.call('memory.update', { memoryId: 424242, importance: 1 })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    });
  });

  describe('trash, restore, purge', () => {
    it('delete moves to the trash, restore brings it back to where it was', async () => {
      const { client, core, clock } = start();
      const seen = collect(core);
      const m = await add(client, 'Archived fact about gardening');
      unwrap(await client.call('memory.bulk', { action: 'archive', memoryIds: [m.id] }));
      const trashed = unwrap(await client.call('memory.delete', { memoryId: m.id }));
      expect(trashed).toMatchObject({ status: 'trashed', trashedAt: clock.now() });
      expect(unwrap(await client.call('memory.list', {})).total).toBe(0);
      expect(unwrap(await client.call('memory.list', { statuses: ['trashed'] })).items.map((x) => x.id)).toEqual([m.id]);
      const restored = unwrap(await client.call('memory.restore', { memoryId: m.id }));
      expect(restored).toMatchObject({ status: 'archived', trashedAt: null });
      expect(unwrap(await client.call('memory.restore', { memoryId: m.id }))).toMatchObject({ status: 'active' });
      expect(await client.call('memory.restore', { memoryId: m.id })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
      expect(seen.map((e) => e.event)).toEqual(['memory.created', 'memory.updated', 'memory.deleted', 'memory.restored', 'memory.restored']);
    });

    it('purge leaves no trace of the text in the database file or its WAL', async () => {
      const { client, core, dir } = start({ embedder: createBagOfWordsEmbedder() });
      const seen = collect(core);
      const canary = 'Quixoblarnacanary';
      const keep = await add(client, 'Unrelated memory that stays');
      const m = await add(client, `Remember ${canary} for later`);
      unwrap(await client.call('memory.update', { memoryId: m.id, content: `Remember ${canary} for much later` }));
      const trash = await add(client, `Second ${canary}twin in the trash`);
      unwrap(await client.call('memory.delete', { memoryId: trash.id }));

      const files = () => ['mnemo.db', 'mnemo.db-wal'].map((f) => path.join(dir, f)).filter((f) => fs.existsSync(f));
      const traces = () => files().filter((f) => fs.readFileSync(f).toString('latin1').toLowerCase().includes(canary.toLowerCase()));
      expect(traces().length).toBeGreaterThan(0); // the check can see the text while it is stored

      // No backups yet: the purge says so (purge-backups.int.test.ts follows it into the backups).
      const noBackups = { clean: 0, erased: 0, remaining: [] };
      expect(unwrap(await client.call('memory.purge', { memoryId: m.id }))).toEqual({ purged: 1, backups: noBackups, derived: { summaries: 0, profileLines: 0 } });
      expect(unwrap(await client.call('memory.emptyTrash', {}))).toEqual({ purged: 1, backups: noBackups, derived: { summaries: 0, profileLines: 0 } });
      expect(traces()).toEqual([]);
      expect(seen.filter((e) => e.event === 'memory.purged').map((e) => e.payload)).toEqual([{ memoryIds: [m.id] }, { memoryIds: [trash.id] }]);
      expect(await client.call('memory.get', { memoryId: m.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
      expect(unwrap(await client.call('memory.search', { query: canary })).hits).toEqual([]);
      expect(unwrap(await client.call('memory.stats', {}))).toMatchObject({ total: 1, vectors: { present: 1, missing: 0 } });
      expect(unwrap(await client.call('memory.get', { memoryId: keep.id })).memory.content).toBe('Unrelated memory that stays');
      expect(unwrap(await client.call('db.check', {})).integrity).toBe('ok');
    });

    it('emptyTrash with trashedBefore purges only what was trashed earlier', async () => {
      const { client, clock } = start();
      const old = await add(client, 'Trashed long ago');
      const recent = await add(client, 'Trashed just now');
      unwrap(await client.call('memory.delete', { memoryId: old.id }));
      clock.advance(40 * DAY);
      unwrap(await client.call('memory.delete', { memoryId: recent.id }));
      expect(unwrap(await client.call('memory.emptyTrash', { trashedBefore: clock.now() - 30 * DAY }))).toMatchObject({ purged: 1 });
      expect(unwrap(await client.call('memory.list', { statuses: ['trashed'] })).items.map((m) => m.id)).toEqual([recent.id]);
    });
  });

  describe('bulk actions', () => {
    it('applies one action to many memories in one go and skips those it does not apply to', async () => {
      const { client, core } = start();
      const a = await add(client, 'Alpha fact', { category: 'knowledge' });
      const b = await add(client, 'Beta fact', { category: 'skill' });
      const c = await add(client, 'Gamma fact', { category: 'knowledge' });
      const seen = collect(core);

      expect(unwrap(await client.call('memory.bulk', { action: 'recategorize', category: 'skill', memoryIds: [a.id, b.id, c.id, 999] }))).toEqual({ changed: 2, skipped: 2 });
      expect(unwrap(await client.call('memory.bulk', { action: 'pin', memoryIds: [a.id, b.id] }))).toEqual({ changed: 2, skipped: 0 });
      expect(unwrap(await client.call('memory.bulk', { action: 'unpin', memoryIds: [a.id, c.id] }))).toEqual({ changed: 1, skipped: 1 });
      expect(unwrap(await client.call('memory.bulk', { action: 'archive', memoryIds: [a.id, b.id] }))).toEqual({ changed: 2, skipped: 0 });
      expect(unwrap(await client.call('memory.bulk', { action: 'unarchive', memoryIds: [a.id, c.id] }))).toEqual({ changed: 1, skipped: 1 });
      expect(unwrap(await client.call('memory.bulk', { action: 'delete', memoryIds: [a.id, b.id, c.id] }))).toEqual({ changed: 3, skipped: 0 });

      const trashed = unwrap(await client.call('memory.list', { statuses: ['trashed'], sort: 'created' })).items;
      expect(trashed.map((m) => [m.id, m.category, m.pinned])).toEqual([
        [c.id, 'skill', false],
        [b.id, 'skill', true],
        [a.id, 'skill', false],
      ]);
      expect(seen.filter((e) => e.event === 'memory.updated')).toHaveLength(2 + 2 + 1 + 2 + 1);
      expect(seen.filter((e) => e.event === 'memory.deleted')).toHaveLength(3);
      const { versions } = unwrap(await client.call('memory.get', { memoryId: b.id }));
      expect(versions.map((v) => v.reason)).toEqual(['created', 'pinned', 'archived', 'deleted']);
    });

    it('restores many from the trash to where each was, and purges for good only what is in the trash', async () => {
      const { client, core } = start();
      const a = await add(client, 'Alpha fact');
      const b = await add(client, 'Beta fact');
      const c = await add(client, 'Gamma fact');
      const keep = await add(client, 'Kept fact');
      unwrap(await client.call('memory.bulk', { action: 'archive', memoryIds: [b.id] }));
      unwrap(await client.call('memory.bulk', { action: 'delete', memoryIds: [a.id, b.id, c.id] }));
      const seen = collect(core);
      expect(unwrap(await client.call('memory.bulk', { action: 'restore', memoryIds: [a.id, b.id, keep.id, 999] }))).toEqual({ changed: 2, skipped: 2 });
      const status = async (id: number) => unwrap(await client.call('memory.get', { memoryId: id })).memory.status;
      expect([await status(a.id), await status(b.id), await status(c.id), await status(keep.id)]).toEqual(['active', 'archived', 'trashed', 'active']);
      expect(seen.filter((e) => e.event === 'memory.restored')).toHaveLength(2);
      const { versions } = unwrap(await client.call('memory.get', { memoryId: b.id }));
      expect(versions.map((v) => v.reason)).toEqual(['created', 'archived', 'deleted', 'restored']);

      // Purge skips what is not in the trash, whatever the caller sends.
      expect(unwrap(await client.call('memory.bulk', { action: 'purge', memoryIds: [a.id, c.id, keep.id] }))).toMatchObject({ changed: 1, skipped: 2 });
      expect(await client.call('memory.get', { memoryId: c.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
      expect(await status(a.id)).toBe('active');
      expect(await status(keep.id)).toBe('active');
      expect(seen.filter((e) => e.event === 'memory.purged').map((e) => (e.payload as { memoryIds: number[] }).memoryIds)).toEqual([[c.id]]);
    });

    it('refuses recategorize without a category', async () => {
      const { client } = start();
      const m = await add(client, 'Delta fact');
      expect(await client.call('memory.bulk', { action: 'recategorize', memoryIds: [m.id] } as never)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    });
  });

  describe('listing and filters', () => {
    it('filters by category, status, pinned, expiry and creation time; sorts; pages with a total', async () => {
      const { client, clock } = start();
      const t0 = clock.now();
      const a = await add(client, 'Knows Rust well', { category: 'skill', importance: 0.9 });
      clock.advance(DAY);
      const b = await add(client, 'Prefers dark roast', { category: 'preference', importance: 0.3, pinned: true });
      clock.advance(DAY);
      const c = await add(client, 'Building a birdhouse', { category: 'project', importance: 0.6, expiresAt: clock.now() + 10 * DAY });
      clock.advance(DAY);
      const d = await add(client, 'Knows Go a little', { category: 'skill', importance: 0.2 });
      const ids = (r: { items: Memory[] }) => r.items.map((m) => m.id);

      expect(ids(unwrap(await client.call('memory.list', {})))).toEqual([d.id, c.id, b.id, a.id]);
      expect(ids(unwrap(await client.call('memory.list', { sort: 'importance' })))).toEqual([a.id, c.id, b.id, d.id]);
      expect(ids(unwrap(await client.call('memory.list', { categories: ['skill'] })))).toEqual([d.id, a.id]);
      expect(ids(unwrap(await client.call('memory.list', { pinned: true })))).toEqual([b.id]);
      expect(ids(unwrap(await client.call('memory.list', { createdFrom: t0 + DAY, createdTo: t0 + 3 * DAY })))).toEqual([c.id, b.id]);

      const page = unwrap(await client.call('memory.list', { sort: 'importance', limit: 2, offset: 1 }));
      expect(page).toMatchObject({ total: 4 });
      expect(ids(page)).toEqual([c.id, b.id]);

      // Expiry is derived from the clock: the memory stays listed, marked expired.
      expect(ids(unwrap(await client.call('memory.list', { expired: true })))).toEqual([]);
      clock.advance(30 * DAY);
      const expired = unwrap(await client.call('memory.list', { expired: true }));
      expect(expired.items.map((m) => [m.id, m.expired])).toEqual([[c.id, true]]);
      expect(ids(unwrap(await client.call('memory.list', { expired: false })))).toEqual([d.id, b.id, a.id]);
    });

    it('finds by keywords as you type (last word a prefix), and by a two-character Chinese word', async () => {
      const { client } = start();
      const a = await add(client, 'Drinks espresso every morning');
      const b = await add(client, '我每天早上喝咖啡');
      const c = await add(client, '我在用 React 写 Mnemo 项目');
      const list = async (query: string) => unwrap(await client.call('memory.list', { query })).items.map((m) => m.id);
      expect(await list('espr')).toEqual([a.id]);
      expect(await list('咖啡')).toEqual([b.id]);
      expect(await list('react 项目')).toEqual([c.id]);
      expect(await list('项目 mnemo')).toEqual([c.id]);
      expect(await list('茶')).toEqual([]);
    });

    it('sorts by use: most used and recently used', async () => {
      const { client } = start();
      const a = await add(client, 'Never used');
      // Uses are recorded by chat (recordUse); here only the order of never-used memories is checked: newest first.
      const b = await add(client, 'Also never used');
      expect(unwrap(await client.call('memory.list', { sort: 'accessCount' })).items.map((m) => m.id)).toEqual([b.id, a.id]);
      expect(unwrap(await client.call('memory.list', { sort: 'lastUsed' })).items.map((m) => m.id)).toEqual([b.id, a.id]);
    });
  });

  describe('search', () => {
    it('hybrid: a semantic match keyword search cannot find, and agreement of both lists ranks first', async () => {
      const { client } = start({ embedder: createBagOfWordsEmbedder({ concepts: COFFEE }) });
      const semanticOnly = await add(client, 'Drinks espresso every morning');
      const both = await add(client, 'Favourite coffee shop is near the station');
      await add(client, 'Plays tennis on Sundays');
      const r = unwrap(await client.call('memory.search', { query: 'coffee' }));
      expect(r.mode).toBe('hybrid');
      expect(r.hits.map((h) => h.memory.id)).toEqual([both.id, semanticOnly.id]);
      expect(r.hits[0]!.parts).toMatchObject({ keywordRank: 1, semanticRank: expect.any(Number) });
      expect(r.hits[1]).toMatchObject({ reason: 'semantic', parts: { keywordRank: null, semanticRank: expect.any(Number) } });
      expect(r.hits[1]!.parts.similarity).toBeGreaterThanOrEqual(0.3);
    });

    it('importance decides between equally relevant memories', async () => {
      const { client } = start({ embedder: createBagOfWordsEmbedder() });
      const green = await add(client, 'likes green tea', { importance: 0.9 });
      const black = await add(client, 'likes black tea', { importance: 0.2 });
      expect(unwrap(await client.call('memory.search', { query: 'tea' })).hits.map((h) => h.memory.id)).toEqual([green.id, black.id]);
      unwrap(await client.call('memory.bulk', { action: 'pin', memoryIds: [black.id] })); // pinning is not ranking
      unwrap(await client.call('memory.update', { memoryId: green.id, importance: 0.1 }));
      unwrap(await client.call('memory.update', { memoryId: black.id, importance: 0.8 }));
      const hits = unwrap(await client.call('memory.search', { query: 'tea' })).hits;
      expect(hits.map((h) => [h.memory.id, h.reason])).toEqual([
        [black.id, 'pinned'],
        [green.id, 'semantic'],
      ]);
    });

    it('recency decides between equally relevant and important memories (half-life from the settings)', async () => {
      const { client, clock } = start({ embedder: createBagOfWordsEmbedder() });
      const old = await add(client, 'plays chess online');
      clock.advance(60 * DAY);
      const fresh = await add(client, 'plays chess daily');
      const hits = unwrap(await client.call('memory.search', { query: 'chess' })).hits;
      expect(hits.map((h) => h.memory.id)).toEqual([fresh.id, old.id]);
      expect(hits[1]!.parts.recency).toBeCloseTo(0.25, 5); // two half-lives of 30 days
      unwrap(await client.call('settings.update', { patch: { retrieval: { recencyHalfLifeDays: 120 } } }));
      expect(unwrap(await client.call('memory.search', { query: 'chess' })).hits[1]!.parts.recency).toBeCloseTo(Math.SQRT1_2, 5);
    });

    it('filters search results and leaves out what the filters exclude', async () => {
      const { client } = start({ embedder: createBagOfWordsEmbedder() });
      const a = await add(client, 'Garden tomatoes project', { category: 'project' });
      const b = await add(client, 'Knows about garden soil', { category: 'knowledge' });
      unwrap(await client.call('memory.delete', { memoryId: b.id }));
      expect(unwrap(await client.call('memory.search', { query: 'garden' })).hits.map((h) => h.memory.id)).toEqual([a.id]);
      expect(unwrap(await client.call('memory.search', { query: 'garden', statuses: ['trashed'] })).hits.map((h) => h.memory.id)).toEqual([b.id]);
      expect(unwrap(await client.call('memory.search', { query: 'garden', categories: ['knowledge'] })).hits).toEqual([]);
    });

    it('keyword-only without an embedder: still saves and finds, and says why semantic search is off', async () => {
      const { client } = start({ embedder: null });
      const m = await add(client, 'Drinks espresso every morning');
      await add(client, 'Mixed 中英文 text: 我喜欢 TypeScript');
      expect(m.embeddingModel).toBeNull();
      const r = unwrap(await client.call('memory.search', { query: 'espresso' }));
      expect(r).toMatchObject({ mode: 'keyword', hits: [{ memory: { id: m.id }, reason: 'keyword', parts: { similarity: null, keywordRank: 1, relevance: 1 } }] });
      expect(unwrap(await client.call('memory.search', { query: 'coffee' })).hits).toEqual([]);
      expect(unwrap(await client.call('memory.search', { query: '中英' })).hits).toHaveLength(1);
      expect(unwrap(await client.call('memory.search', { query: '喜欢 typescript' })).hits).toHaveLength(1);
      const stats = unwrap(await client.call('memory.stats', {}));
      expect(stats).toMatchObject({ total: 2, vectors: { present: 0, missing: 2 }, semanticSearch: { state: 'unavailable', reason: 'no_embedder' } });
      expect(stats.semanticSearch.message).toMatch(/keyword/);
    });

    it('a Chinese two-character word finds the memory by keyword inside an unspaced sentence', async () => {
      const { client } = start({ embedder: null });
      const m = await add(client, '我每天早上都喝一杯咖啡再上班');
      await add(client, '我喜欢喝茶');
      expect(unwrap(await client.call('memory.search', { query: '咖啡' })).hits.map((h) => h.memory.id)).toEqual([m.id]);
    });
  });

  describe('stats', () => {
    it('counts by status and category, pinned and expired', async () => {
      const { client, clock } = start({ embedder: createBagOfWordsEmbedder() });
      await add(client, 'One', { category: 'skill', pinned: true });
      await add(client, 'Two', { category: 'skill', expiresAt: clock.now() + DAY });
      const three = await add(client, 'Three', { category: 'project' });
      unwrap(await client.call('memory.delete', { memoryId: three.id }));
      clock.advance(2 * DAY);
      expect(unwrap(await client.call('memory.stats', {}))).toMatchObject({
        total: 3,
        byStatus: { active: 2, trashed: 1, archived: 0 },
        byCategory: { skill: 2, project: 0, knowledge: 0, preference: 0 },
        pinned: 1,
        expired: 1,
        vectors: { present: 3, missing: 0, dimensions: 384 },
        semanticSearch: { state: 'ready', modelId: 'test:bag-of-words-384' },
      });
    });
  });
});
