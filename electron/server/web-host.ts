/**
 * The web host: the same contract as the Electron IPC adapter, over HTTP and a WebSocket, so the real renderer runs
 * in a plain browser against the real core.
 *
 * Security invariants (the renderer is untrusted, and so is every other local process and web page):
 * - binds 127.0.0.1 only;
 * - every /rpc request and /events socket carries the per-start token (Authorization: Bearer, or for browser
 *   sockets, which cannot set headers, the subprotocol "mnemo.bearer.<token>") -> else 401;
 * - the Origin must be this host's own origin and the Host header must name loopback (DNS rebinding) -> else 403;
 * - a client that stops reading its events is closed (NOT_READING) once EVENTS_SEND_BUFFER_LIMIT_BYTES wait for it,
 *   so the events it does not read never pile up in this process's memory;
 * - request bodies are capped at the contract's largest input (REQUEST_BODY_MAX_BYTES: whatever the contract accepts
 *   fits, a bigger body is a 413 saying what to do) and validated against the contract by the core's dispatcher;
 * - a malformed request is the client's mistake, answered 400, never 500: a target that is not a URL at all before
 *   routing (there is nothing to route); a malformed percent-escape where the path is decoded, i.e. after the token
 *   and origin checks for /rpc and after the Host check for files, so a request without the token learns nothing new.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { StringDecoder } from 'node:string_decoder';
import { WebSocketServer, type WebSocket } from 'ws';
import { IMPORT_MAX_CHARS, REQUEST_BODY_MAX_BYTES } from '../../shared/contract';
import { MnemoError, type ErrorCode } from '../../shared/errors';
import { contentSecurityPolicy } from '../../shared/security';
import { decodeUrlPath, MALFORMED_PATH_MESSAGE } from '../../shared/url-path';
import type { Core } from '../core/create-core';
import type { Logger } from '../core/ports/logger.port';
import { silentLogger } from '../core/ports/logger.port';

export interface WebHostOptions {
  core: Core;
  /** 0 picks any free port. */
  port?: number;
  /** The built renderer (index.html + assets). */
  staticDir: string;
  /** Fixed token for tests; a random one per start otherwise. */
  token?: string;
  logger?: Logger;
}

