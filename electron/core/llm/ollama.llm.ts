/**
 * The LLM port over Ollama's HTTP API, through the `ollama` npm client.
 *
 * Every call builds its own client around a fetch bound to that call's AbortSignal. Two reasons: the client's
 * abort() aborts *all* of its streams, so one shared client would let stopping one reply stop the others; and the
 * client's non-streaming calls (version, list, show, embed) take no signal at all, so the fetch carries it instead.
 * The same fetch wrapper tells us whether Ollama answered at all (unreachable vs. broken stream) and rejects
 * malformed NDJSON lines, which the client would otherwise skip silently, losing part of a reply.
 */
import { Ollama, type ChatResponse, type Message as OllamaMessage, type Tool as OllamaTool } from 'ollama';
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
import type { ChatMessage, ChatResult, LlmPort, ModelDetails, ModelInfo, PullProgress, RequestPurpose, ToolCall, ToolDefinition } from './llm.port';
import { normalizeHost } from '../../../shared/ollama-host';

export interface OllamaLlmLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface OllamaLlmOptions {
  /** Ollama's base URL, e.g. http://127.0.0.1:11434, or any form OLLAMA_HOST accepts (ollama-host.ts). */
  host: string;
  fetch?: typeof fetch;
  logger?: OllamaLlmLogger;
  /** Time allowed for version / listModels / showModel to answer. Default 15 s. -> OLLAMA_UNREACHABLE */
  metadataTimeoutMs?: number;
}

/** Per-call state the fetch wrapper and the error mapping share. */
interface Call extends LlmCall {
  client: Ollama;
}

