/**
 * The LLM port over the OpenAI-compatible HTTP API that LM Studio, llama.cpp's llama-server, Jan, vLLM and LocalAI
 * serve: GET {base}/models, POST {base}/chat/completions (streamed as server-sent events), POST {base}/embeddings.
 * Plain fetch: every call has its own AbortController joined to the caller's signal and the time budgets
 * (llm-call.ts), as in the Ollama adapter.
 *
 * Where these servers differ from each other, and from Ollama:
 * - Structured output is `response_format: {type: 'json_schema', json_schema: {name, schema, strict}}`. A server that
 *   refuses it (HTTP 400/422 naming response_format or the schema) is asked again without it, once, and not asked
 *   with it again for that model: the prompt asks for JSON anyway, and the extraction parser is lenient.
 * - There is no num_ctx and no `think` switch: the server fixed the context when it loaded the model, and reasoning
 *   comes as `<think>` in the text (split off here) or in `delta.reasoning_content` / `delta.reasoning`.
 * - /models lists ids only. The context a model gets is read where a server reports it: vLLM's max_model_len,
 *   llama-server's meta.n_ctx_train, LM Studio's loaded_context_length / max_context_length (its /api/v0/models/{id},
 *   asked only when /models said nothing). Capabilities: LM Studio's `type`; otherwise none ([], "not reported"), and
 *   the models service's name rule tells embedding models from chat models.
 * - Errors are `{error: {message, type, param, code}}` (llama-server adds n_ctx to a context overflow), sometimes
 *   `{error: "..."}` or vLLM's `{message, type, code}`.
 * The API key, when set, goes out as `Authorization: Bearer`; it is cut out of every message and log line.
 */
import { MnemoError } from '../../../shared/errors';
import {
  abortedError,
  abortedResult,
  CallerCallbackError,
  DEFAULT_FIRST_CHUNK_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_METADATA_TIMEOUT_MS,
  describeError,
  neverAnswered,
  numberOrNull,
  openLlmCall,
  purposeHeaders,
  ReplyCollector,
  startTimer,
  stoppedOrTimedOut,
  type LlmCall,
  type ServerLabel,
} from './llm-call';
import type { ChatMessage, ChatRequest, ChatResult, LlmPort, ModelDetails, ModelInfo, RequestPurpose, ToolCall } from './llm.port';
import { SseDecoder, type SseEvent } from './sse-decoder';

export interface OpenAiLlmOptions {
  /** The API's base URL, the part before /chat/completions, e.g. http://127.0.0.1:1234/v1. */
  baseUrl: string;
  /** Read for every request, so a key set or cleared meanwhile applies at once. */
  apiKey?: () => string | null;
  fetch?: typeof fetch;
  logger?: { warn(message: string, fields?: Record<string, unknown>): void; info?(message: string, fields?: Record<string, unknown>): void };
  /** Time allowed for version / listModels / showModel to answer. Default 15 s. -> LLM_UNREACHABLE */
  metadataTimeoutMs?: number;
}

export const DEFAULT_OPENAI_BASE_URL = 'http://127.0.0.1:1234/v1';
/** What the structured-output schema is called in the request (`json_schema.name`: letters, digits, _ and -). */
const SCHEMA_NAME = 'mnemo_answer';
const MAX_ERROR_CHARS = 500;

/** A non-2xx answer, with what the error body said. */
class ServerRefusal extends Error {
  constructor(
    readonly status: number,
    readonly body: { message: string; type: string | null; code: string | null; param: string | null; nCtx: number | null; json: boolean },
  ) {
    super(`HTTP ${status}: ${body.message}`);
    this.name = 'ServerRefusal';
  }
}

class BrokenStream extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BrokenStream';
  }
}

interface ModelEntry {
  id: string;
  [field: string]: unknown;
}

