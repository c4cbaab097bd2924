import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { EventMessage } from '../../shared/contract';
import type { Core } from '../../electron/core/create-core';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

const cores: Core[] = [];
afterEach(async () => {
  for (const c of cores.splice(0)) await c.dispose();
});

describe('threads and settings through the core', () => {
  const tempDir = useTempDirs();
  let now = 1_000;
  const clock = { now: () => (now += 1_000) };

  function core() {
    const made = createTestCore(path.join(tempDir(), 'data'), { clock });
    cores.push(made.core);
    return made;
  }

  it('creates, lists by last activity, renames and deletes threads, emitting events', async () => {
    const { core: c, client } = core();
    const seen: EventMessage[] = [];
    c.subscribe((m) => seen.push(m));
    const a = unwrap(await client.call('thread.create', { title: 'Alpha' }));
    const b = unwrap(await client.call('thread.create', { incognito: true }));
    expect(b).toMatchObject({ title: '', incognito: true, messageCount: 0 });
    expect(unwrap(await client.call('thread.list', {})).threads.map((t) => t.id)).toEqual([b.id, a.id]);
    expect(unwrap(await client.call('thread.rename', { threadId: b.id, title: '  计划  ' })).title).toBe('计划');
    unwrap(await client.call('thread.delete', { threadId: a.id }));
    expect(unwrap(await client.call('thread.list', {})).threads.map((t) => t.id)).toEqual([b.id]);
    expect(await client.call('thread.get', { threadId: a.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await client.call('thread.delete', { threadId: a.id })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(seen.map((m) => m.event).filter((e) => e.startsWith('thread.'))).toEqual(['thread.created', 'thread.created', 'thread.updated', 'thread.deleted']);
  });

  it('pages by last activity: each page continues before the last one seen, newest first', async () => {
    const { client } = core();
    const made = [];
    for (const title of ['one', 'two', 'three']) made.push(unwrap(await client.call('thread.create', { title })));
    const first = unwrap(await client.call('thread.list', { limit: 2 })).threads;
    expect(first.map((t) => t.title)).toEqual(['three', 'two']);
    expect(first[0]).toEqual({ ...made[2], messageCount: 0 });
    const next = unwrap(await client.call('thread.list', { limit: 2, beforeActivityAt: first[1]!.lastActivityAt })).threads;
    expect(next).toEqual([{ id: made[0]!.id, title: 'one', incognito: false, model: null, instructions: null, createdAt: made[0]!.createdAt, lastActivityAt: made[0]!.lastActivityAt, messageCount: 0 }]);
  });

  it('deleting a thread removes its messages, summary and jobs in one go', async () => {
    const { core: c, client } = core();
    const t = unwrap(await client.call('thread.create', {}));
    const db = new Database(c.paths.dbFile);
    const msg = db.prepare("INSERT INTO messages (thread_id, role, content, created_at, updated_at) VALUES (?, 'user', 'x', 1, 1)").run(t.id).lastInsertRowid;
    db.prepare('INSERT INTO messages_fts (rowid, body) VALUES (?, ?)').run(msg, 'x');
    db.prepare("INSERT INTO thread_summaries (thread_id, content, updated_at) VALUES (?, 's', 1)").run(t.id);
    db.prepare("INSERT INTO jobs (kind, idempotency_key, thread_id, message_id, run_after, created_at, updated_at) VALUES ('extract', 'k', ?, ?, 1, 1, 1)").run(t.id, msg);
    unwrap(await client.call('thread.delete', { threadId: t.id }));
    for (const table of ['messages', 'thread_summaries', 'jobs']) {
      expect((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n, table).toBe(0);
    }
    expect(db.prepare("SELECT rowid FROM messages_fts WHERE messages_fts MATCH 'x'").all()).toEqual([]);
    db.close();
  });

  it('a deleted thread leaves no trace of its words in the database file or WAL', async () => {
    const { core: c, client } = core();
    const t = unwrap(await client.call('thread.create', {}));
    const db = new Database(c.paths.dbFile);
    const canary = 'zqxcanaryword';
    for (let i = 0; i < 20; i++) {
      const id = db.prepare("INSERT INTO messages (thread_id, role, content, created_at, updated_at) VALUES (?, 'user', ?, 1, 1)").run(t.id, `${canary} ${i} 秘密金丝雀`).lastInsertRowid;
      db.prepare('INSERT INTO messages_fts (rowid, body) VALUES (?, ?)').run(id, `${canary} ${i} 秘密 密金 金丝 丝雀`);
    }
    db.close();
    unwrap(await client.call('thread.delete', { threadId: t.id }));
    // While Mnemo still runs (the WAL is only folded in by a checkpoint), then after it closed.
    const walNow = `${c.paths.dbFile}-wal`;
    if (fs.existsSync(walNow)) {
      const bytes = fs.readFileSync(walNow);
      expect(bytes.includes(Buffer.from(canary)), 'WAL while running').toBe(false);
      expect(bytes.includes(Buffer.from('金丝')), 'WAL while running').toBe(false);
    }
    await c.dispose();
    cores.splice(cores.indexOf(c), 1);
    for (const file of [c.paths.dbFile, `${c.paths.dbFile}-wal`]) {
      if (!fs.existsSync(file)) continue;
      const bytes = fs.readFileSync(file);
      expect(bytes.includes(Buffer.from(canary)), file).toBe(false);
      expect(bytes.includes(Buffer.from('金丝')), file).toBe(false);
    }
  });

  it('settings: defaults, validated partial updates, persisted across restarts', async () => {
    const dir = path.join(tempDir(), 'data');
    const first = createTestCore(dir, { clock });
    const defaults = unwrap(await first.client.call('settings.get', {}));
    expect(defaults).toMatchObject({ ollamaHost: '', memoryMode: 'auto', budget: { system: 0.15, memories: 0.15, conversation: 0.5, reply: 0.2 } });
    const updated = unwrap(await first.client.call('settings.update', { patch: { memoryMode: 'ask', language: 'zh-CN' } }));
    expect(updated).toMatchObject({ memoryMode: 'ask', language: 'zh-CN' });
    expect(await first.client.call('settings.update', { patch: { ollamaHost: 'file:///etc/passwd' } })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await first.client.call('settings.update', { patch: { budget: { system: 0.6, memories: 0.6, conversation: 0.5, reply: 0.2 } } })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', path: 'patch.budget' },
    });
    // A patch changes only what it names: other settings (and other fields of a nested group) stay as they were.
    unwrap(await first.client.call('settings.update', { patch: { chatModel: 'qwen3:4b', retrieval: { limit: 7 } } }));
    const afterPatch = unwrap(await first.client.call('settings.update', { patch: { retrieval: { minSimilarity: 0.5 } } }));
    expect(afterPatch).toMatchObject({ memoryMode: 'ask', language: 'zh-CN', chatModel: 'qwen3:4b', retrieval: { limit: 7, minSimilarity: 0.5, similarityWeight: 0.6 } });
    await first.core.dispose();
    const second = createTestCore(dir, { clock });
    cores.push(second.core);
    expect(unwrap(await second.client.call('settings.get', {}))).toMatchObject({ memoryMode: 'ask', language: 'zh-CN' });
  });

  it('refuses work after dispose with a clear envelope', async () => {
    const { core: c, client } = core();
    await c.dispose();
    expect(await client.call('app.info', {})).toMatchObject({ ok: false, error: { code: 'SHUTTING_DOWN' } });
  });
});
