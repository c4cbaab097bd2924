/**
 * A fake Ollama server for tests: speaks Ollama's real HTTP protocol on 127.0.0.1 so the real adapter (and the
 * real `ollama` client inside it) run unchanged against it. It fakes the model, never the wire.
 *
 * Wire format follows ollama/ollama server/routes.go: streaming endpoints answer `application/x-ndjson`, one JSON
 * object per line, the last with `done: true` (chat/generate) or `{"status":"success"}` (pull); errors before the
 * first line are an HTTP status with `{"error":"..."}`, errors after it are one `{"error":"..."}` line and the end
 * of the body. Durations are nanoseconds.
 *
 * Loading follows Ollama's scheduler (server/sched.go): a model runs with the num_ctx of the request that loaded it
 * (options.num_ctx, else the server default, never above the model's context length), and a request asking for
 * another num_ctx reloads it. A (re)load is recorded in `loads` and reported as a non-zero `load_duration`; a request
 * served by the loaded runner reports 0. The `think` field is checked as Ollama checks it: `think: true` to a model
 * without the "thinking" capability is a 400 "does not support thinking"; `think: false` to a thinking model keeps
 * its reasoning out of the reply. Tools as Ollama handles them: `tools` sent to a model without the "tools" capability is
 * a 400 "does not support tools"; a scripted reply with `toolCalls` streams them in one line of their own before the
 * last line, each `{ function: { name, arguments } }` with the arguments as an object (not a JSON string).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  controlsOf,
  countWords,
  createFaultSlot,
  createReplyScript,
  createRequestLog,
  echoText,
  embedText,
  holdUntil,
  pause,
  readJsonRequest,
  sendJson,
  startLoopbackServer,
  wordChunks,
  type FakeChatRequest,
  type FakeServerControls,
  type ReplySource,
} from './fake-server-kit';
import type { RequestPurpose } from '../support/request-kind';
import { createModelSlot, tokenPieces, type ModelSlot, type ModelSlotOptions, type SlotRecord } from './fake-model-slot';

export type { FakeRequestRecord } from './fake-server-kit';
export type { ModelSlotOptions, SlotRecord } from './fake-model-slot';

export interface FakeModel {
  /** Full name with tag, e.g. "llama3.2:latest". A name without a tag gets ":latest", as in Ollama. */
  name: string;
  family?: string;
  parameterSize?: string;
  sizeBytes?: number;
  /** Defaults to ['completion']. */
  capabilities?: string[];
  /** Overrides the server-wide contextLength for this model. */
  contextLength?: number;
  /** When it was pulled, as /api/tags and /api/show report it. Default 2025-01-01T00:00:00Z. */
  modifiedAt?: string;
}

export interface FakeReply {
  /** Answer text; split into word-sized chunks unless `chunks` is given. */
  content?: string;
  /** Exact answer chunks, in order (then `content` is ignored). */
  chunks?: string[];
  /** Sent as `message.thinking` chunks before the answer. */
  thinking?: string;
  /** done_reason of the last line. Default 'stop'. */
  doneReason?: string;
  /** prompt_eval_count. Default: a word count of the request's messages. */
  promptTokens?: number;
  /** eval_count. Default: the number of chunks sent. */
  evalTokens?: number;
  /** Pause before every chunk after the first. */
  delayMsPerChunk?: number;
  /** Tool calls the model asks for (chat only), after any content; `arguments` go on the wire as given (an object in Ollama). */
  toolCalls?: Array<{ name: string; arguments: unknown }>;
  /** The reply waits for this before its first line (a model still reading a long prompt), or until its client goes away. */
  hold?: Promise<unknown>;
}

/** For /api/generate, `messages` is one user message holding `prompt` (and one system message when `system` is set). */
export interface FakeInferenceRequest extends FakeChatRequest {
  path: '/api/chat' | '/api/generate';
}

export type FakeReplySource = ReplySource<FakeInferenceRequest, FakeReply>;

