/**
 * A fake OpenAI-compatible model server for tests, in the manner of fake-ollama.ts: real HTTP on 127.0.0.1, the wire
 * format of LM Studio / llama-server / vLLM, a fake model behind it.
 *
 * Wire format (OpenAI's API reference, as the local servers implement it):
 * - GET /v1/models: `{object: 'list', data: [{id, object: 'model', created, owned_by}]}`; the 'llama.cpp' dialect adds
 *   llama-server's `meta` (n_ctx_train, n_params, size); the 'lmstudio' dialect also answers LM Studio's
 *   GET /api/v0/models/{id} with `type`, `state` and `max_context_length` (and loaded_context_length when loaded).
 * - POST /v1/chat/completions with `stream: true`: `text/event-stream`, one `data: {chat.completion.chunk}` event per
 *   piece (the first carries the role, the last an empty delta with finish_reason), then a usage chunk with empty
 *   choices when `stream_options.include_usage`, then `data: [DONE]`. Reasoning goes in `delta.reasoning_content`.
 *   `stream: false` gets one chat.completion object. Tool calls (a reply with `toolCalls`) stream as OpenAI streams them:
 *   `delta.tool_calls` entries with an `index`, the first carrying `id`, `type` and the function's name, the
 *   `arguments` JSON string in pieces across chunks; finish_reason 'tool_calls'. With `toolsRefused`, any request
 *   with `tools` is a 400 (a server or template without tool support).
 * - POST /v1/embeddings: `{object: 'list', data: [{object: 'embedding', index, embedding}], model, usage}`.
 * - Errors: an HTTP status with `{error: {message, type, param, code}}`; after the stream started, one
 *   `data: {error: {...}}` event and the end of the body (llama-server's way).
 * With `apiKey` set, every /v1 request needs `Authorization: Bearer <apiKey>` (else 401 invalid_api_key).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  controlsOf,
  countWords,
  createFaultSlot,
  createReplyScript,
  createRequestLog,
  echoText,
  embedText,
  pause,
  readJsonRequest,
  sendJson,
  startLoopbackServer,
  wordChunks,
  type FakeChatRequest,
  type FakeServerControls,
  type ReplySource,
} from './fake-server-kit';

export interface FakeOpenAiModel {
  id: string;
  /** LM Studio's model type. Default 'llm'. */
  type?: 'llm' | 'vlm' | 'embeddings';
  /** Reported as meta.n_ctx_train ('llama.cpp') or max_context_length ('lmstudio'). Default 32768. */
  contextLength?: number;
  /** LM Studio's loaded_context_length: set when the model is loaded with that context ('lmstudio'). */
  loadedContextLength?: number;
  /** llama-server's meta.n_params. Default 3.2e9. */
  params?: number;
}

export interface FakeOpenAiReply {
  /** Answer text; split into word-sized chunks unless `chunks` is given. */
  content?: string;
  /** Exact answer chunks, in order (then `content` is ignored). */
  chunks?: string[];
  /** Sent as `delta.reasoning_content` chunks before the answer. */
  reasoning?: string;
  /** finish_reason of the last chunk. Default 'stop'. */
  finishReason?: string;
  promptTokens?: number;
  completionTokens?: number;
  /** Pause before every chunk after the first. */
  delayMsPerChunk?: number;
  /** Tool calls the model asks for; `arguments` is sent as this string (a JSON string, as OpenAI sends it), in pieces. */
  toolCalls?: Array<{ name: string; arguments: string }>;
}

/** `messages` as sent: an assistant turn that only called tools has content null (OpenAI's way), whatever the type says. */
export type FakeOpenAiRequest = FakeChatRequest;

export type FakeOpenAiReplySource = ReplySource<FakeOpenAiRequest, FakeOpenAiReply>;

