/**
 * A thread's own model and instructions, the global instructions, and what the model saw for each answer, through a
 * real core on real SQLite against a fake Ollama that records every request.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import type { FakeInferenceRequest } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';
import { isLearning, type RequestPurpose } from '../support/request-kind';

const harnesses = useChatHarnesses();

/** A second, read-only connection to the core's database file, for what no operation shows (the stored row itself). */
function query(dbFile: string, sql: string, ...params: unknown[]): unknown {
  const db = new Database(dbFile, { readonly: true });
  try {
    return db.prepare(sql).get(...params);
  } finally {
    db.close();
  }
}

const isExtraction = (r: FakeInferenceRequest) => isLearning(r.purpose);
type ChatBody = { model: string; messages: Array<{ role: string; content: string }> };
const answers = (requests: Array<{ purpose: RequestPurpose | null; body: unknown }>) =>
  requests.filter((r) => r.purpose === 'chat' && (r.body as ChatBody).messages.at(-1)!.content.startsWith('Q:')).map((r) => r.body as ChatBody);

async function harness(dataDir: string) {
  const h = await harnesses.ollama(dataDir, { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }), startQueue: false } });
  h.fake.setDefaultReply((req) => (isExtraction(req) ? { content: JSON.stringify({ memories: [] }) } : { content: 'Noted, thank you for telling me.' }));
  return h;
}