export type FakeFault = (
  | { kind: 'slow-first-token'; delayMs: number }
  | { kind: 'error-mid-stream'; afterChunks?: number; message?: string }
  | { kind: 'model-not-found' }
  | { kind: 'http-500'; message?: string }
  | { kind: 'malformed-line'; afterChunks?: number }
  | { kind: 'drop-connection'; afterChunks?: number }
  | { kind: 'length-cut'; afterChunks?: number }
) & {
  /** Keep the fault for every matching request until setFault(null). Default: the next matching request only. */
  sticky?: boolean;
  /**
   * Which endpoints it hits. Default: ['/api/chat', '/api/generate']. '/api/pull' takes the streaming faults too;
   * '/api/show' and '/api/embed' take model-not-found, http-500, slow-first-token and drop-connection.
   */
  paths?: string[];
};

export interface FakeLoad {
  model: string;
  numCtx: number;
  /** True when the model was loaded already, with another num_ctx. */
  reload: boolean;
}

export interface FakeOllamaOptions {
  models?: FakeModel[];
  /** Reported as "<family>.context_length" by /api/show. Default 4096. */
  contextLength?: number;
  /** The num_ctx of a request that sends none (Ollama's default, OLLAMA_CONTEXT_LENGTH). Default 4096. */
  defaultNumCtx?: number;
  /** Length of /api/embed vectors. Default 16. */
  embedDim?: number;
  /** How /api/embed turns a text into a vector of `embedDim`. Default: a hash (only equal texts are similar). */
  embed?: (text: string, dim: number) => number[];
  /** Reported by /api/version. Before 0.6.4, /api/show has no `capabilities` field, as in Ollama. */
  version?: string;
  /**
   * A laptop's one model slot (fake-model-slot.ts): chat/generate requests are served one at a time, first come first
   * served, and take model time for their tokens; the reply streams token by token (the model's tokens, not words),
   * options.num_predict cuts it with done_reason "length", and the last line's durations are the measured model time
   * in wall-clock nanoseconds, as this process lived them (total_duration includes the wait, as Ollama's does).
   * A scripted reply's promptTokens, evalTokens and delayMsPerChunk are then ignored: the slot counts and paces.
   * Without it, replies are instant and requests run side by side.
   */
  slot?: ModelSlotOptions;
}

/** stop() also unloads the models, as an Ollama that goes away does. */
export interface FakeOllama extends FakeServerControls<FakeInferenceRequest, FakeReply, FakeFault> {
  readonly port: number;
  /** Every time a chat/generate request made the fake load a model or reload it with another num_ctx (live array). */
  readonly loads: FakeLoad[];
  /** With `slot`: every chat/generate request as the slot served it, in arrival order (live array); else empty. */
  readonly slotLog: SlotRecord[];
  setModels(models: FakeModel[]): void;
}

type ModelEntry = Required<Omit<FakeModel, 'contextLength'>> & Pick<FakeModel, 'contextLength'>;

const INFERENCE_PATHS = ['/api/chat', '/api/generate'];
const DEFAULT_MODELS: FakeModel[] = [
  { name: 'llama3.2:latest', family: 'llama', parameterSize: '3.2B', capabilities: ['completion', 'tools'] },
  { name: 'qwen3:4b', family: 'qwen3', parameterSize: '4.0B', capabilities: ['completion', 'tools', 'thinking'] },
  { name: 'nomic-embed-text:latest', family: 'nomic-bert', parameterSize: '137M', capabilities: ['embedding'] },
];
const MS = 1_000_000;
/** Chat-template tokens around each message (Llama 3: <|start_header_id|>role<|end_header_id|> ... <|eot_id|>). */
const TEMPLATE_TOKENS_PER_MESSAGE = 4;

