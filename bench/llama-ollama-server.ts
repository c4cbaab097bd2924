/**
 * A minimal Ollama-compatible HTTP server on 127.0.0.1 around one GGUF model run by node-llama-cpp on the CPU, for
 * the optional real-model extraction evaluation (bench/suites/extraction-quality-real.bench.ts). Bench-only: never
 * part of the app, `npm test` or CI.
 *
 * It serves what Mnemo's Ollama adapter calls on the way to an extraction: GET / , /api/version, /api/tags,
 * POST /api/show (context length and capabilities ["completion"]) and POST /api/chat, streamed as NDJSON or whole
 * (`stream: false`), honouring `format` (a JSON schema, or "json") through llama.cpp's grammar-constrained sampling,
 * `options.num_ctx`, `num_predict`, `temperature` and `seed`. Anything else answers 404, as a model Ollama lacks does.
 *
 * node-llama-cpp is loaded from the folder the prepare script installed it into (scripts/prepare-eval-llm.sh), by
 * absolute path: the project never depends on it, so nothing here may import it (or its types) statically.
 * Requests run one at a time on one context sequence; like Ollama, a request with another num_ctx reloads the context.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The few node-llama-cpp (3.x) calls used here, typed by hand since its types may not be imported. */
interface LlamaModule {
  getLlama(options: { gpu: false; build: 'never'; logLevel: string }): Promise<Llama>;
  LlamaChat: new (options: { contextSequence: unknown }) => LlamaChatInstance;
}
interface Llama {
  loadModel(options: { modelPath: string }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: unknown): Promise<unknown>;
  getGrammarFor(type: 'json'): Promise<unknown>;
  dispose(): Promise<void>;
}
interface LlamaModel {
  readonly trainContextSize: number;
  readonly size: number;
  tokenize(text: string): unknown[];
  createContext(options: { contextSize: number; threads: number }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}
interface LlamaContext {
  getSequence(): unknown;
  dispose(): Promise<void>;
}
type HistoryItem = { type: 'system'; text: string } | { type: 'user'; text: string } | { type: 'model'; response: string[] };
interface LlamaChatInstance {
  generateResponse(
    history: HistoryItem[],
    options: { grammar?: unknown; maxTokens?: number; temperature?: number; seed?: number; signal?: AbortSignal; onTextChunk?: (text: string) => void },
  ): Promise<{ response: string; metadata: { stopReason: string } }>;
  dispose(): void;
}

export interface LlamaOllamaServerOptions {
  /** The folder whose node_modules holds node-llama-cpp (the prepare script's runtime folder). */
  runtimeDir: string;
  modelPath: string;
  /** The name /api/tags lists and /api/chat answers to, e.g. "gemma3:270m". */
  modelName: string;
  /** CPU threads for inference (default 1: the evaluation must not take the machine). */
  threads?: number;
}

export interface LlamaOllamaServer {
  readonly url: string;
  /** Requests to /api/chat served, and the time spent generating (ms). */
  readonly stats: { chats: number; generationMs: number; contextLoads: number };
  close(): Promise<void>;
}

const DEFAULT_NUM_CTX = 4096;
const MS = 1_000_000;

export async function startLlamaOllamaServer(options: LlamaOllamaServerOptions): Promise<LlamaOllamaServer> {
  const entry = path.join(options.runtimeDir, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');
  const lib = (await import(pathToFileURL(entry).href)) as LlamaModule;
  const llama = await lib.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  const model = await llama.loadModel({ modelPath: options.modelPath });
  const threads = options.threads ?? 1;
  const name = options.modelName;
  const stats = { chats: 0, generationMs: 0, contextLoads: 0 };
  const grammars = new Map<string, Promise<unknown>>();
  let loaded: { numCtx: number; context: LlamaContext; chat: LlamaChatInstance } | null = null;
  // One sequence: requests wait their turn, as on an Ollama runner with OLLAMA_NUM_PARALLEL=1.
  let turn: Promise<unknown> = Promise.resolve();

  async function chatFor(numCtx: number): Promise<LlamaChatInstance> {
    if (loaded?.numCtx === numCtx) return loaded.chat;
    if (loaded) {
      loaded.chat.dispose();
      await loaded.context.dispose();
    }
    const context = await model.createContext({ contextSize: numCtx, threads });
    loaded = { numCtx, context, chat: new lib.LlamaChat({ contextSequence: context.getSequence() }) };
    stats.contextLoads++;
    return loaded.chat;
  }

  function grammarFor(format: unknown): Promise<unknown> | undefined {
    if (format === undefined || format === null || format === '') return undefined;
    const key = JSON.stringify(format);
    let grammar = grammars.get(key);
    if (!grammar) {
      grammar = format === 'json' ? llama.getGrammarFor('json') : llama.createGrammarForJsonSchema(format);
      grammars.set(key, grammar);
    }
    return grammar;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const route = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`;
    if (route === 'GET /' || route === 'HEAD /') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      return void res.end(req.method === 'HEAD' ? undefined : 'Ollama is running');
    }
    if (route === 'GET /api/version') return sendJson(res, 200, { version: '0.12.6' });
    if (route === 'GET /api/tags') {
      return sendJson(res, 200, { models: [{ name, model: name, modified_at: new Date(0).toISOString(), size: model.size, digest: '', details: modelDetails() }] });
    }
    if (req.method !== 'POST') return sendJson(res, 404, { error: '404 page not found' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, { error: 'invalid character in request body' });
    }
    const asked = String(body.model ?? body.name ?? '');
    if (route === 'POST /api/show' || route === 'POST /api/chat') {
      if (asked !== name && `${asked}:latest` !== name) return sendJson(res, 404, { error: `model '${asked}' not found` });
    }
    if (route === 'POST /api/show') {
      return sendJson(res, 200, {
        details: modelDetails(),
        model_info: { 'general.architecture': 'gemma3', 'gemma3.context_length': model.trainContextSize },
        capabilities: ['completion'],
      });
    }
    if (route === 'POST /api/chat') {
      const run = turn.then(() => chat(body, req, res));
      turn = run.catch(() => undefined);
      return run;
    }
    return sendJson(res, 404, { error: '404 page not found' });
  }

  async function chat(body: Record<string, unknown>, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const opts = (body.options ?? {}) as { num_ctx?: number; num_predict?: number; temperature?: number; seed?: number };
    const stream = body.stream !== false;
    const history = toHistory(body.messages);
    const started = process.hrtime.bigint();
    const aborter = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) aborter.abort();
    });
    let grammar: unknown;
    try {
      grammar = await grammarFor(body.format);
    } catch (err) {
      return sendJson(res, 400, { error: `unsupported format: ${err instanceof Error ? err.message : String(err)}` });
    }
    const session = await chatFor(typeof opts.num_ctx === 'number' && opts.num_ctx > 0 ? Math.min(opts.num_ctx, model.trainContextSize) : DEFAULT_NUM_CTX);
    const created = () => new Date().toISOString();
    if (stream) {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
      res.flushHeaders();
    }
    let result: { response: string; metadata: { stopReason: string } };
    try {
      result = await session.generateResponse(history, {
        ...(grammar === undefined ? {} : { grammar }),
        ...(typeof opts.num_predict === 'number' && opts.num_predict > 0 ? { maxTokens: opts.num_predict } : {}),
        ...(typeof opts.temperature === 'number' ? { temperature: opts.temperature } : {}),
        ...(typeof opts.seed === 'number' ? { seed: opts.seed } : {}),
        signal: aborter.signal,
        onTextChunk: (text) => {
          if (stream && text) res.write(`${JSON.stringify({ model: name, created_at: created(), message: { role: 'assistant', content: text }, done: false })}\n`);
        },
      });
    } catch (err) {
      if (aborter.signal.aborted || req.destroyed) return;
      const error = `llama runner failed: ${err instanceof Error ? err.message : String(err)}`;
      return stream ? void res.end(`${JSON.stringify({ error })}\n`) : sendJson(res, 500, { error });
    }
    const ns = Number(process.hrtime.bigint() - started);
    stats.chats++;
    stats.generationMs += ns / MS;
    const last = {
      model: name,
      created_at: created(),
      message: { role: 'assistant', content: stream ? '' : result.response },
      done: true,
      done_reason: result.metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
      total_duration: ns,
      load_duration: 0,
      eval_count: model.tokenize(result.response).length,
      eval_duration: ns,
    };
    if (!stream) return sendJson(res, 200, last);
    res.end(`${JSON.stringify(last)}\n`);
  }

  function modelDetails() {
    return { format: 'gguf', family: 'gemma3', families: ['gemma3'], parameter_size: '268M', quantization_level: 'Q4_K_M' };
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: err instanceof Error ? err.message : String(err) });
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await turn;
      if (loaded) {
        loaded.chat.dispose();
        await loaded.context.dispose();
      }
      await model.dispose();
      await llama.dispose();
    },
  };
}

/** Ollama's messages as node-llama-cpp's chat history; the model's chat template (from the GGUF) formats them. */
function toHistory(messages: unknown): HistoryItem[] {
  const list = Array.isArray(messages) ? (messages as Array<{ role?: unknown; content?: unknown }>) : [];
  return list.map((m): HistoryItem => {
    const text = typeof m.content === 'string' ? m.content : '';
    if (m.role === 'system') return { type: 'system', text };
    if (m.role === 'assistant') return { type: 'model', response: [text] };
    return { type: 'user', text };
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(value));
}
