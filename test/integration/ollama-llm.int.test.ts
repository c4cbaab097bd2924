import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import type { ChatChunk, ChatRequest, LlmPort } from '../../electron/core/llm/llm.port';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';
import { failure } from '../support/failure';

// Small budgets everywhere: no test may wait long for anything, and none asserts how long something took.
const FAST = { firstChunkTimeoutMs: 2_000, idleTimeoutMs: 2_000 } as const;

let fake: FakeOllama;
let llm: LlmPort;

beforeAll(async () => {
  fake = await startFakeOllama({ contextLength: 8192, embedDim: 12 });
  llm = createOllamaLlm({ host: fake.url, metadataTimeoutMs: 2_000 });
});

afterEach(async () => {
  fake.setFault(null);
  fake.setDefaultReply(null);
  await fake.restart();
});

afterAll(async () => {
  await fake.close();
});

function ask(text: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'llama3.2', messages: [{ role: 'user', content: text }], ...FAST, ...extra };
}

describe('chat', () => {
  it('streams the reply in order and resolves with the whole of it', async () => {
    fake.script({ chunks: ['The ', 'sky ', 'is ', 'blue.'], promptTokens: 26, evalTokens: 4 });
    const chunks: ChatChunk[] = [];

    const res = await llm.chat(ask('why is the sky blue?', { onChunk: (c) => chunks.push(c) }));

    expect(chunks.map((c) => c.content)).toEqual(['The ', 'sky ', 'is ', 'blue.']);
    expect(res).toMatchObject({
      content: 'The sky is blue.',
      thinking: '',
      doneReason: 'stop',
      model: 'llama3.2',
      promptTokens: 26,
      completionTokens: 4,
    });
    // The fake reports eval_duration = 20 ms per token, in nanoseconds.
    expect(res.evalDurationMs).toBe(80);
    expect(res.loadDurationMs).toBe(200);
  });

  it('sends the model, messages, format and options the caller gave', async () => {
    await llm.chat(ask('hello', { format: 'json', options: { temperature: 0, num_ctx: 2048 } }));

    const sent = fake.requests.filter((r) => r.path === '/api/chat').at(-1)?.body;
    expect(sent).toMatchObject({
      model: 'llama3.2',
      messages: [{ role: 'user', content: 'hello' }],
      stream: true,
      format: 'json',
      options: { temperature: 0, num_ctx: 2048 },
    });
  });

  it('says what the request is for in a header, never in the body; a request that names nothing sends no header', async () => {
    await llm.chat(ask('name this thread', { purpose: 'title' }));
    const named = fake.requests.filter((r) => r.path === '/api/chat').at(-1)!;
    expect(named.headers['x-mnemo-purpose']).toBe('title');
    expect(Object.keys(named.body as object)).toEqual(['model', 'messages', 'stream']);

    await llm.chat(ask('hello'));
    expect(fake.requests.filter((r) => r.path === '/api/chat').at(-1)!.headers).not.toHaveProperty('x-mnemo-purpose');
  });

  it('resolves without onChunk too (the default reply echoes the user)', async () => {
    const res = await llm.chat(ask('ping'));
    expect(res.content).toBe('You said: ping');
  });

  it('keeps Ollama thinking (message.thinking) out of the answer', async () => {
    fake.script({ thinking: 'The user greets me.', content: 'Hello!' });
    const chunks: ChatChunk[] = [];

    const res = await llm.chat(ask('hi', { model: 'qwen3:4b', onChunk: (c) => chunks.push(c) }));

    expect(res.content).toBe('Hello!');
    expect(res.thinking).toBe('The user greets me.');
    expect(chunks.every((c) => !(c.content && c.thinking))).toBe(true);
  });

  it('separates inline <think> blocks even when tags are cut across chunks', async () => {
    fake.script({ chunks: ['<thi', 'nk>Let me ', 'see.</th', 'ink>', '\n\nIt is ', '4.'] });
    const chunks: ChatChunk[] = [];

    const res = await llm.chat(ask('2+2?', { onChunk: (c) => chunks.push(c) }));

    expect(res.content).toBe('\n\nIt is 4.');
    expect(res.thinking).toBe('Let me see.');
    expect(chunks.map((c) => c.content).join('')).toBe(res.content);
    expect(chunks.some((c) => c.content.includes('<') || c.content.includes('think'))).toBe(false);
  });

  it('reads what came before a first closing </think> as thinking: streamed as answer, but thinking in the result', async () => {
    fake.script({ chunks: ['The user greets', ' me.</th', 'ink>', '\n\nHello!'] });
    const chunks: ChatChunk[] = [];

    const res = await llm.chat(ask('hi', { onChunk: (c) => chunks.push(c) }));

    expect(res).toMatchObject({ content: '\n\nHello!', thinking: 'The user greets me.' });
    // A stream cannot take back what it showed; the result (what callers store) follows the think rule whole.
    expect(chunks.map((c) => c.content).join('')).toBe('The user greets me.\n\nHello!');
  });

  it('aborting one of two concurrent streams does not stop the other', async () => {
    const longB = Array.from({ length: 20 }, (_, i) => `b${i}`).join(' ');
    fake.setDefaultReply((req) =>
      req.messages.at(-1)?.content === 'alpha'
        ? // A stalls after its first chunk, so it is surely mid-reply when stopped.
          { content: 'alpha one two three', delayMsPerChunk: 30_000 }
        : { content: longB, delayMsPerChunk: 15 },
    );
    const stopA = new AbortController();
    let chunksA = 0;
    const chunksB: string[] = [];
    let chunksBWhenAStopped = -1;
    // Stop A once both are streaming, so B is mid-reply when it happens.
    const stopAWhenBothStream = () => {
      if (chunksA > 0 && chunksB.length > 0 && !stopA.signal.aborted) {
        chunksBWhenAStopped = chunksB.length;
        stopA.abort();
      }
    };

    const a = llm.chat(ask('alpha', { signal: stopA.signal, onChunk: () => (chunksA++, stopAWhenBothStream()) }));
    const b = llm.chat(ask('beta', { onChunk: (c) => (chunksB.push(c.content), stopAWhenBothStream()) }));
    const [resA, resB] = await Promise.all([a, b]);

    expect(resA).toMatchObject({ content: 'alpha ', doneReason: 'aborted' });
    expect(resB).toMatchObject({ content: longB, doneReason: 'stop' });
    expect(chunksBWhenAStopped).toBeGreaterThan(0);
    expect(chunksB.length).toBeGreaterThan(chunksBWhenAStopped);
  });

  it('rejects with ABORTED when stopped before any output', async () => {
    const already = new AbortController();
    already.abort();
    expect((await failure(llm.chat(ask('x', { signal: already.signal })))).code).toBe('ABORTED');

    fake.setFault({ kind: 'slow-first-token', delayMs: 30_000 });
    const stop = new AbortController();
    const arrived = fake.nextRequest('/api/chat');
    const pending = llm.chat(ask('x', { signal: stop.signal }));
    await arrived;
    stop.abort();
    expect((await failure(pending)).code).toBe('ABORTED');
  });

  it('rejects with ABORTED mid-stream when the caller was not streaming (no onChunk)', async () => {
    fake.script({ content: 'one two three', delayMsPerChunk: 30_000 });
    const stop = new AbortController();
    const arrived = fake.nextRequest('/api/chat');
    const pending = llm.chat(ask('x', { signal: stop.signal, idleTimeoutMs: 60_000 }));
    await arrived;
    stop.abort();
    expect((await failure(pending)).code).toBe('ABORTED');
  });

  it('gives MODEL_LOAD_TIMEOUT when the first chunk is too slow', async () => {
    fake.setFault({ kind: 'slow-first-token', delayMs: 30_000 });

    const err = await failure(llm.chat(ask('x', { firstChunkTimeoutMs: 100 })));

    expect(err.code).toBe('MODEL_LOAD_TIMEOUT');
    expect(err.message).toContain('llama3.2');
  });

  it('gives LLM_STREAM_ERROR when chunks stop coming', async () => {
    fake.script({ content: 'one two three', delayMsPerChunk: 30_000 });
    const chunks: string[] = [];

    const err = await failure(llm.chat(ask('x', { idleTimeoutMs: 100, onChunk: (c) => chunks.push(c.content) })));

    expect(err.code).toBe('LLM_STREAM_ERROR');
    expect(chunks).toEqual(['one ']);
  });

  it('gives LLM_STREAM_ERROR on an error line mid-stream, after delivering what came before', async () => {
    fake.setFault({ kind: 'error-mid-stream', afterChunks: 2, message: 'out of memory' });
    const chunks: string[] = [];

    const err = await failure(llm.chat(ask('a b c d', { onChunk: (c) => chunks.push(c.content) })));

    expect(err.code).toBe('LLM_STREAM_ERROR');
    expect(err.message).toContain('out of memory');
    expect(chunks).toEqual(['You ', 'said: ']);
  });

  it('gives MODEL_NOT_FOUND for a model Ollama does not have', async () => {
    const err = await failure(llm.chat(ask('x', { model: 'mistral:7b' })));

    expect(err.code).toBe('MODEL_NOT_FOUND');
    expect(err.details).toEqual({ model: 'mistral:7b' });
    expect(err.message).toContain('ollama pull mistral:7b');
  });

  it('gives MODEL_NOT_FOUND on a 404 fault', async () => {
    fake.setFault({ kind: 'model-not-found' });
    expect((await failure(llm.chat(ask('x')))).code).toBe('MODEL_NOT_FOUND');
  });

  it('gives LLM_HTTP_ERROR with the status on a 500', async () => {
    fake.setFault({ kind: 'http-500', message: 'llama runner process has terminated' });

    const err = await failure(llm.chat(ask('x')));

    expect(err.code).toBe('LLM_HTTP_ERROR');
    expect(err.details).toEqual({ status: 500 });
    expect(err.message).toContain('llama runner process has terminated');
  });

  it('gives LLM_STREAM_ERROR on a malformed NDJSON line, not said as a dropped connection', async () => {
    fake.setFault({ kind: 'malformed-line', afterChunks: 1 });
    const err = await failure(llm.chat(ask('a b c')));
    expect(err.code).toBe('LLM_STREAM_ERROR');
    expect(err.details).toEqual({ model: 'llama3.2' });
    expect(err.message).toMatch(/^The reply from Ollama broke off/);
  });

  it('gives LLM_STREAM_ERROR when the connection drops mid-stream', async () => {
    fake.setFault({ kind: 'drop-connection', afterChunks: 2 });
    const chunks: string[] = [];

    const err = await failure(llm.chat(ask('a b c', { onChunk: (c) => chunks.push(c.content) })));

    expect(err.code).toBe('LLM_STREAM_ERROR');
    expect(err.details).toEqual({ model: 'llama3.2', dropped: true });
    expect(err.message).toMatch(/^Ollama closed the connection while answering; it may have stopped/);
    expect(chunks).toEqual(['You ', 'said: ']);
  });

  it("resolves normally with doneReason 'length' when the context cuts the reply", async () => {
    fake.setFault({ kind: 'length-cut', afterChunks: 2 });

    const res = await llm.chat(ask('a b c d'));

    expect(res).toMatchObject({ content: 'You said: ', doneReason: 'length' });
  });

  it('faults are one-shot unless sticky', async () => {
    fake.setFault({ kind: 'http-500' });
    await failure(llm.chat(ask('x')));
    expect((await llm.chat(ask('y'))).content).toBe('You said: y');

    fake.setFault({ kind: 'http-500', sticky: true });
    await failure(llm.chat(ask('x')));
    await failure(llm.chat(ask('x')));
  });
});