export function createOpenAiLlm(options: OpenAiLlmOptions): LlmPort {
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const server: ServerLabel = { name: 'The model server', host: baseUrl, unreachable: 'LLM_UNREACHABLE' };
  const baseFetch = options.fetch ?? globalThis.fetch;
  const apiKey = options.apiKey ?? (() => null);
  const logger = options.logger;
  const metadataTimeoutMs = options.metadataTimeoutMs ?? DEFAULT_METADATA_TIMEOUT_MS;
  // Models whose server refused response_format: asked in plain JSON from then on (this port lives per base URL).
  const noStructuredOutput = new Set<string>();

  /** The key must never reach a message or a log line, even if a server echoes it back. */
  function redact(text: string): string {
    const key = apiKey();
    return key ? text.split(key).join('[API key]') : text;
  }

  async function send(call: LlmCall, method: 'GET' | 'POST', url: string, body?: unknown, purpose?: RequestPurpose): Promise<Response> {
    const key = apiKey();
    const response = await baseFetch(url, {
      method,
      headers: {
        Accept: 'application/json, text/event-stream',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
        ...purposeHeaders(purpose),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      // A redirect is not followed: it could send the conversation to an address the user never typed (the
      // offline promise). It comes back as a 3xx answer, reported as an HTTP error.
      redirect: 'manual',
      signal: call.signal,
    });
    call.responded = true;
    call.status = response.status;
    if (!response.ok) throw new ServerRefusal(response.status, readError(redact(await response.text().catch(() => '')), response.statusText));
    return response;
  }

  function fail(call: LlmCall, err: unknown, context: { op: string; model?: string; timeoutMs?: number }): MnemoError {
    const found = stoppedOrTimedOut(err, call, server, context) ?? toMnemoError(err, call, baseUrl, apiKey() !== null, context);
    // A server may echo what it was sent; the message crosses to the user, so it must not carry the key.
    const mapped = redact(found.message) === found.message ? found : new MnemoError(found.code, redact(found.message), found.details ? { details: found.details } : {});
    if (mapped.code !== 'ABORTED') {
      logger?.warn(`openai-compatible ${context.op} failed`, { code: mapped.code, host: baseUrl, model: context.model, cause: redact(describeError(err)) });
    }
    return mapped;
  }

  /** A request/response call with the caller's signal and, for metadata, a time budget. */
  async function unary<T>(op: string, signal: AbortSignal | undefined, timeoutMs: number | null, run: (call: LlmCall) => Promise<T>, model?: string): Promise<T> {
    if (signal?.aborted) throw abortedError(server);
    const call = openLlmCall(signal);
    const timer = timeoutMs === null ? undefined : startTimer(call, 'metadata', timeoutMs);
    try {
      return await run(call);
    } catch (err) {
      throw fail(call, err, { op, model, ...(timeoutMs === null ? {} : { timeoutMs }) });
    } finally {
      clearTimeout(timer);
      call.controller.abort();
    }
  }

  async function models(call: LlmCall): Promise<ModelEntry[]> {
    const list = (await readJson(await send(call, 'GET', `${baseUrl}/models`))) as { data?: unknown };
    if (!Array.isArray(list.data)) throw new BrokenStream('the model list has no "data" array');
    return list.data.filter((m): m is ModelEntry => typeof m === 'object' && m !== null && typeof (m as ModelEntry).id === 'string');
  }

  /** LM Studio's own record of a model (context, type); null from any other server, or on any failure. */
  async function lmStudioModel(call: LlmCall, id: string): Promise<Record<string, unknown> | null> {
    const url = new URL(baseUrl);
    if (!/\/v1$/.test(url.pathname)) return null;
    try {
      const response = await send(call, 'GET', `${url.origin}/api/v0/models/${encodeURIComponent(id)}`);
      const entry = (await readJson(response)) as unknown;
      return typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : null;
    } catch (err) {
      if (call.signal.aborted) throw err;
      return null;
    }
  }

  function requestBody(request: ChatRequest, structured: boolean): Record<string, unknown> {
    const { num_predict: maxTokens, temperature, seed } = request.options ?? {};
    return {
      model: request.model,
      messages: request.messages.map(toOpenAiMessage),
      ...(request.tools?.length ? { tools: request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } })) } : {}),
      // Always streamed, even without onChunk: the time budgets are per chunk, and a long reply must not count as a
      // slow model load.
      stream: true,
      stream_options: { include_usage: true },
      ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(seed === undefined ? {} : { seed }),
      ...(structured && request.format !== undefined ? { response_format: responseFormat(request.format) } : {}),
    };
  }

  return {
    api: 'openai',
    host: baseUrl,

    async version(signal) {
      await unary('version', signal, metadataTimeoutMs, models);
      return 'OpenAI-compatible';
    },

    async listModels(signal) {
      const entries = await unary('listModels', signal, metadataTimeoutMs, models);
      return entries.map(
        (m): ModelInfo => ({
          name: m.id,
          sizeBytes: numberOrNull(field(m, 'meta', 'size')) ?? 0,
          family: typeof m.arch === 'string' ? m.arch : null,
          parameterSize: parameterSize(numberOrNull(field(m, 'meta', 'n_params'))),
          modifiedAt: null,
        }),
      );
    },

    async showModel(name, signal) {
      return unary(
        'showModel',
        signal,
        metadataTimeoutMs,
        async (call) => {
          const entries = await models(call);
          let entry: Record<string, unknown> | undefined = entries.find((m) => m.id === name);
          if (!entry) throw modelNotListed(name, baseUrl, entries);
          if (contextLengthOf(entry) === null) entry = { ...entry, ...(await lmStudioModel(call, name)) };
          return { name, contextLength: contextLengthOf(entry), capabilities: capabilitiesOf(entry) } satisfies ModelDetails;
        },
        name,
      );
    },

    async embed(model, input, signal) {
      if (input.length === 0) return [];
      const res = (await unary(
        'embed',
        signal,
        null,
        async (call) => readJson(await send(call, 'POST', `${baseUrl}/embeddings`, { model, input, encoding_format: 'float' })),
        model,
      )) as { data?: Array<{ embedding?: unknown; index?: unknown }> };
      const rows = Array.isArray(res.data) ? [...res.data].sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0)) : [];
      if (rows.length !== input.length) {
        throw new MnemoError('LLM_HTTP_ERROR', `The model server returned ${rows.length} embeddings for ${input.length} texts.`, { details: { status: 200, model } });
      }
      // The embedder checks each vector (numbers, one length): a base64 or otherwise odd answer is refused there.
      return rows.map((row) => row.embedding as number[]);
    },

    pull(name) {
      return Promise.reject(
        new MnemoError(
          'INVALID_INPUT',
          `Mnemo downloads models only from Ollama. Download "${name}" in your model server (LM Studio: the Discover tab, or "lms get"; llama-server: its GGUF file), then choose it here.`,
          { details: { model: name } },
        ),
      );
    },

    async chat(request) {
      if (request.signal?.aborted) throw abortedError(server);
      const firstChunkTimeoutMs = request.firstChunkTimeoutMs ?? DEFAULT_FIRST_CHUNK_TIMEOUT_MS;
      const idleTimeoutMs = request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
      const call = openLlmCall(request.signal);
      const reply = new ReplyCollector(request.onChunk);
      const end: StreamEnd = { finishReason: null, done: false, model: null, usage: null, timings: null, toolCalls: [] };

      let timer = startTimer(call, 'first-chunk', firstChunkTimeoutMs);
      const alive = () => {
        clearTimeout(timer);
        timer = startTimer(call, 'idle', idleTimeoutMs);
      };
      try {
        const url = `${baseUrl}/chat/completions`;
        const structured = request.format !== undefined && !noStructuredOutput.has(request.model);
        let response: Response;
        try {
          response = await send(call, 'POST', url, requestBody(request, structured), request.purpose);
        } catch (err) {
          if (!structured || !refusesResponseFormat(err)) throw err;
          noStructuredOutput.add(request.model);
          logger?.info?.('the model server refused response_format: asking for plain JSON', { host: baseUrl, model: request.model });
          response = await send(call, 'POST', url, requestBody(request, false), request.purpose);
        }
        if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
          // A server that ignores `stream` answers with one completion object.
          alive();
          readCompletion((await readJson(response)) as Completion, reply, end);
        } else {
          if (!response.body) throw new BrokenStream('the answer has no body');
          const decoder = new SseDecoder();
          const take = (events: SseEvent[]) => {
            for (const event of events) {
              if (end.done) return;
              alive();
              readStreamEvent(event, reply, end);
            }
          };
          const reader = response.body.getReader();
          while (!end.done) {
            const { done, value } = await reader.read();
            if (done) break;
            take(decoder.push(value));
          }
          if (!end.done) take(decoder.end());
          if (!end.done && end.finishReason === null) throw new BrokenStream('the stream ended before the reply was complete');
        }
        reply.finish();
      } catch (err) {
        // The caller's own bug, not the server's: give it back unchanged.
        if (err instanceof CallerCallbackError) throw err.error;
        if (reply.keepsPartialAfterAbort(request.signal)) return abortedResult(request.model, reply);
        throw fail(call, err, { op: 'chat', model: request.model, timeoutMs: call.timedOut === 'idle' ? idleTimeoutMs : firstChunkTimeoutMs });
      } finally {
        clearTimeout(timer);
        // Releases the connection when the reply ended with [DONE] before the body did.
        call.controller.abort();
      }
      return {
        content: reply.content,
        thinking: reply.thinking,
        doneReason: end.finishReason ?? 'stop',
        model: end.model ?? request.model,
        promptTokens: numberOrNull(end.usage?.prompt_tokens),
        completionTokens: numberOrNull(end.usage?.completion_tokens),
        // llama-server reports its timings; other servers none (the chat service then shows no speed).
        totalDurationMs: end.timings ? (numberOrNull(end.timings.prompt_ms) ?? 0) + (numberOrNull(end.timings.predicted_ms) ?? 0) : null,
        loadDurationMs: null,
        promptEvalDurationMs: numberOrNull(end.timings?.prompt_ms),
        evalDurationMs: numberOrNull(end.timings?.predicted_ms),
        ...(end.toolCalls.length > 0 ? { toolCalls: end.toolCalls.filter((c) => c.name !== '') } : {}),
      } satisfies ChatResult;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The wire

