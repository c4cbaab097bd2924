/**
 * The app:// protocol: serves the built renderer from disk (or app.asar) with the CSP header on every response.
 * Invariants: only GET/HEAD on app://mnemo; nothing outside the renderer folder is ever read; a path without an
 * extension is a client-side route and gets index.html, a missing asset is a 404 (never index.html served as script),
 * a malformed percent-escape is a 400 (the same answer as the web host's).
 */
import { contentSecurityPolicy } from '../../shared/security';
import { decodeUrlPath, MALFORMED_PATH_MESSAGE } from '../../shared/url-path';
import { APP_HOST, resolveAppPath } from './window-options';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

export function contentTypeFor(file: string): string {
  const dot = file.lastIndexOf('.');
  const slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  const ext = dot > slash ? file.slice(dot).toLowerCase() : '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** Headers on every app:// response, errors included. */
export function appResponseHeaders(contentType: string): Record<string, string> {
  return {
    'content-type': contentType,
    'content-security-policy': contentSecurityPolicy(),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-opener-policy': 'same-origin',
  };
}

export interface AppProtocolDeps {
  rendererDir: string;
  /** Rejects for a missing file or a folder. */
  readFile(file: string): Promise<Uint8Array>;
  join(...parts: string[]): string;
  sep: string;
}

export function createAppProtocolHandler(deps: AppProtocolDeps): (request: Request) => Promise<Response> {
  const plain = (status: number, text: string) => new Response(text, { status, headers: appResponseHeaders('text/plain; charset=utf-8') });
  const serve = async (file: string, head: boolean) => {
    const body = await deps.readFile(file);
    return new Response(head ? null : (body as Uint8Array<ArrayBuffer>), { status: 200, headers: appResponseHeaders(contentTypeFor(file)) });
  };

  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return plain(405, 'Method not allowed');
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return plain(400, 'Bad request');
    }
    if (url.host !== APP_HOST) return plain(404, 'Not found');
    if (decodeUrlPath(url.pathname) === null) return plain(400, MALFORMED_PATH_MESSAGE);
    const file = resolveAppPath(deps.rendererDir, request.url, deps.join, deps.sep);
    if (!file) return plain(404, 'Not found');
    const head = request.method === 'HEAD';
    try {
      return await serve(file, head);
    } catch {
      if (isRoute(url.pathname)) {
        try {
          return await serve(deps.join(deps.rendererDir, 'index.html'), head);
        } catch {
          return plain(500, 'The app files are missing; reinstall Mnemo.');
        }
      }
      return plain(404, 'Not found');
    }
  };
}

function isRoute(pathname: string): boolean {
  const last = pathname.split('/').pop() ?? '';
  return !last.includes('.');
}
