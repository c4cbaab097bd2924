/**
 * Conversations out and back in, through the core on real SQLite files and a fake Ollama: a thread with a pinned
 * memory in its receipt, reasoning and Chinese text is exported as JSON and Markdown, and the JSON is imported into a
 * second, empty database, where the thread reads the same, is found by search, and is not learned from.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { THREAD_EXPORT_FORMAT } from '../../shared/contract';
import { useChatHarnesses } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

describe('thread export and import', () => {
  const tempDir = useTempDirs();

  async function harness() {
    const h = await harnesses.ollama(tempDir(), { core: { startQueue: false } });
    return h;
  }

  async function exchange() {
    const h = await harness();
    const { client, fake } = h;
    unwrap(await client.call('memory.create', { content: 'Name is Ana', pinned: true }));
    fake.script({ chunks: ['<think>She asks about tea.</think>', '绿茶很好。Green tea is fine.'] });
    const first = unwrap(await client.call('chat.send', { text: 'Which tea should I drink?\nI like 绿茶.' }));
    fake.script({ content: 'Sure: *sencha*.' });
    unwrap(await client.call('chat.send', { threadId: first.threadId, text: 'And in the morning?' }));
    unwrap(await client.call('thread.rename', { threadId: first.threadId, title: 'Tea 茶' }));
    unwrap(await client.call('thread.setInstructions', { threadId: first.threadId, instructions: 'Answer in haiku.' }));
    return { ...h, threadId: first.threadId };
  }

  it('exports a thread as JSON with every message, its model, reasoning and receipt, and as Markdown for people', async () => {
    const { client, threadId } = await exchange();
    const json = unwrap(await client.call('thread.export', { threadId, format: 'json' }));
    expect(json.filename).toMatch(/^mnemo-thread-tea-茶-\d{4}-\d{2}-\d{2}\.json$/);
    const doc = JSON.parse(json.content);
    expect(doc).toMatchObject({ format: THREAD_EXPORT_FORMAT, version: 1, count: 1 });
    const [thread] = doc.threads;
    expect(thread).toMatchObject({ title: 'Tea 茶', instructions: 'Answer in haiku.', model: null });
    expect(thread.messages.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'Which tea should I drink?\nI like 绿茶.'],
      ['assistant', '绿茶很好。Green tea is fine.'],
      ['user', 'And in the morning?'],
      ['assistant', 'Sure: *sencha*.'],
    ]);
    expect(thread.messages[1]).toMatchObject({ thinking: 'She asks about tea.', model: 'llama3.2', status: 'complete' });
    expect(thread.messages[1].memoriesUsed).toEqual([expect.objectContaining({ content: 'Name is Ana', reason: 'pinned' })]);

    const md = unwrap(await client.call('thread.export', { threadId, format: 'md' }));
    expect(md.filename).toMatch(/\.md$/);
    expect(md.content).toContain('# Tea 茶');
    expect(md.content).toMatch(/## You · \d{4}-\d{2}-\d{2} \d{2}:\d{2}\n\nWhich tea should I drink\?\nI like 绿茶\./);
    expect(md.content).toContain('## Mnemo · llama3.2 · ');
    expect(md.content).toContain('_Memories used: “Name is Ana” (pinned)_');
    // Reasoning is in the JSON for the record, not in the text for people.
    expect(md.content).not.toContain('She asks about tea');
  });

  it('exports every thread when none is named, and refuses an unknown thread', async () => {
    const { client, threadId } = await exchange();
    unwrap(await client.call('thread.create', { title: 'Empty one', incognito: true }));
    const all = unwrap(await client.call('thread.export', { format: 'json' }));
    expect(all.count).toBe(2);
    expect(all.filename).toMatch(/^mnemo-threads-/);
    expect(JSON.parse(all.content).threads.map((t: { title: string; incognito: boolean }) => [t.title, t.incognito])).toEqual([
      ['Tea 茶', false],
      ['Empty one', true],
    ]);
    expect(await client.call('thread.export', { threadId: threadId + 99, format: 'md' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
  });

  it('imports an export into another database: same messages and times, searchable, not learned from, and only once', async () => {
    const source = await exchange();
    const content = unwrap(await source.client.call('thread.export', { format: 'json' })).content;
    const original = JSON.parse(content).threads[0];

    const target = await harness();
    const dry = unwrap(await target.client.call('thread.import', { content, dryRun: true }));
    expect(dry).toMatchObject({ dryRun: true, new: 1, duplicate: 0, invalid: 0, written: 0 });
    expect(unwrap(await target.client.call('thread.list', {})).threads).toEqual([]);

    const done = unwrap(await target.client.call('thread.import', { content }));
    expect(done).toMatchObject({ dryRun: false, new: 1, written: 1 });
    const [thread] = unwrap(await target.client.call('thread.list', {})).threads;
    expect(thread).toMatchObject({ id: done.items[0]!.threadId, title: 'Tea 茶', messageCount: 4, createdAt: original.createdAt, lastActivityAt: original.lastActivityAt });
    const page = unwrap(await target.client.call('thread.messages', { threadId: thread!.id }));
    expect(page.messages.map((m) => [m.role, m.content, m.createdAt, m.model])).toEqual(
      original.messages.map((m: { role: string; content: string; createdAt: number; model: string | null }) => [m.role, m.content, m.createdAt, m.model]),
    );
    expect(page.messages[1]!.thinking).toBe('She asks about tea.');
    // The receipts' memories belonged to the other database: not linked here.
    expect(page.receipts).toEqual([]);
    expect(unwrap(await target.client.call('thread.search', { query: '绿茶' })).hits.map((h) => h.threadId)).toContain(thread!.id);
    expect(unwrap(await target.client.call('queue.list', {})).jobs).toEqual([]);
    // Its export reads the same as the original's.
    const again = JSON.parse(unwrap(await target.client.call('thread.export', { threadId: thread!.id, format: 'json' })).content).threads[0];
    expect({ ...again, messages: again.messages.map((m: object) => ({ ...m, memoriesUsed: [] })) }).toEqual({
      ...original,
      messages: original.messages.map((m: object) => ({ ...m, memoriesUsed: [] })),
    });

    const twice = unwrap(await target.client.call('thread.import', { content }));
    expect(twice).toMatchObject({ new: 0, duplicate: 1, written: 0 });
    expect(unwrap(await target.client.call('thread.list', {})).threads).toHaveLength(1);
  });

  it('keeps a summary over the same first messages, and reports a bad thread without refusing the file', async () => {
    const { client, core } = await harness();
    const doc = {
      format: THREAD_EXPORT_FORMAT,
      version: 1,
      exportedAt: new Date(0).toISOString(),
      app: { name: 'Mnemo', version: '0.1.0', schemaVersion: 'x' },
      count: 2,
      threads: [
        {
          title: 'Long one',
          createdAt: 1000,
          lastActivityAt: 4000,
          summary: { content: 'They talked about Porto.', coveredMessages: 2 },
          messages: [
            { role: 'user', content: 'I moved to Porto', createdAt: 1000 },
            { role: 'assistant', content: 'Nice!', createdAt: 2000 },
            { role: 'user', content: 'What now?', createdAt: 3000 },
          ],
        },
        { title: 'Broken', createdAt: 5, lastActivityAt: 6, messages: [{ role: 'system', content: 'x', createdAt: 5 }] },
      ],
    };
    const report = unwrap(await client.call('thread.import', { content: JSON.stringify(doc) }));
    expect(report).toMatchObject({ new: 1, invalid: 1, written: 1 });
    expect(report.items[1]).toMatchObject({ outcome: 'invalid', title: 'Broken', reason: expect.stringContaining('messages.0.role') });
    const threadId = report.items[0]!.threadId!;
    const db = new Database(core.paths.dbFile, { readonly: true });
    const summary = db.prepare('SELECT content, covered_count, from_message_id, to_message_id FROM thread_summaries WHERE thread_id = ?').get(threadId) as Record<string, unknown>;
    const ids = (db.prepare('SELECT id FROM messages WHERE thread_id = ? ORDER BY id').all(threadId) as Array<{ id: number }>).map((r) => r.id);
    db.close();
    expect(summary).toEqual({ content: 'They talked about Porto.', covered_count: 2, from_message_id: ids[0], to_message_id: ids[1] });
  });

  it('refuses what is not a thread export, with what to do', async () => {
    const { client } = await harness();
    expect(await client.call('thread.import', { content: '{"format":"mnemo.memories","version":1}' })).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringContaining('not a Mnemo conversation export') },
    });
    expect(await client.call('thread.import', { content: 'no json' })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const newer = JSON.stringify({ format: THREAD_EXPORT_FORMAT, version: 99, exportedAt: '', app: { name: 'Mnemo', version: '9', schemaVersion: 'x' }, count: 0, threads: [] });
    expect(await client.call('thread.import', { content: newer })).toMatchObject({ ok: false, error: { message: expect.stringContaining('Update Mnemo') } });
  });
});
