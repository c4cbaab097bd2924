/** The contract's client over the web host, for a test to set things up or check what was stored (no events). */
import { createClient, type Client } from '../../../shared/client';
import { createWebTransport } from '../../../shared/transports/web.transport';
import type { RunningApp } from './processes';

export function apiClient(app: RunningApp): Client {
  return createClient(createWebTransport({ baseUrl: app.baseUrl, token: app.token, origin: app.baseUrl }));
}