interface Delta {
  content?: unknown;
  reasoning_content?: unknown;
  reasoning?: unknown;
  tool_calls?: unknown;
}

/** One entry of `tool_calls`: whole in a completion, in pieces (by index) in a stream. */
interface ToolCallPart {
  index?: unknown;
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

interface Completion {
  model?: unknown;
  choices?: Array<{ delta?: Delta; message?: Delta; finish_reason?: unknown }>;
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  timings?: { prompt_ms?: unknown; predicted_ms?: unknown };
  error?: unknown;
}

interface StreamEnd {
  finishReason: string | null;
  /** `data: [DONE]` came. */
  done: boolean;
  model: string | null;
  usage: NonNullable<Completion['usage']> | null;
  timings: NonNullable<Completion['timings']> | null;
  /** Tool calls assembled from the pieces, by index; arguments as the JSON string the server sent. */
  toolCalls: ToolCall[];
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

function readStreamEvent(event: SseEvent, reply: ReplyCollector, end: StreamEnd): void {
  if (event.data === '[DONE]') {
    end.done = true;
    return;
  }
  let chunk: Completion;
  try {
    chunk = JSON.parse(event.data) as Completion;
  } catch {
    const shown = event.data.length > 80 ? `${event.data.slice(0, 80)}…` : event.data;
    throw new BrokenStream(`malformed event in the stream: ${shown}`);
  }
  // An error after the headers: llama-server and OpenAI send it as an event (OpenAI's with `event: error`).
  if (chunk.error !== undefined || event.event === 'error') throw new BrokenStream(errorMessage(chunk.error ?? chunk) ?? 'the server reported an error');
  readCompletion(chunk, reply, end);
}

function readCompletion(chunk: Completion, reply: ReplyCollector, end: StreamEnd): void {
  if (typeof chunk.model === 'string' && chunk.model) end.model = chunk.model;
  if (chunk.usage) end.usage = chunk.usage;
  if (chunk.timings) end.timings = chunk.timings;
  const choice = chunk.choices?.[0];
  if (!choice) return;
  const part = choice.delta ?? choice.message ?? {};
  reply.push(text(part.content), text(part.reasoning_content) || text(part.reasoning));
  if (Array.isArray(part.tool_calls)) collectToolCalls(part.tool_calls as ToolCallPart[], end.toolCalls);
  if (typeof choice.finish_reason === 'string' && choice.finish_reason) end.finishReason = choice.finish_reason;
}

/**
 * OpenAI's streamed tool calls: each piece names its call by `index`; the first carries the id and the name, the
 * `arguments` string arrives in pieces to be joined. A server that sends an object instead of a string is taken as is.
 */
function collectToolCalls(parts: readonly ToolCallPart[], calls: ToolCall[]): void {
  parts.forEach((piece, i) => {
    const index = typeof piece.index === 'number' ? piece.index : i;
    const call = (calls[index] ??= { id: null, name: '', arguments: '' });
    if (typeof piece.id === 'string' && piece.id) call.id = piece.id;
    if (typeof piece.function?.name === 'string') call.name += piece.function.name;
    const args = piece.function?.arguments;
    if (typeof args === 'string') call.arguments = (typeof call.arguments === 'string' ? call.arguments : '') + args;
    else if (args !== undefined) call.arguments = args;
  });
}

/** OpenAI's message shape: an assistant turn's tool_calls with JSON-string arguments; a tool result named by tool_call_id. */
function toOpenAiMessage(m: ChatMessage): Record<string, unknown> {
  if (m.role === 'tool') return { role: 'tool', content: m.content, tool_call_id: m.toolCallId ?? m.toolName ?? '' };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c, i) => ({
        id: c.id ?? `call_${i}`,
        type: 'function',
        function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}) },
      })),
    };
  }
  return { role: m.role, content: m.content };
}

