/**
 * The web host's transport: POST /rpc/<operation> for calls, one WebSocket at /events for events and streams.
 * Runs in the browser (global fetch and WebSocket) and in Node tests (pass the `ws` package's WebSocket and an Origin).
 */
import type { EventMessage, Transport } from '../contract';
import type { Result } from '../errors';

/** The subset of the browser WebSocket API this transport uses (the `ws` package implements it too). */
interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(): void;
}
type SocketConstructor = new (url: string, protocols: string[], options?: { headers?: Record<string, string> }) => SocketLike;

export interface WebTransportOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  WebSocket?: SocketConstructor;
  /** Node clients must present the host's origin themselves; browsers add it. */
  origin?: string;
  /** Called when the event socket opens or drops (the UI shows "reconnecting"). */
  onConnectionChange?: (connected: boolean) => void;
}

export interface WebTransport extends Transport {
  close(): void;
}

export function createWebTransport(options: WebTransportOptions): WebTransport {
  const doFetch = options.fetch ?? fetch.bind(globalThis);
  const listeners = new Set<(m: EventMessage) => void>();
  let socket: SocketLike | null = null;
  let closed = false;
  let retryMs = 250;

  function connect(): void {
    if (closed || socket) return;
    const Ctor = options.WebSocket ?? (globalThis.WebSocket as unknown as SocketConstructor);
    const wsUrl = options.baseUrl.replace(/^http/, 'ws') + '/events';
    const extra = options.origin ? { headers: { origin: options.origin } } : undefined;
    const s = new Ctor(wsUrl, ['mnemo', `mnemo.bearer.${options.token}`], extra);
    socket = s;
    s.onopen = () => {
      retryMs = 250;
      options.onConnectionChange?.(true);
    };
    s.onmessage = (ev) => {
      let message: EventMessage;
      try {
        message = JSON.parse(String(ev.data)) as EventMessage;
      } catch {
        return;
      }
      for (const l of [...listeners]) l(message);
    };
    s.onclose = () => {
      socket = null;
      options.onConnectionChange?.(false);
      if (!closed && listeners.size > 0) {
        setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 5000);
      }
    };
    s.onerror = () => undefined; // onclose follows and schedules the reconnect
  }

  return {
    async invoke(name, input) {
      const headers: Record<string, string> = { 'content-type': 'application/json', authorization: `Bearer ${options.token}` };
      if (options.origin) headers.origin = options.origin;
      try {
        const res = await doFetch(`${options.baseUrl}/rpc/${encodeURIComponent(name)}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(input ?? {}),
        });
        return (await res.json()) as Result<unknown>;
      } catch (e) {
        return {
          ok: false,
          error: { code: 'SHUTTING_DOWN', message: `Mnemo's web host is not answering (${(e as Error).message}). Is "npm run web" still running?` },
        };
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      connect();
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      closed = true;
      socket?.close();
    },
  };
}