export function createOllamaLlm(options: OllamaLlmOptions): LlmPort {
  const host = normalizeHost(options.host);
  const server: ServerLabel = { name: 'Ollama', host, unreachable: 'OLLAMA_UNREACHABLE' };
  const baseFetch = options.fetch ?? globalThis.fetch;
  const logger = options.logger;
  const metadataTimeoutMs = options.metadataTimeoutMs ?? DEFAULT_METADATA_TIMEOUT_MS;

  function openCall(callerSignal: AbortSignal | undefined, purpose?: RequestPurpose): Call {
    const base = openLlmCall(callerSignal);
    const boundFetch: typeof fetch = async (input, init) => {
      const response = await baseFetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, base.signal]) : base.signal });
      call.responded = true;
      call.status = response.status;
      return isNdjson(response) ? withStrictNdjson(response) : response;
    };
    const call: Call = Object.assign(base, { client: new Ollama({ host, fetch: boundFetch, headers: purposeHeaders(purpose) }) });
    return call;
  }

  function fail(call: Call, err: unknown, context: { op: string; model?: string; timeoutMs?: number }): MnemoError {
    const mapped = stoppedOrTimedOut(err, call, server, context) ?? toMnemoError(err, call, host, context);
    if (mapped.code !== 'ABORTED') {
      logger?.warn(`ollama ${context.op} failed`, { code: mapped.code, host, model: context.model, cause: describeError(err) });
    }
    return mapped;
  }

  /** A request/response call with the caller's signal and, for metadata, a time budget. */
  async function unary<T>(
    op: string,
    signal: AbortSignal | undefined,
    timeoutMs: number | null,
    run: (client: Ollama) => Promise<T>,
    model?: string,
  ): Promise<T> {
    if (signal?.aborted) throw abortedError(server);
    const call = openCall(signal);
    const timer = timeoutMs === null ? undefined : startTimer(call, 'metadata', timeoutMs);
    try {
      return await run(call.client);
    } catch (err) {
      throw fail(call, err, { op, model, ...(timeoutMs === null ? {} : { timeoutMs }) });
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    api: 'ollama',
    host,

    async version(signal) {
      const res = await unary('version', signal, metadataTimeoutMs, (c) => c.version());
      return String(res.version);
    },

    async listModels(signal) {
      const res = await unary('listModels', signal, metadataTimeoutMs, (c) => c.list());
      return (res.models ?? []).map(
        (m): ModelInfo => ({
          name: m.name,
          sizeBytes: typeof m.size === 'number' ? m.size : 0,
          family: m.details?.family || null,
          parameterSize: m.details?.parameter_size || null,
          modifiedAt: m.modified_at ? String(m.modified_at) : null,
        }),
      );
    },

    async showModel(name, signal) {
      const res = await unary('showModel', signal, metadataTimeoutMs, (c) => c.show({ model: name }), name);
      // Typed as a Map by the client, but it is the plain JSON object Ollama sent.
      const info = (res.model_info ?? {}) as unknown as Record<string, unknown>;
      const contextKey = Object.keys(info).find((k) => k.endsWith('.context_length') && typeof info[k] === 'number');
      return {
        name,
        contextLength: contextKey === undefined ? null : (info[contextKey] as number),
        capabilities: Array.isArray(res.capabilities) ? res.capabilities.filter((c) => typeof c === 'string') : [],
      } satisfies ModelDetails;
    },

    async embed(model, input, signal) {
      if (input.length === 0) return [];
      const res = await unary('embed', signal, null, (c) => c.embed({ model, input }), model);
      if (!Array.isArray(res.embeddings) || res.embeddings.length !== input.length) {
        throw new MnemoError('LLM_HTTP_ERROR', `Ollama returned ${res.embeddings?.length ?? 0} embeddings for ${input.length} texts.`, {
          details: { status: 200, model },
        });
      }
      return res.embeddings;
    },

    async pull(name, onProgress, signal) {
      if (signal?.aborted) throw abortedError(server);
      const call = openCall(signal);
      try {
        const stream = await call.client.pull({ model: name, stream: true });
        for await (const p of stream) {
          const total = typeof p.total === 'number' && p.total > 0 ? p.total : null;
          const completed = typeof p.completed === 'number' ? p.completed : null;
          const progress: PullProgress = {
            status: p.status,
            completedBytes: completed,
            totalBytes: total,
            percent: total !== null && completed !== null ? Math.min(100, Math.floor((completed / total) * 100)) : null,
          };
          onProgress(progress);
        }
      } catch (err) {
        throw fail(call, err, { op: 'pull', model: name });
      } finally {
        // Releases the connection if the stream ended early; a no-op for the caller once we are done.
        call.controller.abort();
      }
    },

    async chat(request) {
      if (request.signal?.aborted) throw abortedError(server);
      const firstChunkTimeoutMs = request.firstChunkTimeoutMs ?? DEFAULT_FIRST_CHUNK_TIMEOUT_MS;
      const idleTimeoutMs = request.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
      const call = openCall(request.signal, request.purpose);
      const reply = new ReplyCollector(request.onChunk);
      const toolCalls: ToolCall[] = [];
      let last: ChatResponse | undefined;

      let timer = startTimer(call, 'first-chunk', firstChunkTimeoutMs);
      try {
        // Always streamed, even without onChunk: the time budgets are per chunk, and a long reply must not
        // count as a slow model load.
        const stream = await call.client.chat({
          model: request.model,
          messages: request.messages.map(toOllamaMessage),
          stream: true,
          ...(request.tools?.length ? { tools: request.tools.map(toOllamaTool) } : {}),
          ...(request.format === undefined ? {} : { format: request.format }),
          ...(request.options === undefined ? {} : { options: request.options }),
          ...(request.think === undefined ? {} : { think: request.think }),
        });
        for await (const part of stream) {
          clearTimeout(timer);
          timer = startTimer(call, 'idle', idleTimeoutMs);
          reply.push(part.message?.content ?? '', part.message?.thinking ?? '');
          // Ollama streams each tool call whole (arguments an object), in a line of its own or the last one.
          for (const c of part.message?.tool_calls ?? []) toolCalls.push({ id: null, name: String(c.function?.name ?? ''), arguments: c.function?.arguments });
          if (part.done) last = part;
        }
        reply.finish();
      } catch (err) {
        // The caller's own bug, not Ollama's: give it back unchanged.
        if (err instanceof CallerCallbackError) throw err.error;
        if (reply.keepsPartialAfterAbort(request.signal)) return abortedResult(request.model, reply);
        throw fail(call, err, {
          op: 'chat',
          model: request.model,
          timeoutMs: call.timedOut === 'idle' ? idleTimeoutMs : firstChunkTimeoutMs,
        });
      } finally {
        clearTimeout(timer);
        call.controller.abort();
      }
      return { ...result(request.model, reply, last), ...(toolCalls.length > 0 ? { toolCalls } : {}) };
    },
  };
}

/** Ollama's message shape: tool calls with their arguments as an object, a tool result named by tool_name. */
function toOllamaMessage(m: ChatMessage): OllamaMessage {
  return {
    role: m.role,
    content: m.content,
    ...(m.toolCalls?.length ? { tool_calls: m.toolCalls.map((c) => ({ function: { name: c.name, arguments: argumentsObject(c.arguments) } })) } : {}),
    ...(m.toolName === undefined ? {} : { tool_name: m.toolName }),
  };
}

function toOllamaTool(t: ToolDefinition): OllamaTool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters as OllamaTool['function']['parameters'] } };
}

