/**
 * The `mcp.*` operations and `memory.access`: the user's side of MCP (Settings › Connected apps, `mnemo mcp clients`,
 * a memory's access log). What the apps themselves may call is mcp-memory-tools.ts.
 */
import type { McpClient, McpMemoryAccess, OpParsedInput } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { EventBus } from '../runtime/event-bus';
import type { McpClientsStore } from './mcp-clients.store';

export interface McpService {
  list(): McpClient[];
  set(input: OpParsedInput<'mcp.clients.set'>): McpClient;
  accessOf(memoryId: number): McpMemoryAccess[];
}

export function createMcpService(deps: { store: McpClientsStore; events: EventBus; memoryExists: (memoryId: number) => boolean }): McpService {
  const { store, events } = deps;
  return {
    list: () => store.list(),
    set({ name, access, conversations }) {
      const client = store.set(name, { access, conversations });
      events.emit('mcp.clientChanged', { client });
      return client;
    },
    accessOf(memoryId) {
      if (!deps.memoryExists(memoryId)) throw new MnemoError('NOT_FOUND', `Memory ${memoryId} does not exist (it may have been purged).`);
      return store.accessOf(memoryId);
    },
  };
}