describe('per-thread model and instructions', () => {
  const tempDir = useTempDirs();

  it('answers with the model chosen for the thread, keeps the choice across a restart, and goes back to the setting on null', async () => {
    const dir = tempDir();
    const h = await harness(dir);
    // What the header picker shows: chat models with their context length, the embedding model marked as not one.
    const listed = unwrap(await h.client.call('models.list', {})).models.map((m) => [m.name, m.chat, m.contextLength]);
    expect(listed).toEqual([
      ['llama3.2:latest', true, 4096],
      ['qwen3:4b', true, 4096],
      ['nomic-embed-text:latest', false, 4096],
    ]);
    const first = unwrap(await h.client.call('chat.send', { text: 'Q: hello' }));
    expect(unwrap(await h.client.call('thread.get', { threadId: first.threadId })).model).toBeNull();
    const chosen = unwrap(await h.client.call('thread.setModel', { threadId: first.threadId, model: 'qwen3:4b' }));
    expect(chosen.model).toBe('qwen3:4b');
    const second = unwrap(await h.client.call('chat.send', { threadId: first.threadId, text: 'Q: and now?' }));
    expect(second.assistantMessage.model).toBe('qwen3:4b');
    expect(answers(h.fake.requests).map((b) => b.model)).toEqual(['llama3.2', 'qwen3:4b']);
    // Another thread still answers with the setting.
    const other = unwrap(await h.client.call('chat.send', { text: 'Q: elsewhere' }));
    expect(other.assistantMessage.model).toBe('llama3.2');

    await h.core.dispose();
    const reopened = createTestCore(path.join(dir, 'data'), { env: { OLLAMA_HOST: h.fake.url }, startQueue: false });
    try {
      expect(unwrap(await reopened.client.call('thread.get', { threadId: first.threadId })).model).toBe('qwen3:4b');
      const back = unwrap(await reopened.client.call('thread.setModel', { threadId: first.threadId, model: null }));
      expect(back.model).toBeNull();
    } finally {
      await reopened.core.dispose();
    }
  });

  it('makes the model a message is sent with the thread’s model (the user chose it)', async () => {
    const h = await harness(tempDir());
    const r = unwrap(await h.client.call('chat.send', { text: 'Q: hi', model: 'qwen3:4b' }));
    expect(unwrap(await h.client.call('thread.get', { threadId: r.threadId })).model).toBe('qwen3:4b');
    unwrap(await h.client.call('chat.send', { threadId: r.threadId, text: 'Q: again' }));
    expect(answers(h.fake.requests).map((b) => b.model)).toEqual(['qwen3:4b', 'qwen3:4b']);
  });

  it('refuses a model choice for a thread that does not exist, a model that cannot chat or is not installed, and instructions over the limit', async () => {
    const h = await harness(tempDir());
    const missing = await h.client.call('thread.setModel', { threadId: 999, model: 'qwen3:4b' });
    expect(!missing.ok && missing.error.code).toBe('NOT_FOUND');
    const r = unwrap(await h.client.call('chat.send', { text: 'Q: hi' }));
    // Never an embedding model, never one the server does not have; the thread keeps its model.
    const embedding = await h.client.call('thread.setModel', { threadId: r.threadId, model: 'nomic-embed-text' });
    expect(!embedding.ok && embedding.error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('embedding model') });
    const absent = await h.client.call('thread.setModel', { threadId: r.threadId, model: 'mistral:7b' });
    expect(!absent.ok && absent.error.code).toBe('MODEL_NOT_FOUND');
    expect(unwrap(await h.client.call('thread.get', { threadId: r.threadId })).model).toBeNull();
    const tooLong = await h.client.call('thread.setInstructions', { threadId: r.threadId, instructions: 'x'.repeat(4001) });
    expect(!tooLong.ok && tooLong.error.code).toBe('INVALID_INPUT');
    const globalTooLong = await h.client.call('settings.update', { patch: { instructions: 'x'.repeat(4001) } });
    expect(globalTooLong.ok).toBe(false);
  });

  it('sends the global and the thread’s instructions in the system prompt, keeps them across a restart, and never extracts from them', async () => {
    const dir = tempDir();
    const h = await harness(dir);
    unwrap(await h.client.call('settings.update', { patch: { instructions: 'Always answer in a cheerful tone.' } }));
    const first = unwrap(await h.client.call('chat.send', { text: 'Q: I live in Porto.' }));
    const set = unwrap(await h.client.call('thread.setInstructions', { threadId: first.threadId, instructions: '  请用中文回答，并且我是素食者。  ' }));
    expect(set.instructions).toBe('请用中文回答，并且我是素食者。');
    unwrap(await h.client.call('chat.send', { threadId: first.threadId, text: 'Q: What should I cook?' }));
    const [before, after] = answers(h.fake.requests);
    expect(before!.messages[0]!.content).toContain('Always answer in a cheerful tone.');
    expect(before!.messages[0]!.content).not.toContain('素食者');
    expect(after!.messages[0]!.role).toBe('system');
    expect(after!.messages[0]!.content).toContain('Always answer in a cheerful tone.');
    expect(after!.messages[0]!.content).toContain('请用中文回答，并且我是素食者。');

    h.core.queue.start();
    await h.core.queue.waitForIdle();
    const extractions = h.fake.requests.filter((r) => isLearning(r.purpose));
    expect(extractions.length).toBeGreaterThan(0);
    for (const e of extractions) expect(JSON.stringify(e.body)).not.toMatch(/素食者|cheerful/);

    await h.core.dispose();
    const reopened = createTestCore(path.join(dir, 'data'), { env: { OLLAMA_HOST: h.fake.url }, startQueue: false });
    try {
      expect(unwrap(await reopened.client.call('thread.get', { threadId: first.threadId })).instructions).toBe('请用中文回答，并且我是素食者。');
      expect(unwrap(await reopened.client.call('thread.setInstructions', { threadId: first.threadId, instructions: '   ' })).instructions).toBeNull();
    } finally {
      await reopened.core.dispose();
    }
  });
});