function responseFormat(format: NonNullable<ChatRequest['format']>): Record<string, unknown> {
  if (format === 'json') return { type: 'json_object' };
  return { type: 'json_schema', json_schema: { name: SCHEMA_NAME, schema: format, strict: true } };
}

/** A server that cannot do structured output says so with a 4xx about response_format or the schema. */
function refusesResponseFormat(err: unknown): boolean {
  if (!(err instanceof ServerRefusal) || ![400, 422, 501].includes(err.status)) return false;
  return err.body.param === 'response_format' || /response_format|json_schema|json schema|grammar|structured output|guided/i.test(err.body.message);
}

async function readJson(response: Response): Promise<unknown> {
  const body = await response.text();
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new BrokenStream(`the answer is not JSON: ${body.slice(0, 80)}`);
  }
}

/** The message in any of the error shapes these servers send; null when there is none. */
function errorMessage(error: unknown): string | null {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const { message, error: inner } = error as { message?: unknown; error?: unknown };
    if (typeof message === 'string') return message;
    if (inner !== undefined) return errorMessage(inner);
  }
  return null;
}

function readError(body: string, statusText: string): ServerRefusal['body'] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    const plain = body.trim().replace(/\s+/g, ' ');
    return { message: clipped(plain || statusText || 'no details'), type: null, code: null, param: null, nCtx: null, json: false };
  }
  const error = (typeof parsed === 'object' && parsed !== null && 'error' in parsed ? (parsed as { error: unknown }).error : parsed) as Record<string, unknown> | string;
  const obj = typeof error === 'object' && error !== null ? error : {};
  const str = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
  return {
    message: clipped(errorMessage(error) ?? (body.trim() || statusText)),
    type: str(obj.type),
    code: str(obj.code),
    param: str(obj.param),
    // llama-server says n_ctx; vLLM and OpenAI only in words ("maximum context length is 4096 tokens").
    nCtx: numberOrNull(obj.n_ctx) ?? numberOrNull(Number(/context length is (\d+)/i.exec(errorMessage(error) ?? '')?.[1] ?? NaN)),
    json: true,
  };
}