export async function startFakeOllama(options: FakeOllamaOptions = {}): Promise<FakeOllama> {
  let models = (options.models ?? DEFAULT_MODELS).map(normalizeModel);
  const contextLength = options.contextLength ?? 4096;
  const defaultNumCtx = options.defaultNumCtx ?? 4096;
  const loads: FakeLoad[] = [];
  /** Loaded runners: model name -> the num_ctx they were loaded with. */
  const loaded = new Map<string, number>();
  const embedDim = options.embedDim ?? 16;
  const version = options.version ?? '0.12.6';
  const log = createRequestLog();
  const replies = createReplyScript<FakeInferenceRequest, FakeReply>(echoReply);
  const fault = createFaultSlot<FakeFault>(INFERENCE_PATHS);
  const slot = options.slot ? createModelSlot(options.slot) : null;

  const findModel = (name: unknown) =>
    typeof name === 'string' ? models.find((m) => m.name === withTag(name)) : undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { path, body, purpose } = await readJsonRequest(req, log);
    if (body === null) return sendJson(res, 400, { error: 'invalid character in request body' });
    const route = `${req.method} ${path}`;

    if (route === 'GET /' || route === 'HEAD /') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end(req.method === 'HEAD' ? undefined : 'Ollama is running');
    }
    if (route === 'GET /api/version') return sendJson(res, 200, { version });
    if (route === 'GET /api/tags') return sendJson(res, 200, { models: models.map(tagEntry) });

    const currentFault = req.method === 'POST' ? fault.take(path) : null;
    if (currentFault?.kind === 'model-not-found') return sendNotFound(res, String(body.model ?? body.name ?? ''));
    if (currentFault?.kind === 'http-500') {
      return sendJson(res, 500, { error: currentFault.message ?? 'llama runner process has terminated: exit status 2' });
    }
    if (route === 'POST /api/show' || route === 'POST /api/embed') {
      // Single-object answers: a slow model or a crash shows up before the one response.
      if (currentFault?.kind === 'slow-first-token' && !(await pause(res, currentFault.delayMs))) return;
      if (currentFault?.kind === 'drop-connection') return void res.destroy();
    }

    if (route === 'POST /api/show') {
      const model = findModel(body.model ?? body.name);
      if (!model) return sendJson(res, 404, { error: `model '${String(body.model ?? body.name)}' not found` });
      return sendJson(res, 200, showEntry(model, contextLength, reportsCapabilities(version)));
    }
    if (route === 'POST /api/embed') {
      const model = findModel(body.model);
      if (!model) return sendNotFound(res, String(body.model));
      const input = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) ? body.input : [];
      if (!input.every((s): s is string => typeof s === 'string')) return sendJson(res, 400, { error: 'invalid input type' });
      return sendJson(res, 200, {
        model: body.model,
        embeddings: input.map((text) => (options.embed ?? embedText)(text, embedDim)),
        total_duration: 5 * MS,
        load_duration: 1 * MS,
        prompt_eval_count: input.reduce((n, text) => n + countWords(text), 0),
      });
    }
    if (route === 'POST /api/pull') {
      const name = withTag(String(body.model ?? body.name ?? ''));
      const install = () => {
        if (!findModel(name)) models = [...models, normalizeModel({ name })];
      };
      if (body.stream === false) {
        install();
        return sendJson(res, 200, { status: 'success' });
      }
      if (await streamLines(res, pullLines(name), { fault: currentFault, pace: () => true })) install();
      return;
    }
    if (route === 'POST /api/chat' || route === 'POST /api/generate') {
      const model = findModel(body.model);
      if (!model) return sendNotFound(res, String(body.model));
      const thinks = model.capabilities.includes('thinking');
      if (!thinks && body.think !== undefined && body.think !== false && body.think !== null) {
        return sendJson(res, 400, { error: `"${String(body.model)}" does not support thinking` });
      }
      if (Array.isArray(body.tools) && body.tools.length > 0 && !model.capabilities.includes('tools')) {
        return sendJson(res, 400, { error: `registry.ollama.ai/library/${String(body.model)} does not support tools` });
      }
      const request = toInferenceRequest(path as FakeInferenceRequest['path'], body, purpose);
      const reply = replies.next(request);
      const loadNs = schedule(model, body.options);
      return sendInference(res, request, thinks && body.think === false ? { ...reply, thinking: '' } : reply, currentFault, loadNs, slot);
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('404 page not found');
  }

  /** Ollama's scheduler, reduced to num_ctx: returns the load_duration this request reports. */
  function schedule(model: ModelEntry, requestOptions: unknown): number {
    const asked = (requestOptions as { num_ctx?: unknown } | undefined)?.num_ctx;
    // Ollama caps a num_ctx above the model's trained context ("requested context size too large for model").
    const numCtx = Math.min(typeof asked === 'number' && asked > 0 ? asked : defaultNumCtx, model.contextLength ?? contextLength);
    const current = loaded.get(model.name);
    if (current === numCtx) return 0;
    loaded.set(model.name, numCtx);
    loads.push({ model: model.name, numCtx, reload: current !== undefined });
    return 200 * MS;
  }

  // An Ollama that goes away unloads its models.
  const server = await startLoopbackServer(handle, { onStop: () => loaded.clear(), errorBody: (err) => ({ error: `fake-ollama: ${String(err)}` }) });

  return {
    ...controlsOf(server, log, replies, fault),
    port: server.port,
    loads,
    slotLog: slot?.log ?? [],
    setModels: (next) => {
      models = next.map(normalizeModel);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Replies

function echoReply(request: FakeInferenceRequest): FakeReply {
  return { content: echoText(request.messages) };
}

function toInferenceRequest(path: FakeInferenceRequest['path'], body: Record<string, unknown>, purpose: RequestPurpose | null): FakeInferenceRequest {
  const model = String(body.model);
  if (path === '/api/chat') {
    const messages = Array.isArray(body.messages) ? (body.messages as { role: string; content: string }[]) : [];
    return { path, model, messages, body, purpose };
  }
  const messages = [];
  if (typeof body.system === 'string') messages.push({ role: 'system', content: body.system });
  messages.push({ role: 'user', content: typeof body.prompt === 'string' ? body.prompt : '' });
  return { path, model, messages, body, purpose };
}

async function sendInference(
  res: ServerResponse,
  request: FakeInferenceRequest,
  reply: FakeReply,
  fault: FakeFault | null,
  loadNs: number,
  slot: ModelSlot | null,
): Promise<void> {
  const isChat = request.path === '/api/chat';
  // In the one-slot mode the model writes one token at a time, so the reply goes out in the model's tokens.
  const text = reply.chunks?.join('') ?? reply.content ?? '';
  let thinkingChunks = slot ? tokenPieces(reply.thinking ?? '') : wordChunks(reply.thinking ?? '');
  let contentChunks = slot ? tokenPieces(text) : (reply.chunks ?? wordChunks(text));
  let toolCalls = reply.toolCalls ?? [];
  let doneReason = reply.doneReason ?? 'stop';
  const numPredict = slot ? outputCap(request.body) : null;
  if (numPredict !== null && thinkingChunks.length + contentChunks.length > numPredict) {
    // Thinking is output too; the cut falls wherever the count runs out, and tool calls the model never finished
    // writing are lost (Ollama parses them out of the written text).
    thinkingChunks = thinkingChunks.slice(0, numPredict);
    contentChunks = contentChunks.slice(0, numPredict - thinkingChunks.length);
    toolCalls = [];
    doneReason = 'length';
  }
  if (fault?.kind === 'length-cut') {
    contentChunks = contentChunks.slice(0, fault.afterChunks ?? Math.ceil(contentChunks.length / 2));
    doneReason = 'length';
  }
  const created = () => new Date().toISOString();
  const piece = (content: string, thinking: string) =>
    isChat
      ? { model: request.model, created_at: created(), message: { role: 'assistant', content, ...(thinking ? { thinking } : {}) }, done: false }
      : { model: request.model, created_at: created(), response: content, ...(thinking ? { thinking } : {}), done: false };
  const pieces: object[] = [...thinkingChunks.map((t) => piece('', t)), ...contentChunks.map((c) => piece(c, ''))];
  /** Output tokens each line costs the model (one-slot mode): one a piece, a tool call line what its JSON spells. */
  const costs = pieces.map(() => 1);
  if (isChat && toolCalls.length) {
    pieces.push({
      model: request.model,
      created_at: created(),
      message: { role: 'assistant', content: '', tool_calls: toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) },
      done: false,
    });
    costs.push(tokenPieces(JSON.stringify(toolCalls)).length);
  }

  const turn = slot ? await slot.enter(res, { path: request.path, body: request.body, purpose: request.purpose, promptTokens: promptTokensOf(request) }) : null;
  if (slot && !turn) return;
  // The last line is built when it goes out: in the one-slot mode its durations are the model time measured so far.
  const last = () => {
    const evalCount = turn ? turn.record.outputTokens : (reply.evalTokens ?? pieces.length);
    const ns = turn?.durationsNs();
    const stats = {
      done: true,
      done_reason: doneReason,
      total_duration: ns ? ns.total + loadNs : (250 + evalCount * 20) * MS,
      load_duration: loadNs,
      prompt_eval_count: turn ? turn.record.promptTokens : (reply.promptTokens ?? request.messages.reduce((n, m) => n + countWords(m.content), 0)),
      prompt_eval_duration: ns ? ns.promptEval : 30 * MS,
      eval_count: evalCount,
      eval_duration: ns ? ns.eval : evalCount * 20 * MS,
    };
    return isChat
      ? { model: request.model, created_at: created(), message: { role: 'assistant', content: '' }, ...stats }
      : { model: request.model, created_at: created(), response: '', ...stats };
  };

  try {
    if (turn && !(await turn.readPrompt())) return;
    if (reply.hold && !(await holdUntil(res, reply.hold))) return;
    if (request.body.stream === false) {
      // Ollama's non-streaming path collects the whole reply first, so faults show up as a failed request.
      if (fault?.kind === 'slow-first-token' && !(await pause(res, fault.delayMs))) return;
      if (fault?.kind === 'drop-connection') return void res.destroy();
      if (fault?.kind === 'error-mid-stream') return sendJson(res, 500, { error: fault.message ?? 'an error was encountered while running the model' });
      if (fault?.kind === 'malformed-line') {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
        return void res.end('{"model":');
      }
      if (turn && !(await turn.write(costs.reduce((a, b) => a + b, 0)))) return;
      const content = contentChunks.join('');
      const thinking = thinkingChunks.join('');
      const whole = last();
      sendJson(res, 200, isChat
        ? { ...whole, message: { role: 'assistant', content, ...(thinking ? { thinking } : {}) } }
        : { ...whole, response: content, ...(thinking ? { thinking } : {}) });
      return turn?.end(doneReason);
    }
    const delayMs = reply.delayMsPerChunk ?? 0;
    const pace = turn ? (i: number) => turn.write(costs[i] ?? 0) : (i: number) => i === 0 || delayMs <= 0 || pause(res, delayMs);
    if (await streamLines(res, [...pieces, last], { fault, pace })) turn?.end(doneReason);
  } finally {
    // A reply that did not complete (its client went away, a fault broke it) gives the slot back as cancelled.
    turn?.end();
  }
}

/** options.num_predict, the most output tokens the request allows; null when unlimited (absent, or -1 / -2 as in Ollama). */
function outputCap(body: Record<string, unknown>): number | null {
  const asked = (body.options as { num_predict?: unknown } | undefined)?.num_predict;
  return typeof asked === 'number' && asked >= 0 ? asked : null;
}

/**
 * The prompt the model reads, in its tokens: every message with its chat-template markers (about 4 tokens:
 * role header and end-of-turn), and the tool definitions, which the template writes into the prompt.
 */
function promptTokensOf(request: FakeInferenceRequest): number {
  const tools = Array.isArray(request.body.tools) && request.body.tools.length > 0 ? tokenPieces(JSON.stringify(request.body.tools)).length : 0;
  return request.messages.reduce((n, m) => n + tokenPieces(m.content).length + TEMPLATE_TOKENS_PER_MESSAGE, tools);
}

/**
 * Writes NDJSON lines, applying a streaming fault; stops quietly when the client goes away. `pace` runs before each
 * line (a delay, or the model writing it) and answers false when the client went away meanwhile; a line given as a
 * function is built only when it goes out. Resolves true when every line went out.
 */
async function streamLines(
  res: ServerResponse,
  lines: Array<object | (() => object)>,
  { fault, pace }: { fault: FakeFault | null; pace: (line: number) => boolean | Promise<boolean> },
): Promise<boolean> {
  // Like Ollama (gin's c.Stream), headers go out with the first line, so a slow first token also delays them.
  res.statusCode = 200;
  res.setHeader('Content-Type', 'application/x-ndjson');
  if (fault?.kind === 'slow-first-token' && !(await pause(res, fault.delayMs))) return false;
  const breaking =
    fault?.kind === 'error-mid-stream' || fault?.kind === 'malformed-line' || fault?.kind === 'drop-connection' ? fault : null;
  const breakAt = breaking ? Math.min(breaking.afterChunks ?? 2, lines.length - 1) : -1;
  for (const [i, line] of lines.entries()) {
    if (i === breakAt && breaking) {
      if (breaking.kind === 'error-mid-stream') {
        res.end(`${JSON.stringify({ error: breaking.message ?? 'an error was encountered while running the model' })}\n`);
        return false;
      }
      if (breaking.kind === 'malformed-line') res.write('{"model":"broken","message":{"role":"assis\n');
      if (breaking.kind === 'drop-connection') {
        // end() on the socket, not the response: what was written is delivered, then the connection closes with
        // the chunked body unfinished, which is what a crashed or killed server looks like to the client.
        if (i === 0) res.flushHeaders();
        res.socket?.end();
        return false;
      }
    }
    if (!(await pace(i))) return false;
    if (res.destroyed) return false;
    res.write(`${JSON.stringify(typeof line === 'function' ? line() : line)}\n`);
  }
  res.end();
  return true;
}

function pullLines(name: string): object[] {
  const layers = [
    { digest: `sha256:${sha256Hex(`${name}#model`)}`, total: 2_019_377_376 },
    { digest: `sha256:${sha256Hex(`${name}#template`)}`, total: 1_429 },
  ];
  const lines: object[] = [{ status: 'pulling manifest' }];
  for (const { digest, total } of layers) {
    const status = `pulling ${digest.slice(7, 19)}`;
    lines.push({ status, digest, total });
    for (const part of [1, 2, 3, 4]) lines.push({ status, digest, total, completed: Math.floor((total * part) / 4) });
  }
  lines.push({ status: 'verifying sha256 digest' }, { status: 'writing manifest' }, { status: 'success' });
  return lines;
}

// ---------------------------------------------------------------------------------------------------------------
// Model metadata

function normalizeModel(model: FakeModel): ModelEntry {
  return {
    name: withTag(model.name),
    family: model.family ?? 'llama',
    parameterSize: model.parameterSize ?? '3.2B',
    sizeBytes: model.sizeBytes ?? 2_019_393_189,
    capabilities: model.capabilities ?? ['completion'],
    modifiedAt: model.modifiedAt ?? '2025-01-01T00:00:00Z',
    ...(model.contextLength === undefined ? {} : { contextLength: model.contextLength }),
  };
}

function withTag(name: string): string {
  const lastSegment = name.slice(name.lastIndexOf('/') + 1);
  return lastSegment.includes(':') ? name : `${name}:latest`;
}

function details(model: ModelEntry) {
  return {
    parent_model: '',
    format: 'gguf',
    family: model.family,
    families: [model.family],
    parameter_size: model.parameterSize,
    quantization_level: 'Q4_K_M',
  };
}

function tagEntry(model: ModelEntry) {
  return {
    name: model.name,
    model: model.name,
    modified_at: model.modifiedAt,
    size: model.sizeBytes,
    digest: sha256Hex(model.name),
    details: details(model),
  };
}

/** Ollama 0.6.4 added `capabilities` to /api/show (ollama/ollama#10066). */
function reportsCapabilities(version: string): boolean {
  const [major = 0, minor = 0, patch = 0] = version.split('.').map((n) => parseInt(n, 10) || 0);
  return major > 0 || minor > 6 || (minor === 6 && patch >= 4);
}

function showEntry(model: ModelEntry, contextLength: number, withCapabilities: boolean) {
  return {
    license: '',
    modelfile: `# Modelfile generated by "ollama show"\nFROM ${model.name}\n`,
    parameters: 'stop                           "<|eot_id|>"',
    template: '{{ .Prompt }}',
    details: details(model),
    model_info: {
      'general.architecture': model.family,
      'general.parameter_count': 3_212_749_888,
      [`${model.family}.context_length`]: model.contextLength ?? contextLength,
      [`${model.family}.embedding_length`]: 3072,
    },
    ...(withCapabilities ? { capabilities: model.capabilities } : {}),
    modified_at: model.modifiedAt,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function sendNotFound(res: ServerResponse, model: string): void {
  sendJson(res, 404, { error: `model "${model}" not found, try pulling it first` });
}
