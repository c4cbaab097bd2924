/**
 * What the fake model servers (fake-ollama.ts, fake-openai.ts) share: a real HTTP listener on 127.0.0.1 that can go
 * away and come back on the same port, a log of requests tests can wait on, and the fake "model": deterministic
 * embeddings, word-sized reply chunks, pauses that end when the client disconnects.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { requestPurpose, type RequestPurpose } from '../support/request-kind';

export interface FakeRequestRecord {
  method: string;
  path: string;
  /** Parsed JSON body, or undefined for bodiless requests. */
  body: unknown;
  /** Request headers, lower-cased names. */
  headers: Record<string, string | string[] | undefined>;
  /** What the request said it is for (its purpose header): route by this, never by a prompt's wording. */
  purpose: RequestPurpose | null;
}

export interface RequestLog {
  /** Every request received, in arrival order (live array). */
  readonly requests: FakeRequestRecord[];
  record(entry: FakeRequestRecord): void;
  /** Resolves when the next request (on `path`, if given) arrives, so tests can act mid-request without sleeping. */
  nextRequest(path?: string): Promise<FakeRequestRecord>;
}

export function createRequestLog(): RequestLog {
  const requests: FakeRequestRecord[] = [];
  let waiters: { path: string | undefined; resolve: (r: FakeRequestRecord) => void }[] = [];
  return {
    requests,
    record(entry) {
      requests.push(entry);
      const ready = waiters.filter((w) => w.path === undefined || w.path === entry.path);
      waiters = waiters.filter((w) => !ready.includes(w));
      for (const w of ready) w.resolve(entry);
    },
    nextRequest: (path) => new Promise((resolve) => waiters.push({ path, resolve })),
  };
}

export interface LoopbackServer {
  readonly url: string;
  readonly port: number;
  /** Closes the listener and every open connection (a server that goes away drops its streams too). */
  stop(): Promise<void>;
  /** Listens again on the same port after stop(). */
  restart(): Promise<void>;
}

/** Serves `handle` on 127.0.0.1 (a free port); a handler that throws answers 500, or drops a started response. */
export async function startLoopbackServer(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  hooks: { onStop?: () => void; errorBody?: (err: unknown) => unknown } = {},
): Promise<LoopbackServer> {
  let server: Server | null = null;
  let port = 0;

  async function listen(): Promise<void> {
    const s = createServer((req, res) => {
      handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, hooks.errorBody?.(err) ?? { error: String(err) });
        else res.destroy();
      });
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => {
        s.off('error', reject);
        resolve();
      });
    });
    port = (s.address() as AddressInfo).port;
    server = s;
  }

  async function stop(): Promise<void> {
    const s = server;
    if (!s) return;
    server = null;
    hooks.onStop?.();
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    s.closeAllConnections();
    await closed;
  }

  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop,
    restart: async () => {
      if (!server) await listen();
    },
  };
}

/** Waits, unless the client disconnects first (then returns false so the writer stops). */
export async function pause(res: ServerResponse, ms: number): Promise<boolean> {
  if (res.destroyed) return false;
  const gone = new AbortController();
  const onClose = () => gone.abort();
  res.once('close', onClose);
  try {
    await sleep(ms, undefined, { signal: gone.signal });
    return true;
  } catch {
    return false;
  } finally {
    res.off('close', onClose);
  }
}

/** Waits until `released` settles, unless the client disconnects first (then returns false so the writer stops). */
export async function holdUntil(res: ServerResponse, released: Promise<unknown>): Promise<boolean> {
  if (res.destroyed) return false;
  let onClose = () => {};
  const gone = new Promise<boolean>((resolve) => {
    onClose = () => resolve(false);
    res.once('close', onClose);
  });
  try {
    return await Promise.race([released.then(() => true, () => true), gone]);
  } finally {
    res.off('close', onClose);
  }
}

/** Deterministic unit vector from a hash of the text: equal texts embed equally, different texts almost never do. */
export function embedText(text: string, dim: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dim; block++) {
    const bytes = createHash('sha256').update(`${block}:${text}`).digest();
    for (let i = 0; i + 1 < bytes.length && values.length < dim; i += 2) values.push(bytes.readUInt16BE(i) / 32767.5 - 1);
  }
  const norm = Math.sqrt(values.reduce((sum, v) => sum + v * v, 0)) || 1;
  return values.map((v) => v / norm);
}