describe('when Ollama is down', () => {
  it('gives OLLAMA_UNREACHABLE naming the host, and works again once it is back', async () => {
    await fake.stop();

    const err = await failure(llm.chat(ask('x')));
    expect(err.code).toBe('OLLAMA_UNREACHABLE');
    expect(err.message).toContain(fake.url);
    expect(err.message).toContain('ollama serve');
    expect(err.details).toEqual({ host: fake.url });
    expect((await failure(llm.version())).code).toBe('OLLAMA_UNREACHABLE');
    expect((await failure(llm.embed('nomic-embed-text', ['x']))).code).toBe('OLLAMA_UNREACHABLE');

    await fake.restart();
    expect((await llm.chat(ask('back?'))).content).toBe('You said: back?');
  });

  it('gives OLLAMA_UNREACHABLE for a name that does not resolve', async () => {
    // Offline machines may have no DNS server to say no quickly; the metadata budget keeps this short either way.
    const nowhere = createOllamaLlm({ host: 'http://nonexistent-host.invalid:11434', metadataTimeoutMs: 1_000 });
    const err = await failure(nowhere.listModels());
    expect(err.code).toBe('OLLAMA_UNREACHABLE');
    expect(err.details).toEqual({ host: 'http://nonexistent-host.invalid:11434' });
  });
});

