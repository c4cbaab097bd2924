import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { EventMessage } from '../../shared/contract';
import { useChatHarnesses, type ChatHarnessOptions } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

async function harness(tempDir: () => string, opts: ChatHarnessOptions = {}) {
  const h = await harnesses.ollama(tempDir(), opts);
  return h;
}

describe('chat through the core against a fake Ollama', () => {
  const tempDir = useTempDirs();

  it('streams a reply, stores both messages with tokens and timings, and enqueues follow-up jobs', async () => {
    const { core, client, fake } = await harness(tempDir, { core: { startQueue: false } });
    fake.script({ content: 'Hello there, nice to meet you!', promptTokens: 42, evalTokens: 7 });
    const deltas: string[] = [];
    core.subscribe((m: EventMessage) => {
      if (m.event === 'message.delta') deltas.push(m.payload.content);
    });
    const r = unwrap(await client.call('chat.send', { text: 'Hi! I am Ana and I like hiking in the Alps.' }));
    expect(r.assistantMessage).toMatchObject({ role: 'assistant', status: 'complete', content: 'Hello there, nice to meet you!', promptTokens: 42, completionTokens: 7, model: 'llama3.2' });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Hello there, nice to meet you!');
    expect(r.assistantMessage.totalDurationMs).not.toBeNull();
    const page = unwrap(await client.call('thread.messages', { threadId: r.threadId }));
    expect(page.messages.map((m) => [m.role, m.status])).toEqual([
      ['user', 'complete'],
      ['assistant', 'complete'],
    ]);
    const jobs = unwrap(await client.call('queue.list', { status: ['queued'] })).jobs.map((j) => j.kind).sort();
    // The episode waits for the thread to go quiet (episode.service.ts).
    expect(jobs).toEqual(['episode', 'extract', 'focus', 'title']);
    // The prompt carried the context window as num_ctx and a system message first.
    const request = fake.requests.find((q) => q.path === '/api/chat')!.body as { options: { num_ctx: number }; messages: Array<{ role: string }> };
    expect(request.options.num_ctx).toBe(4096);
    expect(request.messages[0]!.role).toBe('system');
  });

  it('keeps thinking apart from the answer', async () => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    fake.script({ chunks: ['<think>The user greets', ' me.</think>', '\n\nHi!'] });
    const r = unwrap(await client.call('chat.send', { text: 'hello', model: 'qwen3:4b' }));
    expect(r.assistantMessage.content).toBe('Hi!');
    expect(r.assistantMessage.thinking).toBe('The user greets me.');
  });

  it('stores reasoning from a block the chat template opened (only a closing </think>) as thinking, not as the answer', async () => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    fake.script({ chunks: ['The user greets', ' me.</th', 'ink>', '\n\nHi!'] });
    const r = unwrap(await client.call('chat.send', { text: 'hello', model: 'qwen3:4b' }));
    expect(r.assistantMessage.content).toBe('Hi!');
    expect(r.assistantMessage.thinking).toBe('The user greets me.');
  });

  it('a stopped reply keeps what was streamed, marked stopped, and the thread goes on', async () => {
    const { core, client, fake } = await harness(tempDir, { core: { startQueue: false } });
    fake.script({ chunks: ['one ', 'two ', 'three ', 'four ', 'five '], delayMsPerChunk: 200 });
    const thread = unwrap(await client.call('thread.create', {}));
    const firstDelta = new Promise<void>((resolve) => {
      const off = core.subscribe((m) => {
        if (m.event === 'message.delta') {
          off();
          resolve();
        }
      });
    });
    const sending = client.call('chat.send', { threadId: thread.id, text: 'count to five slowly' });
    await firstDelta;
    expect(unwrap(await client.call('chat.stop', { threadId: thread.id }))).toEqual({ stopped: true });
    const r = unwrap(await sending);
    expect(r.assistantMessage.status).toBe('stopped');
    expect(r.assistantMessage.content.startsWith('one')).toBe(true);
    expect(r.assistantMessage.content).not.toContain('five');
    const again = unwrap(await client.call('chat.send', { threadId: thread.id, text: 'and now?' }));
    expect(again.assistantMessage.status).toBe('complete');
  });

  it.each([
    ['error-mid-stream', 'LLM_STREAM_ERROR'],
    ['malformed-line', 'LLM_STREAM_ERROR'],
    ['drop-connection', 'LLM_STREAM_ERROR'],
    ['http-500', 'LLM_HTTP_ERROR'],
    ['model-not-found', 'MODEL_NOT_FOUND'],
  ] as const)('fault %s: the user sees %s, the partial reply is kept as an error, history stays consistent', async (kind, code) => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    const thread = unwrap(await client.call('thread.create', {}));
    fake.script({ chunks: ['partial ', 'answer ', 'that ', 'breaks'] });
    fake.setFault({ kind, afterChunks: 2 } as never);
    const r = await client.call('chat.send', { threadId: thread.id, text: 'tell me something' });
    expect(r).toMatchObject({ ok: false, error: { code } });
    const msgs = unwrap(await client.call('thread.messages', { threadId: thread.id })).messages;
    expect(msgs.map((m) => [m.role, m.status, m.errorCode])).toEqual([
      ['user', 'complete', null],
      ['assistant', 'error', code],
    ]);
    // What arrived before the break is kept (a malformed line may spoil the chunk it came in, so only its prefix).
    if (kind === 'error-mid-stream' || kind === 'drop-connection') expect(msgs[1]!.content).toMatch(/^partial answer\s*$/);
    // No extraction for a failed reply, and the next exchange works and does not feed the broken reply back.
    expect(unwrap(await client.call('queue.list', { status: ['queued'] })).jobs.filter((j) => j.kind === 'extract')).toEqual([]);
    const ok = unwrap(await client.call('chat.send', { threadId: thread.id, text: 'try again' }));
    expect(ok.assistantMessage.status).toBe('complete');
    const prompt = fake.requests.filter((q) => q.path === '/api/chat').at(-1)!.body as { messages: Array<{ content: string }> };
    expect(prompt.messages.map((m) => m.content)).not.toContain('partial answer');
  });

  it('a model that takes too long to load: MODEL_LOAD_TIMEOUT after the configured time, history consistent, next reply fine', async () => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    unwrap(await client.call('settings.update', { patch: { modelLoadTimeoutSeconds: 1 } }));
    const thread = unwrap(await client.call('thread.create', {}));
    fake.setFault({ kind: 'slow-first-token', delayMs: 30_000 });
    const r = await client.call('chat.send', { threadId: thread.id, text: 'are you there?' });
    expect(r).toMatchObject({ ok: false, error: { code: 'MODEL_LOAD_TIMEOUT' } });
    const msgs = unwrap(await client.call('thread.messages', { threadId: thread.id })).messages;
    expect(msgs.map((m) => [m.role, m.status, m.errorCode, m.content])).toEqual([
      ['user', 'complete', null, 'are you there?'],
      ['assistant', 'error', 'MODEL_LOAD_TIMEOUT', ''],
    ]);
    const ok = unwrap(await client.call('chat.send', { threadId: thread.id, text: 'and now?' }));
    expect(ok.assistantMessage.status).toBe('complete');
  });

  it('retry answers the last question again, replacing the failed reply; a complete one is refused', async () => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    const t = unwrap(await client.call('thread.create', {}));
    fake.setFault({ kind: 'http-500' });
    expect(await client.call('chat.send', { threadId: t.id, text: 'what is 2+2?' })).toMatchObject({ ok: false });
    fake.script({ content: 'Four.' });
    const r = unwrap(await client.call('chat.retry', { threadId: t.id }));
    expect(r.assistantMessage).toMatchObject({ status: 'complete', content: 'Four.' });
    const msgs = unwrap(await client.call('thread.messages', { threadId: t.id })).messages;
    expect(msgs.map((m) => [m.role, m.content])).toEqual([
      ['user', 'what is 2+2?'],
      ['assistant', 'Four.'],
    ]);
    expect(await client.call('chat.retry', { threadId: t.id })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
  });

  it('a reply cut by the context length is stored as truncated', async () => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    fake.setFault({ kind: 'length-cut', afterChunks: 2 });
    const r = unwrap(await client.call('chat.send', { text: 'write a long essay about rivers' }));
    expect(r.assistantMessage.status).toBe('truncated');
    expect(r.assistantMessage.content.length).toBeGreaterThan(0);
  });

  it('a reply that loops is stopped early, marked REPEATING, and kept up to one copy; so is looping reasoning', async () => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    // Gemma 3 270M's loop from a walkthrough, long enough to hold the model for minutes on a CPU laptop.
    const loop = "I am a user of the user's computer. ";
    fake.script({ chunks: ['Sure! ', ...Array.from({ length: 400 }, () => loop)], delayMsPerChunk: 2 });
    const r = unwrap(await client.call('chat.send', { text: 'Tell me a long story' }));
    expect(r.assistantMessage).toMatchObject({ status: 'stopped', errorCode: 'REPEATING', content: `Sure! ${loop.trim()}` });
    // Stored so: the thread's next prompts carry one copy, not the loop.
    const page = unwrap(await client.call('thread.messages', { threadId: r.threadId }));
    expect(page.messages.at(-1)).toMatchObject({ status: 'stopped', errorCode: 'REPEATING', content: `Sure! ${loop.trim()}` });

    fake.script({ chunks: ['<think>', ...Array.from({ length: 400 }, () => 'Let me think again. Wait. '), '</think>Hi'], delayMsPerChunk: 2 });
    const t = unwrap(await client.call('chat.send', { threadId: r.threadId, text: 'hello', model: 'qwen3:4b' }));
    expect(t.assistantMessage).toMatchObject({ status: 'stopped', errorCode: 'REPEATING', thinking: 'Let me think again. Wait.' });
  });

  it('Ollama down: a clear error naming the host; recovers when it is back', async () => {
    const { client, fake } = await harness(tempDir, { core: { startQueue: false } });
    await fake.stop();
    const r = await client.call('chat.send', { text: 'are you there?' });
    expect(r).toMatchObject({ ok: false, error: { code: 'OLLAMA_UNREACHABLE' } });
    if (!r.ok) expect(r.error.message).toContain(fake.url);
    const overview = unwrap(await client.call('models.list', {}));
    // The harness names the fake through OLLAMA_HOST, so the user is told that is where the address comes from.
    expect(overview).toMatchObject({ reachable: false, host: fake.url, hostSource: 'environment', error: { code: 'OLLAMA_UNREACHABLE' } });
    await fake.restart();
    const ok = unwrap(await client.call('chat.send', { text: 'and now?' }));
    expect(ok.assistantMessage.status).toBe('complete');
  });

  it('two threads stream at once; stopping one does not stop the other', async () => {
    const { core, client, fake } = await harness(tempDir, { core: { startQueue: false } });
    fake.setDefaultReply({ chunks: ['a ', 'b ', 'c ', 'd ', 'e '], delayMsPerChunk: 150 });
    const t1 = unwrap(await client.call('thread.create', {}));
    const t2 = unwrap(await client.call('thread.create', {}));
    const started = new Set<number>();
    const bothStarted = new Promise<void>((resolve) =>
      core.subscribe((m) => {
        if (m.event === 'message.delta') started.add(m.payload.threadId);
        if (started.size === 2) resolve();
      }),
    );
    const a = client.call('chat.send', { threadId: t1.id, text: 'first' });
    const b = client.call('chat.send', { threadId: t2.id, text: 'second' });
    await bothStarted;
    unwrap(await client.call('chat.stop', { threadId: t1.id }));
    expect(unwrap(await a).assistantMessage.status).toBe('stopped');
    const second = unwrap(await b).assistantMessage;
    expect(second, JSON.stringify(second)).toMatchObject({ status: 'complete', content: 'a b c d e' });
  });

  it('a second message while a reply streams in the same thread is refused with CONFLICT', async () => {
    const { core, client, fake } = await harness(tempDir, { core: { startQueue: false } });
    fake.script({ chunks: ['x ', 'y ', 'z '], delayMsPerChunk: 150 });
    const t = unwrap(await client.call('thread.create', {}));
    const first = new Promise<void>((resolve) => core.subscribe((m) => m.event === 'message.delta' && resolve()));
    const a = client.call('chat.send', { threadId: t.id, text: 'one' });
    await first;
    expect(await client.call('chat.send', { threadId: t.id, text: 'two' })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    unwrap(await a);
  });

  it('incognito threads enqueue no extraction and never ask memory', async () => {
    const { client } = await harness(tempDir, { core: { startQueue: false } });
    const r = unwrap(await client.call('chat.send', { text: 'My bank PIN is not something to remember, right?', incognito: true }));
    expect(unwrap(await client.call('thread.get', { threadId: r.threadId })).incognito).toBe(true);
    const kinds = unwrap(await client.call('queue.list', {})).jobs.map((j) => j.kind);
    expect(kinds).not.toContain('extract');
  });

  it('the background title job names the thread, never over a user title', async () => {
    const { core, client, fake } = await harness(tempDir);
    fake.setDefaultReply((req) => (req.purpose === 'title' ? { content: '"Planning a trip to Lisbon."' } : { content: 'Sure, let us plan it.' }));
    const r = unwrap(await client.call('chat.send', { text: 'Help me plan a trip to Lisbon in May' }));
    await core.queue.waitForIdle();
    expect(unwrap(await client.call('thread.get', { threadId: r.threadId })).title).toBe('Planning a trip to Lisbon');

    const t2 = unwrap(await client.call('thread.create', { title: 'Mine' }));
    unwrap(await client.call('chat.send', { threadId: t2.id, text: 'Another long question about trips' }));
    await core.queue.waitForIdle();
    expect(unwrap(await client.call('thread.get', { threadId: t2.id })).title).toBe('Mine');
  });

  it('search finds messages by a Chinese two-character word and by English words', async () => {
    const { client } = await harness(tempDir, { core: { startQueue: false } });
    unwrap(await client.call('chat.send', { text: '我每天早上都喝咖啡，你呢？' }));
    unwrap(await client.call('chat.send', { text: 'I am learning Rust this month' }));
    const zh = unwrap(await client.call('thread.search', { query: '咖啡' })).hits;
    expect(zh.map((h) => h.message.content)).toContain('我每天早上都喝咖啡，你呢？');
    const en = unwrap(await client.call('thread.search', { query: 'rust' })).hits;
    expect(en.some((h) => h.message.content === 'I am learning Rust this month')).toBe(true);
    expect(unwrap(await client.call('thread.search', { query: '火车' })).hits).toEqual([]);
  });
});
