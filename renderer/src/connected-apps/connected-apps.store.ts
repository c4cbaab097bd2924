/**
 * Settings › Connected apps: the other AI apps that used Mnemo's memory over MCP (mcp.clients.list) and what each may
 * do (mcp.clients.set).
 *
 * An app first appears when it calls `mnemo mcp`, another process whose core's events never reach this window: the
 * list is read again whenever the section is shown or the window comes back into view (ConnectedAppsSection.tsx).
 * `mcp.clientChanged` (a change made through this core: another window, the web host) is applied as it comes.
 */
import { create } from 'zustand';
import type { McpClient, OpInput } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { ErrorInfo } from '../../../shared/errors';

export type McpClientPatch = Omit<OpInput<'mcp.clients.set'>, 'name'>;

interface ConnectedAppsState {
  client: Client | null;
  apps: McpClient[];
  loaded: boolean;
  /** Reading the list failed (shown in place of the list). */
  error: ErrorInfo | null;
  /** A change refused, by app name (shown beside that app). */
  refused: Record<string, ErrorInfo>;
  init(client: Client): void;
  load(): Promise<void>;
  set(name: string, patch: McpClientPatch): Promise<void>;
}

function definedOf(patch: McpClientPatch): Partial<McpClient> {
  return { ...(patch.access !== undefined ? { access: patch.access } : {}), ...(patch.conversations !== undefined ? { conversations: patch.conversations } : {}) };
}

/** The app as it now stands, in its place; a new one first (the core lists the most recently seen first). */
function upsert(apps: McpClient[], app: McpClient): McpClient[] {
  return apps.some((a) => a.name === app.name) ? apps.map((a) => (a.name === app.name ? app : a)) : [app, ...apps];
}

export const useConnectedAppsStore = create<ConnectedAppsState>((set, get) => {
  let request = 0;
  return {
    client: null,
    apps: [],
    loaded: false,
    error: null,
    refused: {},

    init(client) {
      set({ client });
      client.on('mcp.clientChanged', ({ client: app }) => set((s) => ({ apps: upsert(s.apps, app) })));
    },

    async load() {
      const client = get().client;
      if (!client) return;
      const mine = ++request;
      const result = await client.call('mcp.clients.list', {});
      if (mine !== request) return;
      if (result.ok) set({ apps: result.value.clients, loaded: true, error: null });
      else set({ error: result.error, loaded: true });
    },

    async set(name, patch) {
      const client = get().client;
      if (!client) return;
      const refused = { ...get().refused };
      delete refused[name];
      set({ refused });
      // Shown at once (a radio moved by the arrow keys must not spring back while the core answers); a refusal puts
      // back what the core holds.
      set((s) => ({ apps: s.apps.map((a) => (a.name === name ? { ...a, ...definedOf(patch) } : a)) }));
      const result = await client.call('mcp.clients.set', { name, ...patch });
      if (result.ok) return set((s) => ({ apps: upsert(s.apps, result.value) }));
      set((s) => ({ refused: { ...s.refused, [name]: result.error } }));
      await get().load();
    },
  };
});
