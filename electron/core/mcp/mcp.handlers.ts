/** `mcp.*`: the apps that use Mnemo's memory over MCP, and what each may do. */
import type { HandlersFor } from '../rpc/dispatcher';
import type { McpService } from './mcp.service';

export function mcpHandlers(mcp: McpService): HandlersFor<'mcp'> {
  return {
    'mcp.clients.list': () => ({ clients: mcp.list() }),
    'mcp.clients.set': (input) => mcp.set(input),
  };
}
