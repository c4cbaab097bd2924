/**
 * The OpenAI-compatible adapter's mapping, with the HTTP answers given byte for byte through `fetch` (the process
 * edge): what a request carries, how a streamed answer cut anywhere is read, how each server's error body maps to a
 * typed failure. test/integration/openai-llm.int.test.ts runs the same adapter against a real fake server.
 */
import { describe, expect, it } from 'vitest';
import { createOpenAiLlm } from '../../electron/core/llm/openai.llm';
import type { ChatChunk, ChatRequest } from '../../electron/core/llm/llm.port';
import { failure } from '../support/failure';

const BASE = 'http://127.0.0.1:1234/v1';
const encoder = new TextEncoder();

interface Sent {
  url: string;
  init: RequestInit;
  body: Record<string, unknown> | undefined;
}

/** A fetch that records what it was asked and answers with the next response built by `answers`. */
function fetchAnswering(...answers: Array<() => Response>): { fetch: typeof fetch; sent: Sent[] } {
  const sent: Sent[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    sent.push({ url: String(input), init: init ?? {}, body });
    const answer = answers.shift();
    if (!answer) throw new Error('no answer scripted');
    return answer();
  }) as typeof globalThis.fetch;
  return { fetch, sent };
}

/** An SSE body delivered in exactly these byte pieces. */
function sse(pieces: Uint8Array[]): Response {
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
  return new Response(stream, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
}

/** The bytes of `text` cut at the given offsets. */
function cut(text: string, offsets: number[]): Uint8Array[] {
  const bytes = encoder.encode(text);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const at of [...offsets, bytes.length]) {
    pieces.push(bytes.slice(from, at));
    from = at;
  }
  return pieces;
}

