import fs from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';
import { createClient, type Client } from '../../shared/client';
import { createWebTransport, type WebTransport } from '../../shared/transports/web.transport';
import type { Core } from '../../electron/core/create-core';
import { startWebHost, type WebHost } from '../../electron/server/web-host';

/** Starts the real web host over a core, serving a minimal static folder (the built renderer is for e2e). */
export async function startTestWebHost(core: Core, staticDir: string): Promise<{ host: WebHost; client: Client; transport: WebTransport }> {
  fs.mkdirSync(staticDir, { recursive: true });
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Mnemo</title>');
  const host = await startWebHost({ core, port: 0, staticDir });
  const transport = createWebTransport({ baseUrl: host.url, token: host.token, origin: host.url, WebSocket: WebSocket as never });
  return { host, client: createClient(transport), transport };
}