function clipped(message: string): string {
  return message.length > MAX_ERROR_CHARS ? `${message.slice(0, MAX_ERROR_CHARS)}…` : message;
}

// ---------------------------------------------------------------------------------------------------------------
// Models

function field(entry: Record<string, unknown>, ...path: string[]): unknown {
  return path.reduce<unknown>((v, k) => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined), entry);
}

/** The context the server gives the model, in the order "as served" before "as trained" (see the header). */
function contextLengthOf(entry: Record<string, unknown>): number | null {
  for (const path of [['max_model_len'], ['loaded_context_length'], ['max_context_length'], ['meta', 'n_ctx_train']]) {
    const n = numberOrNull(field(entry, ...path));
    if (n !== null && n > 0) return Math.floor(n);
  }
  return null;
}

/** In Ollama's words, when the server says: LM Studio's type, or a capabilities list. */
function capabilitiesOf(entry: Record<string, unknown>): string[] {
  if (Array.isArray(entry.capabilities)) return entry.capabilities.filter((c): c is string => typeof c === 'string');
  if (entry.type === 'llm' || entry.type === 'vlm') return ['completion'];
  if (entry.type === 'embeddings' || entry.type === 'embedding') return ['embedding'];
  return [];
}

/** "7.6B" from llama-server's n_params, in Ollama's parameter_size spelling (the model pick ranks by it). */
function parameterSize(params: number | null): string | null {
  if (params === null || params <= 0) return null;
  return params >= 1e9 ? `${(params / 1e9).toFixed(1)}B` : `${Math.round(params / 1e6)}M`;
}

