/**
 * Picks the transport once at startup: the Electron preload bridge when present, else the web host with the token
 * from the URL fragment (never sent to the server in a URL, never in Referer headers).
 */
import type { EventMessage, Transport } from '../../../shared/contract';
import { createClient, type Client } from '../../../shared/client';
import { createWebTransport } from '../../../shared/transports/web.transport';

declare global {
  interface Window {
    /** Exposed by electron/preload: exactly the contract's invoke and subscribe, nothing else. */
    mnemo?: { invoke(name: string, input: unknown): Promise<unknown>; subscribe(listener: (m: EventMessage) => void): () => void };
  }
}

export type Connection = { kind: 'electron' } | { kind: 'web'; baseUrl: string } | { kind: 'missing-token' };

export function detectConnection(): Connection {
  if (window.mnemo) return { kind: 'electron' };
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (!token) return { kind: 'missing-token' };
  return { kind: 'web', baseUrl: window.location.origin };
}

export function createRendererClient(onConnectionChange: (connected: boolean) => void): { client: Client; connection: Connection } {
  const connection = detectConnection();
  let transport: Transport;
  if (connection.kind === 'electron' && window.mnemo) {
    const bridge = window.mnemo;
    transport = { invoke: (n, i) => bridge.invoke(n, i) as ReturnType<Transport['invoke']>, subscribe: (l) => bridge.subscribe(l) };
  } else {
    const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
    transport = createWebTransport({ baseUrl: window.location.origin, token, onConnectionChange });
  }
  return { client: createClient(transport), connection };
}
