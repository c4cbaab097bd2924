/** The contract's client over the web host, for a test to set things up or check what was stored (no events). */
import { expect } from 'vitest';
import { createClient, unwrap, type Client } from '../../../shared/client';
import { createWebTransport } from '../../../shared/transports/web.transport';
import type { RunningApp } from './processes';

export function apiClient(app: RunningApp): Client {
  return createClient(createWebTransport({ baseUrl: app.baseUrl, token: app.token, origin: app.baseUrl }));
}

/** A conversation held before the test's question, in a thread of its own, and the episode written of it (listed). */
export async function earlierConversation(api: Client, text: string): Promise<{ threadId: number }> {
  const episodes = async () => unwrap(await api.call('episode.list', {})).episodes.length;
  const before = await episodes();
  const sent = unwrap(await api.call('chat.send', { text }));
  unwrap(await api.call('episode.refresh', { threadId: sent.threadId }));
  await expect.poll(episodes, { timeout: 30_000 }).toBe(before + 1);
  return sent;
}