function modelNotListed(name: string, baseUrl: string, entries: ModelEntry[]): MnemoError {
  const offered = entries.map((m) => m.id);
  const shown = offered.length > 8 ? `${offered.slice(0, 8).join(', ')}, …` : offered.join(', ');
  const what = offered.length === 0 ? 'it lists no models: load one there first' : `it offers ${shown}: choose one of those in Settings, or load "${name}" there`;
  return new MnemoError('MODEL_NOT_FOUND', `Model "${name}" is not available from the model server at ${baseUrl}; ${what}.`, { details: { model: name } });
}

// ---------------------------------------------------------------------------------------------------------------
// Failures

/** What stoppedOrTimedOut leaves: the server's HTTP errors, an unreachable server, a broken stream. */
function toMnemoError(err: unknown, call: LlmCall, baseUrl: string, keySet: boolean, { op, model }: { op: string; model?: string }): MnemoError {
  if (err instanceof ServerRefusal) {
    const { status, body } = err;
    if (status === 401 || status === 403) {
      return new MnemoError(
        'UNAUTHORIZED',
        `The model server at ${baseUrl} refused the request (HTTP ${status}: ${body.message}). ${keySet ? 'Check the API key in Settings.' : 'It wants an API key: set one in Settings.'}`,
        { details: { status, host: baseUrl }, cause: err },
      );
    }
    if (body.type === 'exceed_context_size_error' || body.code === 'context_length_exceeded' || /context (size|length|window)/i.test(body.message)) {
      const size = body.nCtx === null ? '' : ` (${body.nCtx} tokens)`;
      return new MnemoError(
        'LLM_HTTP_ERROR',
        `The request does not fit the context the model server loaded "${model}" with${size}. Lower the context window in Settings${body.nCtx === null ? '' : ` to ${body.nCtx}`}, or load the model with a longer context.`,
        { details: { status, model, ...(body.nCtx === null ? {} : { contextLength: body.nCtx }) }, cause: err },
      );
    }
    // A JSON error about the model. A 404 that is not JSON means no API at that address (a base URL without /v1).
    const aboutModel = body.code === 'model_not_found' || body.param === 'model' || /model\b.*\b(not found|does not exist|not loaded|not available)|no models? (are |is )?loaded/i.test(body.message);
    if (model !== undefined && (op === 'chat' || op === 'embed') && body.json && (status === 404 || aboutModel)) {
      return new MnemoError(
        'MODEL_NOT_FOUND',
        `Model "${model}" is not available from the model server at ${baseUrl} (${body.message}). Load it there (LM Studio: download it, then load it or turn on just-in-time loading; llama-server: start it with that model), or choose another model in Settings.`,
        { details: { model }, cause: err },
      );
    }
    if (status === 404 && !body.json) {
      return new MnemoError(
        'LLM_HTTP_ERROR',
        `There is no OpenAI-compatible API at ${baseUrl} (HTTP 404). Check the server address in Settings: it usually ends in /v1, e.g. http://127.0.0.1:1234/v1.`,
        { details: { status, host: baseUrl }, cause: err },
      );
    }
    return new MnemoError('LLM_HTTP_ERROR', `The model server at ${baseUrl} answered ${op} with HTTP ${status}: ${body.message}`, { details: { status }, cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  if (!call.responded && neverAnswered(err)) {
    return new MnemoError(
      'LLM_UNREACHABLE',
      `Cannot reach the model server at ${baseUrl}. Start it (LM Studio: Developer > Start Server, or "lms server start"; llama.cpp: llama-server --port 8080), or correct the server address in Settings.`,
      { details: { host: baseUrl }, cause: err },
    );
  }
  if (call.responded && op === 'chat') {
    // Anything after the headers: an error event, a malformed event, a dropped connection, a stream without its end.
    // A dropped connection (a socket error in the cause chain) is most often the server stopped: said as such.
    if (neverAnswered(err)) {
      return new MnemoError('LLM_STREAM_ERROR', `The model server closed the connection while answering; it may have stopped (${message}).`, { details: { model, dropped: true }, cause: err });
    }
    return new MnemoError('LLM_STREAM_ERROR', `The reply from the model server broke off: ${message}`, { details: { model }, cause: err });
  }
  return new MnemoError('LLM_HTTP_ERROR', `The model server sent a response to ${op} that could not be read: ${message}`, { details: { status: call.status }, cause: err });
}

/** The base URL as requests are built from it: scheme, host, port and path, no trailing slash. */
export function normalizeBaseUrl(url: string): string {
  const parsed = new URL(url.trim() || DEFAULT_OPENAI_BASE_URL);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`.replace(/\/+$/, '');
}