export interface WebHost {
  url: string;
  /** The URL to open in a browser, token included (in the fragment, so it never reaches logs or Referer headers). */
  appUrl: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

export const TOKEN_SUBPROTOCOL_PREFIX = 'mnemo.bearer.';
/**
 * The most bytes of events that may wait for one /events client. A client that reads takes them as they come (the
 * operating system's socket buffers hold a burst); one that stopped reading (a frozen tab, a stuck script) would
 * otherwise keep every later event in this process's memory. Past this, the client is closed: the renderer's socket
 * then reconnects and reads everything shown again, as after any disconnect. A burst larger than this (a bulk change
 * of thousands of long memories) can close a client that reads, with the same resync.
 */
export const EVENTS_SEND_BUFFER_LIMIT_BYTES = 16 * 1024 * 1024;
/** 1013, "try again later": the client may reconnect at once, and reads everything again when it does. */
export const NOT_READING = { code: 1013, reason: 'client is not reading its events' } as const;
const REQUEST_TOO_LARGE_MESSAGE =
  `This request is too large for Mnemo (more than ${Math.round(REQUEST_BODY_MAX_BYTES / 1_000_000)} MB): the largest thing it takes at once ` +
  `is a file to import of ${IMPORT_MAX_CHARS / 1_000_000} million characters. If you were importing a file, split it into smaller files and import them one by one.`;
const MALFORMED_TARGET_MESSAGE = 'Bad request: the request target is not a valid URL.';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const { core } = options;
  const logger = options.logger ?? silentLogger;
  const token = options.token ?? crypto.randomBytes(32).toString('hex');
  const staticDir = path.resolve(options.staticDir);
  let origin = '';
  let port = 0;

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      logger.error('web host request failed', { error: (e as Error).message });
      if (!res.headersSent) sendJson(res, 500, envelope('INTERNAL', 'The web host failed to answer.'));
      else res.destroy();
    });
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = parseTarget(req.url, origin);
    if (!url) return sendText(res, 400, MALFORMED_TARGET_MESSAGE);
    if (url.pathname.startsWith('/rpc/')) {
      const denied = checkAccess(req, { requireOrigin: true });
      if (denied) return sendJson(res, denied.status, envelope(denied.code, denied.message));
      if (req.method !== 'POST') return sendJson(res, 405, envelope('INVALID_INPUT', 'Use POST for /rpc calls.'));
      const name = decodeUrlPath(url.pathname.slice('/rpc/'.length));
      if (name === null) {
        return sendJson(res, 400, envelope('INVALID_INPUT', 'The operation name in the URL has a malformed percent-escape: encode it with encodeURIComponent.'));
      }
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (e) {
        if (e instanceof RequestTooLarge) return sendJson(res, 413, envelope('INVALID_INPUT', REQUEST_TOO_LARGE_MESSAGE));
        const error = e instanceof MnemoError ? e : new MnemoError('INVALID_INPUT', 'The request body is not valid JSON.');
        return sendJson(res, 400, { ok: false, error: error.toInfo() });
      }
      const result = await core.call(name, body);
      return sendJson(res, 200, result);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'Method not allowed');
    if (!hostIsLoopback(req)) return sendText(res, 403, 'Forbidden host');
    return serveStatic(url.pathname, res);
  }

  function checkAccess(req: http.IncomingMessage, opts: { requireOrigin: boolean }): { status: number; code: ErrorCode; message: string } | null {
    if (!hostIsLoopback(req)) return { status: 403, code: 'FORBIDDEN', message: 'Requests must be addressed to 127.0.0.1 or localhost.' };
    const presented = presentedToken(req);
    if (!presented || !safeEqual(presented, token)) {
      return { status: 401, code: 'UNAUTHORIZED', message: 'Missing or wrong token: open the URL that "npm run web" printed.' };
    }
    const reqOrigin = req.headers.origin;
    if (opts.requireOrigin && reqOrigin !== origin && reqOrigin !== origin.replace('127.0.0.1', 'localhost')) {
      return { status: 403, code: 'FORBIDDEN', message: 'Cross-origin requests are refused.' };
    }
    return null;
  }

  function hostIsLoopback(req: http.IncomingMessage): boolean {
    const h = req.headers.host ?? '';
    return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
  }

  function serveStatic(pathname: string, res: http.ServerResponse): void {
    const decoded = decodeUrlPath(pathname);
    if (decoded === null) return sendText(res, 400, MALFORMED_PATH_MESSAGE);
    const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
    const file = path.resolve(staticDir, relative);
    // Path traversal: never serve anything outside the built renderer.
    if (file !== staticDir && !file.startsWith(staticDir + path.sep)) return sendText(res, 404, 'Not found');
    let target = file;
    if (!fs.existsSync(target) || fs.statSync(target).isDirectory()) {
      if (path.extname(relative)) return sendText(res, 404, 'Not found');
      target = path.join(staticDir, 'index.html'); // client-side routes
    }
    if (!fs.existsSync(target)) {
      return sendText(res, 503, 'The renderer is not built. Run "npm run build:renderer" (npm run web does it for you).');
    }
    res.writeHead(200, {
      'content-type': TYPES[path.extname(target)] ?? 'application/octet-stream',
      'content-security-policy': contentSecurityPolicy([`ws://127.0.0.1:${port}`, `ws://localhost:${port}`]),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cache-control': target.endsWith('index.html') ? 'no-store' : 'max-age=3600',
    });
    fs.createReadStream(target).pipe(res);
  }

  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: 64 * 1024,
    handleProtocols: (protocols) => (protocols.has('mnemo') ? 'mnemo' : false),
  });
  server.on('upgrade', (req, socket, head) => {
    // A throw in this listener is not caught by the request handler's catch: it would end the whole process.
    const url = parseTarget(req.url, origin);
    const denied = !url ? { status: 400 } : url.pathname === '/events' ? checkAccess(req, { requireOrigin: true }) : { status: 404 };
    if (denied) {
      socket.end(`HTTP/1.1 ${denied.status} ${http.STATUS_CODES[denied.status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    sockets.handleUpgrade(req, socket, head, (ws) => sockets.emit('connection', ws, req));
  });
  const unsubscribe = core.subscribe((message) => {
    const data = JSON.stringify(message);
    const size = Buffer.byteLength(data);
    for (const ws of sockets.clients) {
      if (ws.readyState !== ws.OPEN) continue;
      // Invariant: what waits for a client stays within the limit (one event bigger than it still goes to a client
      // that has read everything). Closing sends nothing more; ws destroys the socket if the close is not answered.
      if (ws.bufferedAmount > 0 && ws.bufferedAmount + size > EVENTS_SEND_BUFFER_LIMIT_BYTES) {
        logger.warn('closed an events client that is not reading', { bufferedBytes: ws.bufferedAmount, limitBytes: EVENTS_SEND_BUFFER_LIMIT_BYTES });
        ws.close(NOT_READING.code, NOT_READING.reason);
        continue;
      }
      ws.send(data);
    }
  });
  sockets.on('connection', (ws: WebSocket) => {
    // The socket only carries events from the core; anything a client sends is ignored.
    ws.on('message', () => undefined);
    ws.on('error', () => ws.terminate());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: origin,
    appUrl: `${origin}/#token=${token}`,
    token,
    port,
    async close() {
      unsubscribe();
      for (const ws of sockets.clients) ws.terminate();
      await new Promise<void>((resolve) => sockets.close(() => resolve()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The request target as a URL, or null when it is not one ("http://[", "//%zz" read as a host): a 400. */
function parseTarget(target: string | undefined, base: string): URL | null {
  try {
    return new URL(target ?? '/', base);
  } catch {
    return null;
  }
}

function presentedToken(req: http.IncomingMessage): string | null {
  const auth = req.headers.authorization;
  if (auth?.startsWith('Bearer ')) return auth.slice('Bearer '.length).trim();
  const protocols = req.headers['sec-websocket-protocol'];
  if (typeof protocols === 'string') {
    const entry = protocols
      .split(',')
      .map((p) => p.trim())
      .find((p) => p.startsWith(TOKEN_SUBPROTOCOL_PREFIX));
    if (entry) return entry.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
  }
  return null;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

class RequestTooLarge extends Error {}

function readJson(req: http.IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    // Decoded as it arrives, so a large import is held once, as text, not also as the bytes it came in.
    const decoder = new StringDecoder('utf8');
    let text = '';
    let size = 0;
    // Past the limit: stop buffering but drain the rest, so the client still receives the typed error.
    const refuse = () => {
      req.removeAllListeners('data');
      req.resume();
      text = '';
      reject(new RequestTooLarge());
    };
    // A body announced as too large is refused before any of it is held; one without a length is counted.
    if (Number(req.headers['content-length']) > REQUEST_BODY_MAX_BYTES) return refuse();
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > REQUEST_BODY_MAX_BYTES) return refuse();
      text += decoder.write(chunk);
    });
    req.on('end', () => {
      text += decoder.end();
      if (text.trim() === '') return resolve({});
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new MnemoError('INVALID_INPUT', 'The request body is not valid JSON.'));
      }
    });
    req.on('error', reject);
  });
}

function envelope(code: ErrorCode, message: string) {
  return { ok: false as const, error: { code, message } };
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const data = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
  res.end(data);
}

function sendText(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(text);
}