/** Word-sized pieces that keep their spaces, so joining them gives the text back. */
export function wordChunks(text: string): string[] {
  return text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);
}

export function countWords(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** An inference request as a fake's reply callback sees it (each fake adds its own fields). */
export interface FakeChatRequest {
  model: string;
  messages: { role: string; content: string }[];
  body: Record<string, unknown>;
  /** What the core said the request is for ('chat', 'title', 'extract'…): route replies by this. */
  purpose: RequestPurpose | null;
}

/** A reply the test gives, or builds from the request. */
export type ReplySource<Request, Reply> = Reply | ((request: Request) => Reply);

/** Replies scripted by a test: the queued ones in order, then the default the test set, then the fake's own echo. */
export function createReplyScript<Request, Reply extends object>(echo: (request: Request) => Reply) {
  const queue: ReplySource<Request, Reply>[] = [];
  let fallback: ReplySource<Request, Reply> | null = null;
  return {
    script: (...replies: ReplySource<Request, Reply>[]) => void queue.push(...replies),
    setDefaultReply: (reply: ReplySource<Request, Reply> | null) => void (fallback = reply),
    next(request: Request): Reply {
      const source = queue.shift() ?? fallback ?? echo;
      return typeof source === 'function' ? source(request) : source;
    },
  };
}

/** A fault a test sets: taken by the next request to one of its paths, or by every one while it is sticky. */
export function createFaultSlot<Fault extends { sticky?: boolean; paths?: string[] }>(defaultPaths: string[]) {
  let fault: Fault | null = null;
  return {
    set: (next: Fault | null) => void (fault = next),
    take(path: string): Fault | null {
      if (!fault || !(fault.paths ?? defaultPaths).includes(path)) return null;
      const taken = fault;
      if (!taken.sticky) fault = null;
      return taken;
    },
  };
}

/** What a test does with any fake model server. */
export interface FakeServerControls<Request, Reply, Fault> {
  /** e.g. http://127.0.0.1:40123 (the same across stop()/restart()). */
  readonly url: string;
  /** Every request received, in arrival order (live array). */
  readonly requests: FakeRequestRecord[];
  /** Shuts down for good: closes the listener and every open connection. */
  close(): Promise<void>;
  /** Simulates the server not running: closes the listener and open connections, keeps all config. */
  stop(): Promise<void>;
  /** Listens again on the same port after stop(). */
  restart(): Promise<void>;
  /** Queues replies; each inference request takes the next one, then falls back to the default reply. */
  script(...replies: ReplySource<Request, Reply>[]): void;
  /** Replaces the fallback reply (null restores the default echo: "You said: <last user message>"). */
  setDefaultReply(reply: ReplySource<Request, Reply> | null): void;
  setFault(fault: Fault | null): void;
  /** Resolves when the next request (on `path`, if given) arrives, so tests can act mid-request without sleeping. */
  nextRequest(path?: string): Promise<FakeRequestRecord>;
}

/** The default reply of every fake: "You said: <last user message>". */
export function echoText(messages: ReadonlyArray<{ role: string; content: string }>): string {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  return `You said: ${lastUser?.content ?? ''}`;
}

/** The controls every fake gives its test, from the parts above. */
export function controlsOf<Request, Reply extends object, Fault extends { sticky?: boolean; paths?: string[] }>(
  server: LoopbackServer,
  log: RequestLog,
  replies: ReturnType<typeof createReplyScript<Request, Reply>>,
  fault: ReturnType<typeof createFaultSlot<Fault>>,
): FakeServerControls<Request, Reply, Fault> {
  return {
    url: server.url,
    requests: log.requests,
    close: server.stop,
    stop: server.stop,
    restart: server.restart,
    script: replies.script,
    setDefaultReply: replies.setDefaultReply,
    setFault: fault.set,
    nextRequest: log.nextRequest,
  };
}

/** Reads a request's path and JSON body, and records it; body null: the body is not JSON (recorded as it came). */
export async function readJsonRequest(req: IncomingMessage, log: RequestLog): Promise<{ path: string; body: Record<string, unknown> | null; purpose: RequestPurpose | null }> {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const raw = await readBody(req);
  let body: Record<string, unknown> | null = {};
  if (raw.length > 0) {
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      body = null;
    }
  }
  const purpose = requestPurpose(req.headers);
  log.record({ method: req.method ?? '', path, body: body === null ? raw : raw.length > 0 ? body : undefined, headers: req.headers, purpose });
  return { path, body, purpose };
}