describe('what the model saw', () => {
  const tempDir = useTempDirs();

  it('stores the breakdown of each answer’s prompt and reads it back after a restart', async () => {
    const dir = tempDir();
    const h = await harness(dir);
    unwrap(await h.client.call('settings.update', { patch: { instructions: 'Be brief.' } }));
    const memory = unwrap(await h.client.call('memory.create', { content: 'Grows tomatoes on the balcony', category: 'knowledge' }));
    const first = unwrap(await h.client.call('chat.send', { text: 'Q: what about my tomatoes on the balcony?' }));
    unwrap(await h.client.call('thread.setInstructions', { threadId: first.threadId, instructions: '回答时用列表。' }));
    const second = unwrap(await h.client.call('chat.send', { threadId: first.threadId, text: 'Q: and the tomatoes again?' }));

    const seen = unwrap(await h.client.call('chat.context', { messageId: second.assistantMessage.id }))!;
    const sent = answers(h.fake.requests)[1]!;
    expect(seen.model).toBe('llama3.2');
    expect(seen.budget).toEqual({ contextWindow: 4096, system: 614, memories: 614, conversation: 2048, reply: 819 });
    // The system text is what was sent, before the memories block.
    expect(sent.messages[0]!.content.startsWith(seen.system.text)).toBe(true);
    expect(seen.system.text).toContain('Be brief.');
    expect(seen.system.text).toContain('回答时用列表。');
    expect(seen.system.globalInstructions).toMatchObject({ cut: false });
    expect(seen.system.threadInstructions).toMatchObject({ cut: false });
    expect(seen.memories.ids).toEqual([memory.id]);
    expect(seen.memories.tokens).toBeGreaterThan(0);
    expect(seen.recent).toMatchObject({ count: 2, fromMessageId: first.userMessage.id });
    expect(seen.summary).toEqual({ included: false, tokens: 0 });
    expect(seen.system.tokens + seen.memories.tokens).toBeLessThanOrEqual(seen.budget.system + seen.budget.memories);
    expect(seen.recent.tokens + seen.question.tokens).toBeLessThanOrEqual(seen.budget.conversation);
    // The first answer's prompt had no thread instructions: each answer keeps its own.
    const firstSeen = unwrap(await h.client.call('chat.context', { messageId: first.assistantMessage.id }))!;
    expect(firstSeen.system.threadInstructions).toBeNull();
    expect(firstSeen.recent.count).toBe(0);

    // Ids and counts only: the row holds no copy of the messages.
    const row = query(h.core.paths.dbFile, 'SELECT breakdown FROM message_contexts WHERE message_id = ?', second.assistantMessage.id) as { breakdown: string };
    expect(row.breakdown).not.toContain('tomatoes');

    await h.core.dispose();
    const reopened = createTestCore(path.join(dir, 'data'), { env: { OLLAMA_HOST: h.fake.url }, startQueue: false });
    try {
      expect(unwrap(await reopened.client.call('chat.context', { messageId: second.assistantMessage.id }))).toEqual(seen);
      // A user message has no prompt of its own; a message that does not exist is NOT_FOUND.
      expect(unwrap(await reopened.client.call('chat.context', { messageId: second.userMessage.id }))).toBeNull();
      const gone = await reopened.client.call('chat.context', { messageId: 99_999 });
      expect(!gone.ok && gone.error.code).toBe('NOT_FOUND');
      // Deleting the thread takes the breakdowns with it.
      unwrap(await reopened.client.call('thread.delete', { threadId: first.threadId }));
      expect(query(reopened.core.paths.dbFile, 'SELECT count(*) AS n FROM message_contexts')).toEqual({ n: 0 });
    } finally {
      await reopened.core.dispose();
    }
  });

  it('records a cut when the instructions do not fit the system share', async () => {
    const h = await harness(tempDir());
    unwrap(await h.client.call('settings.update', { patch: { instructions: '请用中文回答，语气友好，先给结论。'.repeat(200).slice(0, 4000) } }));
    const r = unwrap(await h.client.call('chat.send', { text: 'Q: hi' }));
    const seen = unwrap(await h.client.call('chat.context', { messageId: r.assistantMessage.id }))!;
    expect(seen.system.globalInstructions?.cut).toBe(true);
    expect(seen.system.tokens).toBeLessThanOrEqual(seen.budget.system);
    expect(answers(h.fake.requests)[0]!.messages[0]!.content).toContain('[…]');
  });
});