export type FakeOpenAiFault = (
  | { kind: 'model-not-found' }
  /** A server without structured output: 400 to any request that carries response_format. */
  | { kind: 'reject-response-format' }
  | { kind: 'slow-first-chunk'; delayMs: number }
  | { kind: 'length-cut'; afterChunks?: number }
  | { kind: 'error-mid-stream'; afterChunks?: number; message?: string }
  | { kind: 'drop-connection'; afterChunks?: number }
  | { kind: 'http-500'; message?: string }
  /** llama-server's answer to a prompt longer than the context it loaded the model with. */
  | { kind: 'context-exceeded'; nCtx: number }
) & {
  /** Keep the fault for every matching request until setFault(null). Default: the next matching request only. */
  sticky?: boolean;
  /** Which endpoints it hits. Default ['/v1/chat/completions']. '/v1/embeddings' takes model-not-found, http-500, slow-first-chunk. */
  paths?: string[];
};

export interface FakeOpenAiOptions {
  models?: FakeOpenAiModel[];
  /** Which server's extras /v1/models carries (see the header). Default 'plain': ids only. */
  dialect?: 'plain' | 'llama.cpp' | 'lmstudio';
  /** Require this Bearer token. */
  apiKey?: string;
  /** Length of the embeddings. Default 16. */
  embedDim?: number;
  /** Refuse requests with `tools` (400), as a server whose model template has no tool support does. */
  toolsRefused?: boolean;
}

export interface FakeOpenAi extends FakeServerControls<FakeOpenAiRequest, FakeOpenAiReply, FakeOpenAiFault> {
  /** The API's base URL: url + '/v1'. */
  readonly baseUrl: string;
  setModels(models: FakeOpenAiModel[]): void;
}

const CHAT_PATH = '/v1/chat/completions';
const DEFAULT_MODELS: FakeOpenAiModel[] = [{ id: 'llama-3.2-3b-instruct' }, { id: 'text-embedding-nomic-embed-text-v1.5', type: 'embeddings', params: 137e6 }];
const CREATED = 1_735_689_600;