describe('models', () => {
  it('reads the version', async () => {
    expect(await llm.version()).toBe('0.12.6');
  });

  it('lists the installed models', async () => {
    const models = await llm.listModels();
    expect(models.map((m) => m.name)).toContain('llama3.2:latest');
    expect(models.find((m) => m.name === 'llama3.2:latest')).toMatchObject({
      family: 'llama',
      parameterSize: '3.2B',
      modifiedAt: '2025-01-01T00:00:00Z',
    });
  });

  it('shows context length and capabilities', async () => {
    expect(await llm.showModel('qwen3:4b')).toEqual({
      name: 'qwen3:4b',
      contextLength: 8192,
      capabilities: ['completion', 'tools', 'thinking'],
    });
    expect((await failure(llm.showModel('nope'))).code).toBe('MODEL_NOT_FOUND');
  });

  it('reports pull progress up to success, then the model is installed', async () => {
    const progress: { status: string; percent: number | null }[] = [];

    await llm.pull('gemma3:1b', (p) => progress.push({ status: p.status, percent: p.percent }));

    expect(progress[0]).toEqual({ status: 'pulling manifest', percent: null });
    expect(progress.at(-1)).toEqual({ status: 'success', percent: null });
    const percents = progress.filter((p) => p.status.startsWith('pulling ') && p.percent !== null).map((p) => p.percent);
    expect(percents).toContain(50);
    expect(percents).toContain(100);
    expect((await llm.listModels()).map((m) => m.name)).toContain('gemma3:1b');
  });

  it('gives LLM_STREAM_ERROR when a pull breaks off', async () => {
    fake.setFault({ kind: 'error-mid-stream', afterChunks: 3, message: 'max retries exceeded', paths: ['/api/pull'] });
    expect((await failure(llm.pull('phi4', () => {}))).code).toBe('LLM_STREAM_ERROR');
    expect((await llm.listModels()).map((m) => m.name)).not.toContain('phi4:latest');
  });

  it('honours the caller signal on metadata calls', async () => {
    const stop = new AbortController();
    stop.abort();
    expect((await failure(llm.listModels(stop.signal))).code).toBe('ABORTED');
  });

  it('gives OLLAMA_UNREACHABLE when a metadata call gets no answer in time', async () => {
    fake.setFault({ kind: 'slow-first-token', delayMs: 30_000, paths: ['/api/show'] });
    const impatient = createOllamaLlm({ host: fake.url, metadataTimeoutMs: 100 });

    const err = await failure(impatient.showModel('llama3.2'));

    expect(err.code).toBe('OLLAMA_UNREACHABLE');
    expect(err.details).toEqual({ host: fake.url });
  });
});

