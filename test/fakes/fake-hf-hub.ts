/**
 * A fake Hugging Face Hub for tests: serves model folders from disk on 127.0.0.1 with the Hub's URL layout, so the
 * real transformers.js download path (metadata Range requests, redirects, streamed bodies, the file cache) runs
 * unchanged against it. Point the local embedder's `remoteHost` at `url`.
 *
 *   GET {url}{owner}/{name}/resolve/{revision}/{file}   the file, with Content-Length (so progress has totals);
 *                                                      `Range: bytes=a-b` answers 206 with Content-Range, as the Hub
 *                                                      does; *.onnx answers 302 to /cdn/... first, as the Hub
 *                                                      redirects large (LFS) files to its CDN
 *   anything else                                      404 with {"error": ...}, as the Hub's "Entry not found"
 *
 * `hold(file)` stops the next full download of that file halfway until the test releases it, so a test can act
 * in the middle of a download (see progress, cancel) without sleeping.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface FakeHubRequest {
  method: string;
  /** The URL path, e.g. /owner/name/resolve/main/config.json. */
  path: string;
  /** The Range header, when sent (metadata requests). */
  range: string | null;
}

export interface FileHold {
  /** Resolves once half of the file has been sent and the rest is waiting. */
  readonly reached: Promise<void>;
  release(): void;
}

export interface FakeHfHub {
  /** The hub's base URL with a trailing slash, e.g. http://127.0.0.1:40123/ (what remoteHost takes). */
  readonly url: string;
  /** Every request, in arrival order (live array). */
  readonly requests: FakeHubRequest[];
  /** Full downloads (not metadata Range requests) of `file` of any model, in order. */
  downloads(file: string): FakeHubRequest[];
  hold(file: string): FileHold;
  close(): Promise<void>;
}

const RESOLVE = /^\/(?<repo>[^/]+\/[^/]+)\/resolve\/(?<revision>[^/]+)\/(?<file>.+)$/;
const CDN = /^\/cdn\/(?<repo>[^/]+\/[^/]+)\/(?<file>.+)$/;

/** Serves `<root>/<owner>/<name>/<file>` (the layout writeTinyEmbeddingModel writes). */
export async function startFakeHfHub(options: { root: string }): Promise<FakeHfHub> {
  const root = path.resolve(options.root);
  const requests: FakeHubRequest[] = [];
  const holds = new Map<string, { reached: () => void; released: Promise<void>; release: () => void }>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const range = req.headers.range ?? null;
    requests.push({ method: req.method ?? '', path: urlPath, range });
    if (req.method !== 'GET' && req.method !== 'HEAD') return notFound(res);

    const resolved = RESOLVE.exec(urlPath)?.groups;
    if (resolved?.file?.endsWith('.onnx')) {
      res.writeHead(302, { Location: `/cdn/${resolved.repo}/${resolved.file}` });
      return void res.end();
    }
    const target = resolved ?? CDN.exec(urlPath)?.groups;
    if (!target?.repo || !target.file) return notFound(res);
    const file = path.resolve(root, target.repo, target.file);
    if (!file.startsWith(root + path.sep)) return notFound(res);
    const body = await readFile(file).catch(() => null);
    if (!body) return notFound(res);

    const headers = { 'Content-Type': 'application/octet-stream', 'Accept-Ranges': 'bytes', ETag: `"${body.length}"` };
    const bytes = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
    if (bytes) {
      const start = Number(bytes[1]);
      const end = Math.min(bytes[2] ? Number(bytes[2]) : body.length - 1, body.length - 1);
      if (start > end) {
        res.writeHead(416, { 'Content-Range': `bytes */${body.length}` });
        return void res.end();
      }
      res.writeHead(206, { ...headers, 'Content-Length': end - start + 1, 'Content-Range': `bytes ${start}-${end}/${body.length}` });
      return void res.end(req.method === 'HEAD' ? undefined : body.subarray(start, end + 1));
    }

    res.writeHead(200, { ...headers, 'Content-Length': body.length });
    if (req.method === 'HEAD') return void res.end();
    const hold = holds.get(target.file);
    if (!hold) return void res.end(body);
    holds.delete(target.file);
    const half = Math.floor(body.length / 2);
    await new Promise<void>((resolve) => res.write(body.subarray(0, half), () => resolve()));
    hold.reached();
    // A client that gives up (cancel) closes the connection; then there is nothing left to send.
    const gone = new Promise<void>((resolve) => res.once('close', () => resolve()));
    await Promise.race([hold.released, gone]);
    if (!res.destroyed) res.end(body.subarray(half));
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `fake-hf-hub: ${String(err)}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    downloads: (file) => requests.filter((r) => r.range === null && r.path.endsWith(`/${file}`) && !isRedirected(r.path)),
    hold(file) {
      let reached!: () => void;
      let release!: () => void;
      const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.set(file, { reached, released, release });
      return { reached: reachedPromise, release };
    },
    async close() {
      for (const hold of holds.values()) hold.release();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** The /resolve/ request of a file that was redirected to /cdn/ (its bytes are counted at the /cdn/ request). */
function isRedirected(urlPath: string): boolean {
  return RESOLVE.test(urlPath) && urlPath.endsWith('.onnx');
}

function notFound(res: ServerResponse): void {
  sendJson(res, 404, { error: 'Entry not found' });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