export async function startFakeOpenAi(options: FakeOpenAiOptions = {}): Promise<FakeOpenAi> {
  let models = options.models ?? DEFAULT_MODELS;
  const dialect = options.dialect ?? 'plain';
  const embedDim = options.embedDim ?? 16;
  const log = createRequestLog();
  const replies = createReplyScript<FakeOpenAiRequest, FakeOpenAiReply>(echoReply);
  const fault = createFaultSlot<FakeOpenAiFault>([CHAT_PATH]);
  let completions = 0;

  const findModel = (id: unknown) => models.find((m) => m.id === id);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { path, body, purpose } = await readJsonRequest(req, log);
    if (body === null) return sendError(res, 400, 'Invalid JSON in the request body', 'invalid_request_error');
    const route = `${req.method} ${path}`;

    if (options.apiKey !== undefined && path.startsWith('/v1/') && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      // As OpenAI does, the refusal quotes the key it got: a client must not pass this message on as it is.
      const got = (req.headers.authorization ?? '').replace(/^Bearer /, '');
      return sendError(res, 401, `Incorrect API key provided: ${got || '(none)'}.`, 'invalid_request_error', null, 'invalid_api_key');
    }
    if (route === 'GET /v1/models') return sendJson(res, 200, { object: 'list', data: models.map(modelEntry) });
    if (route.startsWith('GET /api/v0/models/') && dialect === 'lmstudio') {
      const model = findModel(decodeURIComponent(path.slice('/api/v0/models/'.length)));
      if (!model) return sendJson(res, 404, { error: 'Model not found' });
      return sendJson(res, 200, lmStudioEntry(model));
    }

    const currentFault = req.method === 'POST' ? fault.take(path) : null;
    if (currentFault?.kind === 'http-500') return sendError(res, 500, currentFault.message ?? 'Internal server error', 'server_error');
    if (currentFault?.kind === 'model-not-found') return sendModelNotFound(res, String(body.model));

    if (route === 'POST /v1/embeddings') {
      if (currentFault?.kind === 'slow-first-chunk' && !(await pause(res, currentFault.delayMs))) return;
      if (!findModel(body.model)) return sendModelNotFound(res, String(body.model));
      const input = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : null;
      if (!input || !input.every((s): s is string => typeof s === 'string')) return sendError(res, 400, "'input' must be a string or an array of strings", 'invalid_request_error', 'input');
      return sendJson(res, 200, {
        object: 'list',
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: embedText(text, embedDim) })),
        model: body.model,
        usage: { prompt_tokens: input.reduce((n, t) => n + countWords(t), 0), total_tokens: input.reduce((n, t) => n + countWords(t), 0) },
      });
    }
    if (route === `POST ${CHAT_PATH}`) {
      if (!findModel(body.model)) return sendModelNotFound(res, String(body.model));
      if (body.response_format !== undefined) {
        if (currentFault?.kind === 'reject-response-format') {
          return sendError(res, 400, "'response_format.type' must be 'json_schema' or 'text'", 'invalid_request_error', 'response_format');
        }
        const problem = responseFormatProblem(body.response_format);
        if (problem) return sendError(res, 400, problem, 'invalid_request_error', 'response_format');
      }
      if (options.toolsRefused && Array.isArray(body.tools) && body.tools.length > 0) {
        return sendError(res, 400, 'tools param requires --jinja flag', 'invalid_request_error', 'tools');
      }
      if (currentFault?.kind === 'context-exceeded') {
        return sendJson(res, 400, {
          error: { code: 400, message: 'the request exceeds the available context size, try increasing it', type: 'exceed_context_size_error', n_prompt_tokens: currentFault.nCtx + 100, n_ctx: currentFault.nCtx },
        });
      }
      const request: FakeOpenAiRequest = { model: String(body.model), messages: Array.isArray(body.messages) ? (body.messages as FakeOpenAiRequest['messages']) : [], body, purpose };
      return sendCompletion(res, request, replies.next(request), currentFault, `chatcmpl-${++completions}`);
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end(`Cannot ${req.method} ${path}`);
  }

  function modelEntry(model: FakeOpenAiModel) {
    const entry = { id: model.id, object: 'model', created: CREATED, owned_by: dialect === 'llama.cpp' ? 'llamacpp' : 'organization_owner' };
    if (dialect !== 'llama.cpp') return entry;
    return { ...entry, meta: { vocab_type: 2, n_vocab: 128256, n_ctx_train: model.contextLength ?? 32768, n_embd: 3072, n_params: model.params ?? 3.2e9, size: 2_019_377_376 } };
  }

  function lmStudioEntry(model: FakeOpenAiModel) {
    const loaded = model.loadedContextLength !== undefined;
    return {
      id: model.id,
      object: 'model',
      type: model.type ?? 'llm',
      publisher: 'lmstudio-community',
      arch: 'llama',
      compatibility_type: 'gguf',
      quantization: 'Q4_K_M',
      state: loaded ? 'loaded' : 'not-loaded',
      max_context_length: model.contextLength ?? 32768,
      ...(loaded ? { loaded_context_length: model.loadedContextLength } : {}),
    };
  }

  const server = await startLoopbackServer(handle, { errorBody: (err) => ({ error: { message: `fake-openai: ${String(err)}`, type: 'server_error' } }) });
  return {
    ...controlsOf(server, log, replies, fault),
    baseUrl: `${server.url}/v1`,
    setModels: (next) => {
      models = next;
    },
  };
}

function echoReply(request: FakeOpenAiRequest): FakeOpenAiReply {
  return { content: echoText(request.messages) };
}

/** What LM Studio and OpenAI check of response_format before they generate. */
function responseFormatProblem(format: unknown): string | null {
  const f = format as { type?: unknown; json_schema?: { name?: unknown; schema?: unknown } };
  if (f.type === 'json_object' || f.type === 'text') return null;
  if (f.type !== 'json_schema') return "'response_format.type' must be 'json_schema', 'json_object' or 'text'";
  if (typeof f.json_schema?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(f.json_schema.name)) return "'response_format.json_schema.name' is invalid";
  if (typeof f.json_schema.schema !== 'object' || f.json_schema.schema === null) return "'response_format.json_schema.schema' must be an object";
  return null;
}