describe('embed', () => {
  it('returns one deterministic unit vector per text, in order', async () => {
    const [a, b, a2] = await llm.embed('nomic-embed-text', ['apples', 'pears', 'apples']);

    expect(a).toHaveLength(12);
    expect(a).toEqual(a2);
    expect(a).not.toEqual(b);
    for (const v of [a!, b!]) expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(fake.requests.filter((r) => r.path === '/api/embed').at(-1)?.body).toMatchObject({
      model: 'nomic-embed-text',
      input: ['apples', 'pears', 'apples'],
    });
  });

  it('stops a slow embed when the caller aborts (the client itself takes no signal here)', async () => {
    fake.setFault({ kind: 'slow-first-token', delayMs: 30_000, paths: ['/api/embed'] });
    const stop = new AbortController();
    const arrived = fake.nextRequest('/api/embed');

    const pending = llm.embed('nomic-embed-text', ['x'], stop.signal);
    await arrived;
    stop.abort();

    expect((await failure(pending)).code).toBe('ABORTED');
  });

  it('gives MODEL_NOT_FOUND for a missing embedding model', async () => {
    expect((await failure(llm.embed('bge-m3', ['x']))).code).toBe('MODEL_NOT_FOUND');
  });
});

describe('the fake speaks the wire protocol', () => {
  it('answers / and HEAD / like Ollama', async () => {
    const get = await fetch(`${fake.url}/`);
    expect(await get.text()).toBe('Ollama is running');
    expect((await fetch(`${fake.url}/`, { method: 'HEAD' })).status).toBe(200);
  });

  it('streams NDJSON from /api/generate and answers stream:false with one object', async () => {
    const streamed = await fetch(`${fake.url}/api/generate`, {
      method: 'POST',
      body: JSON.stringify({ model: 'llama3.2', prompt: 'hi there' }),
    });
    expect(streamed.headers.get('content-type')).toBe('application/x-ndjson');
    const lines = (await streamed.text()).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.map((l) => l.response).join('')).toBe('You said: hi there');
    expect(lines.at(-1)).toMatchObject({ done: true, done_reason: 'stop', eval_count: 4 });

    const whole = await fetch(`${fake.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'llama3.2', messages: [{ role: 'user', content: 'yo' }], stream: false }),
    });
    expect(await whole.json()).toMatchObject({
      message: { role: 'assistant', content: 'You said: yo' },
      done: true,
      done_reason: 'stop',
    });
  });

  it('accepts embed input as a single string', async () => {
    const res = await fetch(`${fake.url}/api/embed`, {
      method: 'POST',
      body: JSON.stringify({ model: 'nomic-embed-text', input: 'one' }),
    });
    const body = (await res.json()) as { embeddings: number[][] };
    expect(body.embeddings).toHaveLength(1);
  });
});
