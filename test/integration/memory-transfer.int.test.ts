import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { EventName, Memory, MemoryVersion } from '../../shared/contract';
import type { Core, CoreOptions } from '../../electron/core/create-core';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { createTestClock, openMemoryHarness, type TestClock } from '../support/memory-harness';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

const DAY = 86_400_000;

describe('memory export and import', () => {
  const tempDir = useTempDirs();
  const open: Core[] = [];
  afterEach(async () => {
    for (const core of open.splice(0)) await core.dispose();
  });

  function start(options: Partial<CoreOptions> & { dir?: string } = {}): { client: Client; core: Core; dir: string; clock: TestClock } {
    const dir = options.dir ?? tempDir();
    const clock = (options.clock as TestClock | undefined) ?? createTestClock();
    const { core, client } = createTestCore(dir, { startQueue: false, embedder: null, ...options, clock });
    open.push(core);
    return { core, client, dir, clock };
  }

  const add = async (client: Client, content: string, more: { category?: Memory['category']; importance?: number; pinned?: boolean; expiresAt?: number } = {}) =>
    unwrap(await client.call('memory.create', { content, ...more }));

  function collect(core: Core, prefix: string): Array<{ event: EventName; payload: unknown }> {
    const seen: Array<{ event: EventName; payload: unknown }> = [];
    core.subscribe((m) => {
      if (m.event.startsWith(prefix)) seen.push({ event: m.event, payload: m.payload });
    });
    return seen;
  }

  /** Everything a write could change: the database file and WAL bytes, and row counts. */
  function snapshot(dir: string): { bytes: string[]; counts: Record<string, number> } {
    const bytes = ['mnemo.db', 'mnemo.db-wal'].map((f) => path.join(dir, f)).map((f) => (fs.existsSync(f) ? fs.readFileSync(f).toString('base64') : ''));
    const db = new Database(path.join(dir, 'mnemo.db'), { readonly: true });
    try {
      const counts: Record<string, number> = {};
      for (const t of ['memories', 'memory_versions', 'events', 'memory_vectors_rowids', 'settings']) {
        counts[t] = (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
      }
      return { bytes, counts };
    } finally {
      db.close();
    }
  }

  describe('import', () => {
    const file = [
      '## Preferences',
      '- Prefers green tea in the morning, always', // near-duplicate by meaning of an existing preference
      '- 喜欢在周末爬山',
      '- [x] likes jazz!', // exact duplicate (case and punctuation aside)
      '## Projects',
      '- Building a birdhouse for the garden', // in the trash
      '- Learning to play the cello',
      '- ok', // too short
      '- Learning to play the cello', // repeated in the file
    ].join('\n');

    async function seed(client: Client) {
      const tea = await add(client, 'Prefers green tea in the morning', { category: 'preference' });
      const jazz = await add(client, 'Likes jazz', { category: 'preference' });
      const birdhouse = await add(client, 'Building a birdhouse for the garden', { category: 'project' });
      unwrap(await client.call('memory.delete', { memoryId: birdhouse.id }));
      return { tea, jazz, birdhouse };
    }

    it('a dry run classifies every line and writes nothing at all', async () => {
      const { client, dir } = start({ embedder: createBagOfWordsEmbedder() });
      const { tea, jazz, birdhouse } = await seed(client);
      const before = snapshot(dir);

      const report = unwrap(await client.call('memory.import', { content: file, dryRun: true }));
      expect(report).toMatchObject({ format: 'text', dryRun: true, new: 2, duplicate: 2, conflicting: 2, invalid: 1, written: 0, nearDuplicateCheck: true });
      expect(report.items.map((i) => [i.line, i.outcome, i.category, i.existingId ?? null])).toEqual([
        [2, 'conflict', 'preference', tea.id],
        [3, 'new', 'preference', null],
        [4, 'duplicate', 'preference', jazz.id],
        [6, 'conflict', 'project', birdhouse.id],
        [7, 'new', 'project', null],
        [8, 'invalid', 'project', null],
        [9, 'duplicate', 'project', null],
      ]);
      expect(report.items[0]!.reason).toMatch(/close in meaning to #\d+ \(similarity 0\.9\d\)/);
      expect(report.items[3]!.reason).toBe('the same memory is in the trash');
      expect(report.items[6]!.reason).toBe('repeats line 7 of this import');

      expect(snapshot(dir)).toEqual(before);
    });

    it('a real run writes the new items with origin import, touches no duplicate, and records one summary event', async () => {
      const { client, core, dir } = start({ embedder: createBagOfWordsEmbedder() });
      const { jazz } = await seed(client);
      const jazzBefore = unwrap(await client.call('memory.get', { memoryId: jazz.id }));
      const seen = collect(core, 'memory.');

      const report = unwrap(await client.call('memory.import', { content: file, dryRun: false }));
      expect(report).toMatchObject({ dryRun: false, new: 2, duplicate: 2, conflicting: 2, invalid: 1, written: 2 });
      const written = report.items.filter((i) => i.memoryId !== undefined);
      expect(written.map((i) => i.content)).toEqual(['喜欢在周末爬山', 'Learning to play the cello']);
      for (const item of written) {
        const d = unwrap(await client.call('memory.get', { memoryId: item.memoryId! }));
        expect(d.memory).toMatchObject({ content: item.content, category: item.category, status: 'active', embeddingModel: 'test:bag-of-words-384' });
        expect(d.versions).toEqual([expect.objectContaining({ version: 1, origin: 'import', reason: 'imported' })]);
      }
      expect(unwrap(await client.call('memory.get', { memoryId: jazz.id }))).toEqual(jazzBefore);
      expect(seen).toEqual([{ event: 'memory.imported', payload: { written: 2, duplicate: 2, conflicting: 2, invalid: 1 } }]);

      const db = new Database(path.join(dir, 'mnemo.db'), { readonly: true });
      try {
        const summaries = db.prepare(`SELECT data FROM events WHERE kind = 'import_completed'`).all() as Array<{ data: string }>;
        expect(summaries.map((s) => JSON.parse(s.data) as unknown)).toEqual([expect.objectContaining({ written: 2, new: 2, duplicate: 2, conflicting: 2, invalid: 1 })]);
        expect(summaries[0]!.data).not.toContain('cello'); // the timeline never holds text
      } finally {
        db.close();
      }

      // The same file again: the new lines are duplicates now, nothing more is written.
      const again = unwrap(await client.call('memory.import', { content: file, dryRun: false }));
      expect(again).toMatchObject({ new: 0, written: 0, duplicate: 4 });
    });

    it('imports conflicts too when asked', async () => {
      const { client } = start({ embedder: createBagOfWordsEmbedder() });
      await seed(client);
      const report = unwrap(await client.call('memory.import', { content: file, dryRun: false, onConflict: 'import' }));
      expect(report).toMatchObject({ written: 4, conflicting: 2 });
      expect(report.items.filter((i) => i.outcome === 'conflict').every((i) => i.imported === true && i.memoryId !== undefined)).toBe(true);
    });

    it('says, dry run and real, where the active memories stand against the cap; the cap never trashes what was imported', async () => {
      const dir = tempDir();
      const clock = createTestClock();
      // 105 memories Mnemo learned on its own, 5 more than the cap of 100 set below.
      const h = openMemoryHarness(dir, { embedder: null, clock });
      for (let i = 0; i < 105; i++) h.memories.createMemory({ content: `Learned fact number ${i}`, category: 'knowledge', importance: 0.5 }, { origin: 'extraction' });
      await h.close();
      const { client } = start({ dir, clock });
      unwrap(await client.call('settings.update', { patch: { activeMemoryCap: 100 } }));

      // 60 new lines (least important of all), a repeated and an unreadable line, which add nothing.
      const lines = [...Array.from({ length: 60 }, (_, i) => `- Imported fact number ${i} _(importance 0.01)_`), '- Imported fact number 7', '- ok'];
      const standing = { cap: 100, active: 165, learned: 105, overCap: 5, restorableDays: 30 };
      const dry = unwrap(await client.call('memory.import', { content: lines.join('\n'), dryRun: true }));
      expect(dry).toMatchObject({ written: 0, new: 60, duplicate: 1, invalid: 1, cap: standing });
      expect(unwrap(await client.call('memory.list', {})).total).toBe(105); // the dry run wrote nothing

      const real = unwrap(await client.call('memory.import', { content: lines.join('\n'), dryRun: false }));
      expect(real).toMatchObject({ written: 60, cap: standing });

      // Maintenance trashes only the 5 learned memories over the cap, none of the 60 imported, least important as they are.
      expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ trashedForCap: 5, cap: { active: 160, learned: 100, overCap: 0 } });
      const trashed = unwrap(await client.call('memory.list', { statuses: ['trashed'] })).items;
      expect(trashed.map((m) => m.content).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `Learned fact number ${i}`).sort());

      // A JSON export counts only what it brings in as active: its trashed memory would land in the trash.
      const other = start();
      const kept = await add(other.client, 'Keeps bees on the roof');
      const gone = await add(other.client, 'Had a flat tyre');
      unwrap(await other.client.call('memory.delete', { memoryId: gone.id }));
      const json = unwrap(await other.client.call('memory.export', { format: 'json', includeTrashed: true }));
      expect(json.count).toBe(2);
      const fromJson = unwrap(await client.call('memory.import', { content: json.content, dryRun: true }));
      expect(fromJson).toMatchObject({ new: 2, cap: { active: 161, learned: 100, overCap: 0 } });
      expect(fromJson.items.map((i) => i.content).sort()).toEqual([kept.content, gone.content].sort());
    });

    it('without an embedder, saves without vectors and checks exact duplicates only', async () => {
      const { client } = start();
      await seed(client);
      const report = unwrap(await client.call('memory.import', { content: file, dryRun: false }));
      expect(report).toMatchObject({ nearDuplicateCheck: false, new: 3, conflicting: 1, written: 3 });
      const tea = report.items.find((i) => i.line === 2)!;
      expect(unwrap(await client.call('memory.get', { memoryId: tea.memoryId! })).memory.embeddingModel).toBeNull();
      expect(unwrap(await client.call('memory.stats', {})).vectors.missing).toBeGreaterThanOrEqual(3);
    });

    it('announces progress while it embeds a large import', async () => {
      const { client, core } = start({ embedder: createBagOfWordsEmbedder() });
      const progress: Array<{ done: number; total: number }> = [];
      core.subscribe((m) => {
        if (m.event === 'import.progressed') progress.push(m.payload);
      });
      const lines = Array.from({ length: 150 }, (_, i) => `- Fact number ${i} about the garden shed`);
      const report = unwrap(await client.call('memory.import', { content: lines.join('\n'), dryRun: false }));
      expect(report.written).toBe(150);
      expect(progress).toEqual([
        { done: 64, total: 150 },
        { done: 128, total: 150 },
        { done: 150, total: 150 },
      ]);
    });

    it('refuses JSON that is not a Mnemo export, naming the problem', async () => {
      const { client } = start();
      const r = await client.call('memory.import', { content: '{"memories": ["x"]}', dryRun: true });
      expect(r).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT', message: expect.stringMatching(/not a Mnemo memory export/) } });
    });
  });

  describe('export', () => {
    it('JSON carries every memory with provenance and full history; Markdown is the active profile, pinned first', async () => {
      const dir = tempDir();
      const clock = createTestClock();
      // Provenance comes from conversations, which only the internal API records.
      const h = openMemoryHarness(dir, { embedder: null, clock });
      const thread = h.threads.create({ title: '园艺 plans', incognito: false });
      const learned = h.memories.createMemory(
        { content: '我在阳台上种番茄', category: 'project', importance: 0.6 },
        { origin: 'extraction', sourceThreadId: thread.id, evidence: '我今年在阳台上种了番茄' },
      );
      await h.close();

      const { client } = start({ dir, clock });
      clock.advance(DAY);
      unwrap(await client.call('memory.update', { memoryId: learned.id, importance: 0.7 }));
      const pinned = await add(client, 'Prefers tea', { category: 'preference', pinned: true, importance: 0.3 });
      await add(client, 'Likes jazz', { category: 'preference', importance: 0.9, expiresAt: clock.now() + 30 * DAY });
      const archived = await add(client, 'Used to live in Porto');
      unwrap(await client.call('memory.bulk', { action: 'archive', memoryIds: [archived.id] }));
      const trashed = await add(client, 'Had a dentist appointment');
      unwrap(await client.call('memory.delete', { memoryId: trashed.id }));

      const json = unwrap(await client.call('memory.export', { format: 'json', includeArchived: true }));
      expect(json.filename).toBe('mnemo-memories-2026-01-02.json');
      const doc = JSON.parse(json.content) as { format: string; version: number; exportedAt: string; count: number; memories: Array<Record<string, unknown>> };
      expect(doc).toMatchObject({ format: 'mnemo.memories', version: 1, exportedAt: '2026-01-02T00:00:00.000Z', count: 4 });
      expect(json.count).toBe(4);
      expect(doc.memories.map((m) => m.content)).toEqual(['我在阳台上种番茄', 'Prefers tea', 'Likes jazz', 'Used to live in Porto']);
      expect(doc.memories[0]).toMatchObject({
        category: 'project',
        importance: 0.7,
        provenance: { threadId: thread.id, threadTitle: '园艺 plans', messageId: null, evidence: '我今年在阳台上种了番茄' },
        versions: [
          { version: 1, origin: 'extraction', reason: 'created', importance: 0.6 },
          { version: 2, origin: 'user', reason: 'edited', importance: 0.7 },
        ],
      });
      expect(unwrap(await client.call('memory.export', { format: 'json', includeTrashed: true })).count).toBe(4); // active 3 + trashed 1

      const md = unwrap(await client.call('memory.export', { format: 'md' }));
      expect(md).toMatchObject({ filename: 'mnemo-memories-2026-01-02.md', count: 3 });
      expect(md.content).toContain('## Preferences\n\n- Prefers tea _(pinned · importance 0.30)_\n- Likes jazz _(importance 0.90 · expires 2026-02-01)_');
      expect(md.content).toContain('## Projects\n\n- 我在阳台上种番茄 _(importance 0.70)_');
      expect(md.content).not.toContain('Porto');
      expect(pinned.pinned).toBe(true);
    });

    it('round trip: a JSON export imported into an empty data folder gives the same memories', async () => {
      const a = start({ embedder: createBagOfWordsEmbedder() });
      await add(a.client, 'Prefers tea over coffee', { category: 'preference', importance: 0.8, pinned: true });
      await add(a.client, '我每天早上六点起床', { category: 'knowledge', importance: 0.35 });
      await add(a.client, 'Mixed 中文 and English: 用 TypeScript 写代码', { category: 'skill', importance: 1 });
      await add(a.client, 'Conference talk in Lisbon', { category: 'project', expiresAt: a.clock.now() + 10 * DAY });
      const old = await add(a.client, 'Used to play the violin', { category: 'skill', importance: 0.1 });
      a.clock.advance(DAY);
      unwrap(await a.client.call('memory.bulk', { action: 'archive', memoryIds: [old.id] }));
      const exported = unwrap(await a.client.call('memory.export', { format: 'json', includeArchived: true }));

      const b = start({ embedder: createBagOfWordsEmbedder() });
      b.clock.advance(2 * DAY); // imported later than it was exported
      const dry = unwrap(await b.client.call('memory.import', { content: exported.content, dryRun: true }));
      expect(dry).toMatchObject({ format: 'mnemo-json', new: 5, duplicate: 0, conflicting: 0, invalid: 0 });
      expect(unwrap(await b.client.call('memory.import', { content: exported.content, dryRun: false }))).toMatchObject({ written: 5 });

      const shape = (m: Memory) => ({ content: m.content, category: m.category, importance: m.importance, pinned: m.pinned, expiresAt: m.expiresAt, status: m.status });
      const all = async (c: Client) =>
        unwrap(await c.call('memory.list', { statuses: ['active', 'archived'], limit: 100 }))
          .items.map(shape)
          .sort((x, y) => x.content.localeCompare(y.content));
      expect(await all(b.client)).toEqual(await all(a.client));
      const first = unwrap(await b.client.call('memory.list', { limit: 1, query: '起床' })).items[0]!;
      expect(unwrap(await b.client.call('memory.get', { memoryId: first.id })).versions.map((v) => [v.origin, v.reason])).toEqual([
        ['user', 'created'],
        ['import', 'imported'],
      ]);
      // The history comes along: versions with their origin, reason and time, so "as of" goes back as it did there.
      const violinA = unwrap(await a.client.call('memory.get', { memoryId: old.id }));
      const violinB = unwrap(await b.client.call('memory.list', { statuses: ['archived'], limit: 5 })).items[0]!;
      const historyB = unwrap(await b.client.call('memory.get', { memoryId: violinB.id })).versions;
      const strip = (v: MemoryVersion) => ({ version: v.version, content: v.content, status: v.status, origin: v.origin, reason: v.reason, createdAt: v.createdAt });
      expect(historyB.slice(0, -1).map(strip)).toEqual(violinA.versions.map(strip));
      expect(historyB.at(-1)).toMatchObject({ version: violinA.versions.length + 1, origin: 'import', reason: 'imported', status: 'archived' });
      expect(violinB.createdAt).toBe(violinA.memory.createdAt);
      const asOf = unwrap(await b.client.call('memory.asOf', { at: violinA.versions[0]!.createdAt }));
      expect(asOf.items.map((i) => i.content)).toContain('Used to play the violin');
      // Importing the same export again changes nothing.
      expect(unwrap(await b.client.call('memory.import', { content: exported.content, dryRun: false }))).toMatchObject({ written: 0, duplicate: 5 });
    });

    it('a Markdown profile imported as text keeps wording, categories, importance and pins', async () => {
      const a = start();
      await add(a.client, 'Prefers tea over coffee', { category: 'preference', importance: 0.8, pinned: true });
      await add(a.client, '我每天早上六点起床', { importance: 0.35 });
      await add(a.client, 'Writes TypeScript every day', { category: 'skill' });
      const md = unwrap(await a.client.call('memory.export', { format: 'md' }));
      const b = start();
      expect(unwrap(await b.client.call('memory.import', { content: md.content, dryRun: false, defaultCategory: 'project' }))).toMatchObject({ written: 3, invalid: 0 });
      const shape = (m: Memory) => [m.content, m.category, m.importance, m.pinned];
      const list = async (c: Client) => unwrap(await c.call('memory.list', { sort: 'importance' })).items.map(shape);
      expect(await list(b.client)).toEqual(await list(a.client));
    });
  });

  describe('secrets never become memories, whoever writes them', () => {
    it('an import lists a line holding a secret as invalid (dry run and real run) and writes none of it', async () => {
      const { client, dir } = start();
      const file = ['Enjoys hiking in the Alps', 'My bank PIN is 4821', '我的支付密码改成了135790', 'postgres://app:Hunter2pass@db.local/prod', 'Changed my password yesterday'].join('\n');
      for (const dryRun of [true, false]) {
        const report = unwrap(await client.call('memory.import', { content: file, dryRun }));
        expect(report.items.map((i) => [i.line, i.outcome])).toEqual([
          [1, 'new'],
          [2, 'invalid'],
          [3, 'invalid'],
          [4, 'invalid'],
          [5, 'new'],
        ]);
        expect(report.items[1]!.reason).toMatch(/looks like a PIN, and Mnemo never keeps secrets as memories/);
        expect(report.items[2]!.reason).toMatch(/looks like a password/);
      }
      const contents = unwrap(await client.call('memory.list', { statuses: ['active', 'archived', 'review', 'trashed'] })).items.map((m) => m.content);
      expect(contents.sort()).toEqual(['Changed my password yesterday', 'Enjoys hiking in the Alps']);
      const db = new Database(path.join(dir, 'mnemo.db'), { readonly: true });
      try {
        const versions = db.prepare('SELECT content FROM memory_versions').all() as Array<{ content: string }>;
        expect(versions.some((v) => /4821|135790|Hunter2pass/.test(v.content))).toBe(false);
      } finally {
        db.close();
      }
    });

    it('a memory added or edited by hand is refused with INVALID_INPUT when it holds a secret, and nothing changes', async () => {
      const { client } = start();
      const added = await client.call('memory.create', { content: 'Using hunter2 as my password for the router' });
      expect(added.ok).toBe(false);
      if (!added.ok) {
        expect(added.error.code).toBe('INVALID_INPUT');
        expect(added.error.path).toBe('content');
        expect(added.error.message).toMatch(/^This was not saved: it looks like a password/);
      }
      const kept = await add(client, 'Has a router at home');
      const edited = await client.call('memory.update', { memoryId: kept.id, content: 'Router admin password is S3cr3t!x' });
      expect(edited.ok).toBe(false);
      expect(unwrap(await client.call('memory.get', { memoryId: kept.id, usesLimit: 1 })).memory.content).toBe('Has a router at home');
      expect(unwrap(await client.call('memory.list', {})).total).toBe(1);
    });
  });
});