async function sendCompletion(res: ServerResponse, request: FakeOpenAiRequest, reply: FakeOpenAiReply, fault: FakeOpenAiFault | null, id: string): Promise<void> {
  let contentChunks = reply.chunks ?? wordChunks(reply.content ?? '');
  const reasoningChunks = wordChunks(reply.reasoning ?? '');
  let finishReason = reply.finishReason ?? 'stop';
  if (fault?.kind === 'length-cut') {
    contentChunks = contentChunks.slice(0, fault.afterChunks ?? Math.ceil(contentChunks.length / 2));
    finishReason = 'length';
  }
  const usage = {
    prompt_tokens: reply.promptTokens ?? request.messages.reduce((n, m) => n + countWords(m.content ?? ''), 0),
    completion_tokens: reply.completionTokens ?? contentChunks.length + reasoningChunks.length,
  };
  const base = { id, created: CREATED, model: request.model, system_fingerprint: 'fake' };

  if (request.body.stream !== true) {
    if (fault?.kind === 'slow-first-chunk' && !(await pause(res, fault.delayMs))) return;
    if (fault?.kind === 'drop-connection') return void res.destroy();
    const message = { role: 'assistant', content: contentChunks.join(''), ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}) };
    return sendJson(res, 200, { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finishReason }], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });
  }

  const chunk = (delta: Record<string, unknown>, finish: string | null) => ({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
  const toolChunks = (reply.toolCalls ?? []).flatMap((c, index) => {
    const half = Math.ceil(c.arguments.length / 2);
    return [
      chunk({ tool_calls: [{ index, id: `call_${id}_${index}`, type: 'function', function: { name: c.name, arguments: c.arguments.slice(0, half) } }] }, null),
      chunk({ tool_calls: [{ index, function: { arguments: c.arguments.slice(half) } }] }, null),
    ];
  });
  const events: object[] = [
    chunk({ role: 'assistant', content: '' }, null),
    ...reasoningChunks.map((r) => chunk({ reasoning_content: r }, null)),
    ...contentChunks.map((c) => chunk({ content: c }, null)),
    ...toolChunks,
    chunk({}, toolChunks.length > 0 ? 'tool_calls' : finishReason),
  ];
  const includeUsage = (request.body.stream_options as { include_usage?: unknown } | undefined)?.include_usage === true;
  if (includeUsage) events.push({ ...base, object: 'chat.completion.chunk', choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } });

  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream');
  res.setHeader('Cache-Control', 'no-cache');
  if (fault?.kind === 'slow-first-chunk' && !(await pause(res, fault.delayMs))) return;
  const breaking = fault?.kind === 'error-mid-stream' || fault?.kind === 'drop-connection' ? fault : null;
  const breakAt = breaking ? Math.min(breaking.afterChunks ?? 2, events.length - 1) : -1;
  for (const [i, event] of events.entries()) {
    if (i === breakAt && breaking?.kind === 'error-mid-stream') {
      res.end(`data: ${JSON.stringify({ error: { code: 500, message: breaking.message ?? 'the model crashed', type: 'server_error' } })}\n\n`);
      return;
    }
    if (i === breakAt && breaking?.kind === 'drop-connection') {
      if (i === 0) res.flushHeaders();
      res.socket?.end();
      return;
    }
    if (i > 0 && (reply.delayMsPerChunk ?? 0) > 0 && !(await pause(res, reply.delayMsPerChunk!))) return;
    if (res.destroyed) return;
    res.write(`data: ${JSON.stringify(event)}\n\n`);
  }
  res.end('data: [DONE]\n\n');
}

function sendError(res: ServerResponse, status: number, message: string, type: string, param: string | null = null, code: string | null = null): void {
  sendJson(res, status, { error: { message, type, param, code } });
}

function sendModelNotFound(res: ServerResponse, model: string): void {
  sendError(res, 404, `The model \`${model}\` does not exist or is not loaded.`, 'invalid_request_error', 'model', 'model_not_found');
}
