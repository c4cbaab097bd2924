import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiLlm } from '../../electron/core/llm/openai.llm';
import type { ChatChunk, ChatRequest, LlmPort } from '../../electron/core/llm/llm.port';
import { startFakeOpenAi, type FakeOpenAi } from '../fakes/fake-openai';
import { failure } from '../support/failure';

// Small budgets everywhere: no test may wait long for anything, and none asserts how long something took.
const FAST = { firstChunkTimeoutMs: 2_000, idleTimeoutMs: 2_000 } as const;
const MODEL = 'llama-3.2-3b-instruct';
const SCHEMA = { type: 'object', properties: { memories: { type: 'array' } }, required: ['memories'] };

let fake: FakeOpenAi;
let llm: LlmPort;

beforeAll(async () => {
  fake = await startFakeOpenAi({ dialect: 'llama.cpp', embedDim: 12 });
  llm = createOpenAiLlm({ baseUrl: fake.baseUrl, metadataTimeoutMs: 2_000 });
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
  return { model: MODEL, messages: [{ role: 'user', content: text }], ...FAST, ...extra };
}

const chatRequests = () => fake.requests.filter((r) => r.path === '/v1/chat/completions');

describe('chat', () => {
  it('streams the reply in order over SSE and resolves with the whole of it and its usage', async () => {
    fake.script({ chunks: ['The ', 'sky ', 'is ', 'blue.'], promptTokens: 26, completionTokens: 4 });
    const chunks: ChatChunk[] = [];

    const res = await llm.chat(ask('why is the sky blue?', { onChunk: (c) => chunks.push(c) }));

    expect(chunks.map((c) => c.content)).toEqual(['The ', 'sky ', 'is ', 'blue.']);
    expect(res).toMatchObject({ content: 'The sky is blue.', thinking: '', doneReason: 'stop', model: MODEL, promptTokens: 26, completionTokens: 4 });
    expect(chatRequests().at(-1)?.body).toMatchObject({ model: MODEL, stream: true, stream_options: { include_usage: true } });
  });

  it('keeps reasoning_content and inline <think> out of the answer', async () => {
    fake.script({ reasoning: 'The user greets me.', chunks: ['<think>and ', 'waits</think>', 'Hello!'] });
    const res = await llm.chat(ask('hi'));
    expect(res.content).toBe('Hello!');
    expect(res.thinking).toBe('The user greets me.and waits');
  });

  it("resolves with doneReason 'length' when the server cut the reply", async () => {
    fake.setFault({ kind: 'length-cut', afterChunks: 2 });
    fake.script({ chunks: ['one ', 'two ', 'three ', 'four'] });
    const res = await llm.chat(ask('count'));
    expect(res).toMatchObject({ content: 'one two ', doneReason: 'length' });
  });

  it('keeps what was shown when the caller stops a streamed reply, and is ABORTED when nothing was shown', async () => {
    fake.script({ chunks: ['one ', 'two ', 'three ', 'four ', 'five'], delayMsPerChunk: 300 });
    const controller = new AbortController();
    const res = await llm.chat(
      ask('count slowly', {
        signal: controller.signal,
        onChunk: (c) => {
          if (c.content === 'two ') controller.abort();
        },
      }),
    );
    expect(res).toMatchObject({ content: 'one two ', doneReason: 'aborted' });

    fake.setFault({ kind: 'slow-first-chunk', delayMs: 1_000 });
    const early = new AbortController();
    const pending = llm.chat(ask('wait', { signal: early.signal, onChunk: () => undefined }));
    await fake.nextRequest('/v1/chat/completions');
    early.abort();
    expect((await failure(pending)).code).toBe('ABORTED');
  });

  it('gives MODEL_LOAD_TIMEOUT when the first chunk is too slow, LLM_STREAM_ERROR when chunks stop coming', async () => {
    fake.setFault({ kind: 'slow-first-chunk', delayMs: 1_500 });
    const slow = await failure(llm.chat(ask('hello', { firstChunkTimeoutMs: 200 })));
    expect(slow.code).toBe('MODEL_LOAD_TIMEOUT');
    expect(slow.message).toContain(`Model "${MODEL}" did not start answering`);

    fake.script({ chunks: ['a ', 'b ', 'c'], delayMsPerChunk: 1_500 });
    const idle = await failure(llm.chat(ask('hello', { idleTimeoutMs: 200 })));
    expect(idle.code).toBe('LLM_STREAM_ERROR');
    expect(idle.message).toContain('The model server stopped sending the reply');
  });

  it('gives LLM_STREAM_ERROR on an error event mid-stream and on a dropped connection, after what came before', async () => {
    fake.setFault({ kind: 'error-mid-stream', afterChunks: 2, message: 'CUDA out of memory' });
    const chunks: string[] = [];
    const crashed = await failure(llm.chat(ask('hello there friend', { onChunk: (c) => chunks.push(c.content) })));
    expect(crashed.code).toBe('LLM_STREAM_ERROR');
    expect(crashed.message).toContain('CUDA out of memory');
    expect(crashed.details).not.toHaveProperty('dropped');
    expect(chunks.join('')).toBe('You ');

    fake.setFault({ kind: 'drop-connection', afterChunks: 2 });
    const dropped = await failure(llm.chat(ask('hello there friend')));
    expect(dropped.code).toBe('LLM_STREAM_ERROR');
    expect(dropped.details).toMatchObject({ dropped: true });
    expect(dropped.message).toMatch(/^The model server closed the connection while answering; it may have stopped/);
  });

  it('gives MODEL_NOT_FOUND for a model the server does not have', async () => {
    const err = await failure(llm.chat({ ...ask('hi'), model: 'no-such-model' }));
    expect(err).toMatchObject({ code: 'MODEL_NOT_FOUND', details: { model: 'no-such-model' } });
    expect(err.message).toContain(`at ${fake.baseUrl}`);
  });

  it('says what the request is for in a header, never in the body, also when it asks again without response_format', async () => {
    fake.setFault({ kind: 'reject-response-format' });
    await createOpenAiLlm({ baseUrl: fake.baseUrl }).chat(ask('remember this', { purpose: 'extract', format: SCHEMA }));
    const [refused, again] = chatRequests().slice(-2);
    expect([refused!.headers['x-mnemo-purpose'], again!.headers['x-mnemo-purpose']]).toEqual(['extract', 'extract']);
    expect(again!.body).not.toHaveProperty('purpose');
  });

  it('sends a JSON schema as response_format; a server that refuses it is asked again in plain JSON, and not asked with it again', async () => {
    const refusing = createOpenAiLlm({ baseUrl: fake.baseUrl });
    fake.script({ content: '{"memories": []}' });
    await refusing.chat(ask('remember this', { format: SCHEMA }));
    expect(chatRequests().at(-1)?.body).toMatchObject({ response_format: { type: 'json_schema', json_schema: { schema: SCHEMA } } });

    fake.setFault({ kind: 'reject-response-format', sticky: true });
    fake.script({ content: '{"memories": []}' }, { content: '{"memories": [1]}' });
    const before = chatRequests().length;
    const first = await refusing.chat(ask('remember this', { format: SCHEMA }));
    const second = await refusing.chat(ask('and this', { format: SCHEMA }));

    expect([first.content, second.content]).toEqual(['{"memories": []}', '{"memories": [1]}']);
    const sent = chatRequests().slice(before).map((r) => (r.body as { response_format?: unknown }).response_format !== undefined);
    // Refused once, asked again without it; the next request goes without it at once.
    expect(sent).toEqual([true, false, false]);
  });

  it('says which context length to set when the prompt does not fit the loaded context', async () => {
    fake.setFault({ kind: 'context-exceeded', nCtx: 4096 });
    const err = await failure(llm.chat(ask('a long prompt')));
    expect(err).toMatchObject({ code: 'LLM_HTTP_ERROR', details: { status: 400, contextLength: 4096 } });
  });
});

describe('when the server is down', () => {
  it('gives LLM_UNREACHABLE naming the base URL, and works again once it is back', async () => {
    await fake.stop();
    const err = await failure(llm.chat(ask('hi')));
    expect(err).toMatchObject({ code: 'LLM_UNREACHABLE', details: { host: fake.baseUrl } });
    expect(err.message).toBe(
      `Cannot reach the model server at ${fake.baseUrl}. Start it (LM Studio: Developer > Start Server, or "lms server start"; llama.cpp: llama-server --port 8080), or correct the server address in Settings.`,
    );
    expect((await failure(llm.listModels())).code).toBe('LLM_UNREACHABLE');
    await fake.restart();
    expect((await llm.chat(ask('back?'))).content).toBe('You said: back?');
  });
});

describe('redirects', () => {
  it('are not followed: a server that points elsewhere gets an HTTP error, and the other address nothing', async () => {
    const redirecting = createServer((_req, res) => {
      res.writeHead(307, { Location: `${fake.baseUrl}/chat/completions` });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const before = fake.requests.length;
      const port = createOpenAiLlm({ baseUrl: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/v1` });
      const err = await failure(port.chat(ask('hi')));
      expect(err).toMatchObject({ code: 'LLM_HTTP_ERROR', details: { status: 307 } });
      expect(fake.requests.length).toBe(before);
    } finally {
      await new Promise((resolve) => redirecting.close(resolve));
    }
  });
});

describe('API key', () => {
  it('goes out as a Bearer token read for each request; a refused one is UNAUTHORIZED without the key in the message', async () => {
    const locked = await startFakeOpenAi({ apiKey: 'sk-right' });
    try {
      let key: string | null = 'sk-wrong-7c1';
      const port = createOpenAiLlm({ baseUrl: locked.baseUrl, apiKey: () => key });
      const err = await failure(port.chat(ask('hi')));
      expect(err.code).toBe('UNAUTHORIZED');
      expect(err.message).toContain(`The model server at ${locked.baseUrl} refused the request (HTTP 401`);
      expect(err.message).not.toContain('sk-wrong-7c1');
      key = 'sk-right';
      expect((await port.chat(ask('hi'))).content).toBe('You said: hi');
      expect(locked.requests.at(-1)?.headers.authorization).toBe('Bearer sk-right');
    } finally {
      await locked.close();
    }
  });
});

describe('models', () => {
  it('lists /v1/models, and shows a model with the context llama-server reports', async () => {
    fake.setModels([{ id: MODEL, contextLength: 131072, params: 3.2e9 }, { id: 'text-embedding-nomic-embed-text-v1.5', type: 'embeddings', params: 137e6 }]);
    expect((await llm.listModels()).map((m) => [m.name, m.parameterSize])).toEqual([
      [MODEL, '3.2B'],
      ['text-embedding-nomic-embed-text-v1.5', '137M'],
    ]);
    expect(await llm.showModel(MODEL)).toEqual({ name: MODEL, contextLength: 131072, capabilities: [] });
    const missing = await failure(llm.showModel('qwen3:4b'));
    expect(missing.code).toBe('MODEL_NOT_FOUND');
    expect(missing.message).toContain(`it offers ${MODEL}, text-embedding-nomic-embed-text-v1.5`);
  });

  it("asks LM Studio's own API for the loaded context and the model type when /v1/models says nothing", async () => {
    const lmStudio = await startFakeOpenAi({
      dialect: 'lmstudio',
      models: [
        { id: 'qwen2.5-7b-instruct', contextLength: 32768, loadedContextLength: 4096 },
        { id: 'text-embedding-bge-m3', type: 'embeddings', contextLength: 8192 },
      ],
    });
    try {
      const port = createOpenAiLlm({ baseUrl: lmStudio.baseUrl });
      expect(await port.showModel('qwen2.5-7b-instruct')).toEqual({ name: 'qwen2.5-7b-instruct', contextLength: 4096, capabilities: ['completion'] });
      expect(await port.showModel('text-embedding-bge-m3')).toEqual({ name: 'text-embedding-bge-m3', contextLength: 8192, capabilities: ['embedding'] });
      // A plain server has no such API: the model is shown without a context, not refused.
      expect(await llm.showModel(MODEL)).toMatchObject({ name: MODEL });
    } finally {
      await lmStudio.close();
    }
  });

  it('refuses to pull: models are downloaded in the server itself', async () => {
    const err = await failure(llm.pull('qwen3:4b', () => undefined));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toContain('Mnemo downloads models only from Ollama');
  });
});

describe('embed', () => {
  it('returns one deterministic vector per text, in order, from /v1/embeddings', async () => {
    const a = await llm.embed('text-embedding-nomic-embed-text-v1.5', ['alpha', 'beta', 'alpha']);
    expect(a).toHaveLength(3);
    expect(a[0]).toHaveLength(12);
    expect(a[0]).toEqual(a[2]);
    expect(a[0]).not.toEqual(a[1]);
    expect((await failure(llm.embed('nope', ['x']))).code).toBe('MODEL_NOT_FOUND');
  });
});