const events = (...chunks: object[]) => `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) => ({ object: 'chat.completion.chunk', model: 'qwen', choices: [{ index: 0, delta: d, finish_reason: finish }] });
const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function ask(extra: Partial<ChatRequest> = {}): ChatRequest {
  return { model: 'qwen', messages: [{ role: 'user', content: 'hi' }], firstChunkTimeoutMs: 5_000, idleTimeoutMs: 5_000, ...extra };
}

describe('the request', () => {
  it('carries the messages, streaming with usage, the options OpenAI names, and a JSON schema as response_format', async () => {
    const { fetch, sent } = fetchAnswering(() => sse([encoder.encode(events(delta({ content: '{}' }, 'stop')))]));
    const llm = createOpenAiLlm({ baseUrl: `${BASE}/`, fetch, apiKey: () => 'sk-local-123' });
    const schema = { type: 'object', properties: { memories: { type: 'array' } }, required: ['memories'] };

    await llm.chat(ask({ format: schema, options: { num_ctx: 8192, num_predict: 300, temperature: 0, seed: 7 }, think: false }));

    expect(sent[0]!.url).toBe(`${BASE}/chat/completions`);
    expect(sent[0]!.body).toEqual({
      model: 'qwen',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 300,
      temperature: 0,
      seed: 7,
      response_format: { type: 'json_schema', json_schema: { name: 'mnemo_answer', schema, strict: true } },
    });
    // Ollama's num_ctx and think have no OpenAI equivalent and are not sent.
    expect(new Headers(sent[0]!.init.headers).get('authorization')).toBe('Bearer sk-local-123');
    // A redirect would take the conversation to an address nobody typed.
    expect(sent[0]!.init.redirect).toBe('manual');
  });

  it("asks for any JSON object with format 'json', and sends no Authorization header without a key", async () => {
    const { fetch, sent } = fetchAnswering(() => sse([encoder.encode(events(delta({ content: '{}' }, 'stop')))]));
    await createOpenAiLlm({ baseUrl: BASE, fetch }).chat(ask({ format: 'json' }));
    expect(sent[0]!.body?.response_format).toEqual({ type: 'json_object' });
    expect(new Headers(sent[0]!.init.headers).has('authorization')).toBe(false);
  });
});

describe('the streamed answer', () => {
  it('reads events cut mid-line and inside multi-byte characters, splits <think> off, and reports usage and finish', async () => {
    const body = events(
      delta({ role: 'assistant', content: '' }),
      delta({ content: '<think>Sie fragt nach ' }),
      delta({ content: 'dem Café.</think>Das Café heißt ' }),
      delta({ content: '「记忆」 🧠' }),
      delta({}, 'length'),
      { object: 'chat.completion.chunk', model: 'qwen-2.5', choices: [], usage: { prompt_tokens: 12, completion_tokens: 9 } },
    );
    const bytes = encoder.encode(body);
    // Every few bytes, so cuts land inside "data:", inside JSON, between \n\n and inside é, 记 and 🧠.
    const offsets = Array.from({ length: Math.floor(bytes.length / 7) }, (_, i) => (i + 1) * 7);
    const { fetch } = fetchAnswering(() => sse(cut(body, offsets)));
    const chunks: ChatChunk[] = [];

    const res = await createOpenAiLlm({ baseUrl: BASE, fetch }).chat(ask({ onChunk: (c) => chunks.push(c) }));

    expect(res).toMatchObject({ content: 'Das Café heißt 「记忆」 🧠', thinking: 'Sie fragt nach dem Café.', doneReason: 'length', model: 'qwen-2.5', promptTokens: 12, completionTokens: 9 });
    expect(chunks.map((c) => c.content).join('')).toBe(res.content);
    expect(chunks.every((c) => !c.content.includes('\uFFFD') && !c.thinking.includes('\uFFFD'))).toBe(true);
  });

  it('takes reasoning sent apart (reasoning_content, reasoning) as thinking, and llama-server timings as durations', async () => {
    const body = events(
      delta({ reasoning_content: 'First ' }),
      delta({ reasoning: 'think.' }),
      delta({ content: 'Answer.' }),
      { ...delta({}, 'stop'), timings: { prompt_ms: 40, predicted_ms: 60 } },
    );
    const { fetch } = fetchAnswering(() => sse([encoder.encode(body)]));
    const res = await createOpenAiLlm({ baseUrl: BASE, fetch }).chat(ask());
    expect(res).toMatchObject({ content: 'Answer.', thinking: 'First think.', doneReason: 'stop', totalDurationMs: 100, evalDurationMs: 60, promptTokens: null });
  });

  it('reads a whole completion object from a server that does not stream', async () => {
    const { fetch } = fetchAnswering(json(200, { model: 'qwen', choices: [{ index: 0, message: { role: 'assistant', content: 'All at once.' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 3 } }));
    const res = await createOpenAiLlm({ baseUrl: BASE, fetch }).chat(ask());
    expect(res).toMatchObject({ content: 'All at once.', doneReason: 'stop', promptTokens: 3 });
  });

  it('fails with LLM_STREAM_ERROR on an error event, a malformed event, or an end without finish or [DONE]', async () => {
    const errorEvent = `${events(delta({ content: 'Hel' })).replace('data: [DONE]\n\n', '')}data: {"error":{"code":500,"message":"the model crashed","type":"server_error"}}\n\n`;
    const malformed = 'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"choices":[{"del\n\n';
    const unfinished = 'data: {"choices":[{"delta":{"content":"a"}}]}\n\n';
    for (const [body, text] of [
      [errorEvent, 'the model crashed'],
      [malformed, 'malformed event'],
      [unfinished, 'ended before the reply was complete'],
    ] as const) {
      const { fetch } = fetchAnswering(() => sse([encoder.encode(body)]));
      const err = await failure(createOpenAiLlm({ baseUrl: BASE, fetch }).chat(ask()));
      expect(err.code).toBe('LLM_STREAM_ERROR');
      expect(err.message).toContain(text);
    }
  });
});

describe('error bodies', () => {
  const chatFails = async (answer: () => Response, key: string | null = null) => {
    const { fetch } = fetchAnswering(answer);
    return failure(createOpenAiLlm({ baseUrl: BASE, fetch, apiKey: () => key }).chat(ask()));
  };

  it("OpenAI's {error:{message,type,param,code}} about the model is MODEL_NOT_FOUND, whatever the status", async () => {
    const notFound = await chatFails(json(404, { error: { message: 'The model `qwen` does not exist.', type: 'invalid_request_error', param: 'model', code: 'model_not_found' } }));
    expect(notFound.code).toBe('MODEL_NOT_FOUND');
    expect(notFound.message).toContain(`Model "qwen" is not available from the model server at ${BASE}`);
    // LM Studio without a loaded model answers 400 with the message only.
    const noneLoaded = await chatFails(json(400, { error: { message: 'No models loaded. Please load a model in the developer page or use the `lms load` command.', type: 'invalid_request_error', param: null, code: null } }));
    expect(noneLoaded.code).toBe('MODEL_NOT_FOUND');
  });

  it("a plain {error: '...'} or vLLM's {message, type, code} keeps the server's words in LLM_HTTP_ERROR", async () => {
    const plain = await chatFails(json(500, { error: 'llama runner crashed' }));
    expect(plain).toMatchObject({ code: 'LLM_HTTP_ERROR', details: { status: 500 } });
    expect(plain.message).toBe(`The model server at ${BASE} answered chat with HTTP 500: llama runner crashed`);
    const vllm = await chatFails(json(400, { object: 'error', message: 'temperature must be non-negative', type: 'BadRequestError', code: 400 }));
    expect(vllm.message).toContain('temperature must be non-negative');
  });

  it('a prompt beyond the loaded context says which length to set (llama-server n_ctx, or the words of vLLM)', async () => {
    const llama = await chatFails(json(400, { error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: 5000, n_ctx: 4096 } }));
    expect(llama).toMatchObject({ code: 'LLM_HTTP_ERROR', details: { contextLength: 4096 } });
    expect(llama.message).toContain('Lower the context window in Settings to 4096');
    const vllm = await chatFails(json(400, { object: 'error', message: "This model's maximum context length is 2048 tokens. However, you requested 3000 tokens.", type: 'BadRequestError', code: 400 }));
    expect(vllm.details).toMatchObject({ contextLength: 2048 });
  });

  it('a 404 that is not JSON means no API at that address: the base URL is wrong', async () => {
    const err = await chatFails(() => new Response('Cannot POST /chat/completions', { status: 404 }));
    expect(err.code).toBe('LLM_HTTP_ERROR');
    expect(err.message).toContain('it usually ends in /v1');
  });

  it('401 is UNAUTHORIZED, and a key the server quotes back never reaches the message', async () => {
    const key = 'sk-secret-4f9a';
    const err = await chatFails(json(401, { error: { message: `Incorrect API key provided: ${key}.`, type: 'invalid_request_error', code: 'invalid_api_key' } }), key);
    expect(err.code).toBe('UNAUTHORIZED');
    expect(err.message).not.toContain(key);
    expect(err.message).toContain('Check the API key in Settings');
    const none = await chatFails(json(401, { error: { message: 'Missing bearer token', type: 'invalid_request_error' } }));
    expect(none.message).toContain('set one in Settings');
  });
});

describe('models and embeddings', () => {
  it('lists ids with llama-server sizes, and reads the context the server reports', async () => {
    const list = { object: 'list', data: [{ id: 'qwen', object: 'model', meta: { n_ctx_train: 32768, n_params: 7.6e9, size: 4.7e9 } }, { id: 'vllm-model', max_model_len: 16384 }] };
    const { fetch } = fetchAnswering(json(200, list), json(200, list), json(200, list));
    const llm = createOpenAiLlm({ baseUrl: BASE, fetch });
    expect(await llm.listModels()).toEqual([
      { name: 'qwen', sizeBytes: 4.7e9, family: null, parameterSize: '7.6B', modifiedAt: null },
      { name: 'vllm-model', sizeBytes: 0, family: null, parameterSize: null, modifiedAt: null },
    ]);
    expect(await llm.showModel('qwen')).toEqual({ name: 'qwen', contextLength: 32768, capabilities: [] });
    expect((await llm.showModel('vllm-model')).contextLength).toBe(16384);
  });

  it('returns embeddings in input order whatever order the server lists them in', async () => {
    const { fetch, sent } = fetchAnswering(json(200, { object: 'list', data: [{ index: 1, embedding: [0, 1] }, { index: 0, embedding: [1, 0] }] }));
    expect(await createOpenAiLlm({ baseUrl: BASE, fetch }).embed('nomic', ['a', 'b'])).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(sent[0]).toMatchObject({ url: `${BASE}/embeddings`, body: { model: 'nomic', input: ['a', 'b'], encoding_format: 'float' } });
  });
});