/** Ollama wants an object back; a call whose arguments were not one is echoed as {} (its tool message says what was wrong). */
function argumentsObject(raw: unknown): Record<string, unknown> {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw === 'string') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // not JSON: echoed as {}
    }
  }
  return {};
}

function result(model: string, reply: ReplyCollector, last: ChatResponse | undefined): ChatResult {
  return {
    content: reply.content,
    thinking: reply.thinking,
    doneReason: last?.done_reason || 'stop',
    model: last?.model || model,
    promptTokens: numberOrNull(last?.prompt_eval_count),
    completionTokens: numberOrNull(last?.eval_count),
    totalDurationMs: nsToMs(last?.total_duration),
    loadDurationMs: nsToMs(last?.load_duration),
    promptEvalDurationMs: nsToMs(last?.prompt_eval_duration),
    evalDurationMs: nsToMs(last?.eval_duration),
  };
}

/** What stoppedOrTimedOut leaves: Ollama's HTTP errors, an unreachable Ollama, a broken stream. */
function toMnemoError(err: unknown, call: Call, host: string, { op, model }: { op: string; model?: string }): MnemoError {
  const status = httpStatusOf(err);
  const message = err instanceof Error ? err.message : String(err);
  if (status === 404 || /model ['"].*['"] not found/i.test(message)) {
    const name = model ?? 'that model';
    return new MnemoError('MODEL_NOT_FOUND', `Model "${name}" is not installed in Ollama. Install it with "ollama pull ${name}".`, {
      details: { model },
      cause: err,
    });
  }
  if (status !== null) {
    return new MnemoError('LLM_HTTP_ERROR', `Ollama answered ${op} with HTTP ${status}: ${message}`, {
      details: { status },
      cause: err,
    });
  }
  if (!call.responded && neverAnswered(err)) {
    return new MnemoError('OLLAMA_UNREACHABLE', `Cannot reach Ollama at ${host}. Start it with "ollama serve" or set OLLAMA_HOST.`, {
      details: { host },
      cause: err,
    });
  }
  if (call.responded && (op === 'chat' || op === 'pull')) {
    // Anything after the headers of a stream: an {"error"} line, a malformed line, a dropped connection,
    // or a stream that ended without its final line. A dropped connection (a socket error in the cause chain) is
    // most often Ollama stopped: said as such, `dropped` in the details.
    if (neverAnswered(err)) {
      return new MnemoError('LLM_STREAM_ERROR', `Ollama closed the connection while answering; it may have stopped (${message}).`, { details: { model, dropped: true }, cause: err });
    }
    return new MnemoError('LLM_STREAM_ERROR', `The reply from Ollama broke off: ${message}`, { details: { model }, cause: err });
  }
  return new MnemoError('LLM_HTTP_ERROR', `Ollama sent a response to ${op} that could not be read: ${message}`, {
    details: { status: call.status },
    cause: err,
  });
}

/** The `ollama` client throws a ResponseError carrying the HTTP status for non-2xx answers. */
function httpStatusOf(err: unknown): number | null {
  const status = (err as { status_code?: unknown } | null)?.status_code;
  return typeof status === 'number' ? status : null;
}

function isNdjson(response: Response): boolean {
  return response.ok && response.body !== null && (response.headers.get('content-type') ?? '').includes('application/x-ndjson');
}

class MalformedStreamLineError extends Error {
  constructor(line: string) {
    super(`malformed line in the stream: ${line.length > 80 ? `${line.slice(0, 80)}…` : line}`);
    this.name = 'MalformedStreamLineError';
  }
}

/** Passes the body through unchanged but fails the stream at the first complete line that is not JSON. */
function withStrictNdjson(response: Response): Response {
  const decoder = new TextDecoder();
  let partial = '';
  const check = (lines: string[], controller: TransformStreamDefaultController<Uint8Array>): boolean => {
    for (const line of lines) {
      if (line.trim() === '') continue;
      try {
        JSON.parse(line);
      } catch {
        controller.error(new MalformedStreamLineError(line));
        return false;
      }
    }
    return true;
  };
  const validate = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const lines = (partial + decoder.decode(chunk, { stream: true })).split('\n');
      partial = lines.pop() ?? '';
      if (check(lines, controller)) controller.enqueue(chunk);
    },
    flush(controller) {
      check([partial + decoder.decode()], controller);
    },
  });
  return new Response(response.body!.pipeThrough(validate), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function nsToMs(ns: unknown): number | null {
  const n = numberOrNull(ns);
  return n === null ? null : n / 1_000_000;
}
