/**
 * The Content-Security-Policy of the renderer, for both the Electron window and the web host.
 * Remote script, connections, images and fonts are all refused: model output must never be able to call out.
 * `connectSources` adds the web host's own WebSocket origin (Electron needs none).
 */
export function contentSecurityPolicy(connectSources: string[] = []): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    ["connect-src 'self'", ...connectSources].join(' '),
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}
