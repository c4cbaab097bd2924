/**
 * One reply per thread across processes (chat/reply-writer.ts), with two cores on one data folder in this process:
 * each core is its own writer, as two processes are (test/reliability/reply-conflict.int.test.ts runs the real
 * CLI processes, killed ones included). Leftovers of gone writers are made by hand: a row 'streaming' under the
 * writer of a process that has ended, or of one silent a whole lease.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { Message } from '../../shared/contract';
import type { Core } from '../../electron/core/create-core';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { anotherWriterMessage, REPLY_LEASE_MS } from '../../electron/core/chat/reply-writer';
import { createChatHarness } from '../support/chat-harness';
import type { FakeOllama } from '../fakes/fake-ollama';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** Core A (with the fake) and a thread with one finished exchange in it. */
async function firstCore(dataDir: string) {
  const a = await createChatHarness(dataDir, { core: { startQueue: false } });
  open.push(a);
  a.fake.setDefaultReply((req) => ({ content: `Answer to ${req.messages.at(-1)!.content}` }));
  const first = unwrap(await a.client.call('chat.send', { text: 'I like tea' }));
  return { a, first };
}

/** Another core on the same data folder: another writer, as another process is. */
function secondCore(dataDir: string, fake: FakeOllama) {
  const b = createTestCore(path.join(dataDir, 'data'), { llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url }, startQueue: false });
  open.push({ close: () => b.core.dispose() });
  return b;
}

function database(dataDir: string) {
  const db = new Database(path.join(dataDir, 'data', 'mnemo.db'));
  open.push({ close: () => void db.close() });
  return db;
}

/** A pid no process has: one that ran and was reaped. */
function endedPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

function completedEvents(core: Core): Message[] {
  const seen: Message[] = [];
  core.subscribe((m) => {
    if (m.event === 'message.completed') seen.push(m.payload.message);
  });
  return seen;
}

const conflict = (again: string) => ({ ok: false, error: { code: 'CONFLICT', message: anotherWriterMessage(again) } });

describe('one reply per thread across processes', () => {
  const tempDir = useTempDirs();

  it('refuses every second writer while another process writes a reply, changes nothing, and answers once it is done', async () => {
    const dir = tempDir();
    const { a, first } = await firstCore(dir);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let started = () => {};
    const asked = new Promise<void>((resolve) => (started = resolve));
    a.fake.setDefaultReply((req) => {
      const last = req.messages.at(-1)!.content;
      if (last !== 'question A') return { content: `Answer to ${last}` };
      started();
      return { content: 'answer A', hold: held };
    });
    const writing = a.client.call('chat.send', { threadId: first.threadId, text: 'question A' });
    await asked;

    // B starts while A writes: its start-up leaves A's reply alone.
    const b = secondCore(dir, a.fake);
    const before = unwrap(await b.client.call('thread.messages', { threadId: first.threadId })).messages;
    expect(before.map((m) => [m.content, m.status])).toEqual([
      ['I like tea', 'complete'],
      ['Answer to I like tea', 'complete'],
      ['question A', 'complete'],
      ['', 'streaming'],
    ]);
    expect(await b.client.call('chat.send', { threadId: first.threadId, text: 'question B' })).toMatchObject(conflict('send again'));
    expect(await b.client.call('chat.send', { threadId: first.threadId, text: 'question B', model: 'qwen3:4b' })).toMatchObject(conflict('send again'));
    expect(await b.client.call('chat.retry', { threadId: first.threadId })).toMatchObject(conflict('try again'));
    expect(await b.client.call('chat.edit', { messageId: first.userMessage.id, text: 'I like coffee' })).toMatchObject(conflict('edit again'));
    expect(await b.client.call('chat.regenerate', { messageId: first.assistantMessage.id })).toMatchObject(conflict('regenerate'));
    expect(await b.client.call('thread.switchBranch', { messageId: first.userMessage.id, version: 1 })).toMatchObject(conflict('switch versions'));
    expect(unwrap(await b.client.call('thread.messages', { threadId: first.threadId })).messages).toEqual(before);
    expect(unwrap(await b.client.call('thread.get', { threadId: first.threadId })).model).toBeNull();

    release();
    expect(unwrap(await writing).assistantMessage).toMatchObject({ content: 'answer A', status: 'complete' });
    const answered = unwrap(await b.client.call('chat.send', { threadId: first.threadId, text: 'question B' }));
    expect(answered.assistantMessage).toMatchObject({ content: 'Answer to question B', status: 'complete' });
    // B's prompt holds A's finished answer.
    const prompt = a.fake.requests.filter((r) => r.path === '/api/chat').at(-1)!.body as { messages: Array<{ content: string }> };
    expect(prompt.messages.map((m) => m.content)).toContain('answer A');
  });

  it('a reply left by a process that ended, or by one silent a whole lease, does not block the thread', async () => {
    const dir = tempDir();
    const { a, first } = await firstCore(dir);
    const db = database(dir);
    const leave = (writer: string | null, updatedAt: number) =>
      db.prepare(`UPDATE messages SET status = 'streaming', error_code = NULL, writer = ?, updated_at = ? WHERE id = ?`).run(writer, updatedAt, first.assistantMessage.id);
    const b = secondCore(dir, a.fake);
    const completed = completedEvents(b.core);

    leave(`${endedPid()}@${os.hostname()}#ended1`, Date.now());
    const answered = unwrap(await b.client.call('chat.send', { threadId: first.threadId, text: 'Still there?' }));
    expect(answered.assistantMessage.status).toBe('complete');
    const leftover = { id: first.assistantMessage.id, content: 'Answer to I like tea', status: 'stopped', errorCode: 'INTERRUPTED' };
    expect(completed[0]).toMatchObject(leftover);
    expect(db.prepare('SELECT writer FROM messages WHERE id = ?').pluck().get(first.assistantMessage.id)).toBeNull();

    // This process is alive, but the writer (another core of it) has not been heard of for a whole lease.
    const silent = `${process.pid}@${os.hostname()}#silent1`;
    leave(silent, Date.now());
    expect(await b.client.call('chat.retry', { threadId: first.threadId })).toMatchObject(conflict('try again'));
    leave(silent, Date.now() - REPLY_LEASE_MS - 1);
    expect(unwrap(await b.client.call('chat.regenerate', { messageId: answered.assistantMessage.id })).assistantMessage.status).toBe('complete');
    expect(completed.filter((m) => m.id === first.assistantMessage.id)).toHaveLength(2);
  });

  it('at start, stops the replies of writers that are gone and leaves those of live ones', async () => {
    const dir = tempDir();
    const { a, first } = await firstCore(dir);
    const second = unwrap(await a.client.call('chat.send', { text: 'Another thread' }));
    const db = database(dir);
    const leave = (id: number, writer: string | null, updatedAt: number) =>
      db.prepare(`UPDATE messages SET status = 'streaming', writer = ?, updated_at = ? WHERE id = ?`).run(writer, updatedAt, id);
    leave(first.assistantMessage.id, `${endedPid()}@${os.hostname()}#ended1`, Date.now());
    leave(second.assistantMessage.id, `${process.pid}@${os.hostname()}#alive1`, Date.now());

    const b = secondCore(dir, a.fake);
    const shown = async (threadId: number) => unwrap(await b.client.call('thread.messages', { threadId })).messages.at(-1)!;
    expect(await shown(first.threadId)).toMatchObject({ status: 'stopped', errorCode: 'INTERRUPTED', content: 'Answer to I like tea' });
    expect(await shown(second.threadId)).toMatchObject({ status: 'streaming' });
  });
});
