/**
 * Other AI apps that use Mnemo's memory over the Model Context Protocol (`mnemo mcp`, electron/core/mcp/), and what
 * the user allows each. A client is known by the name it gives (`clientInfo.name`); its first call registers it with
 * 'read'. The consent rule itself is electron/core/mcp/mcp-consent.ts.
 */
import { z } from 'zod';
import { Timestamp, operation } from './define';

/** read: search and read memories and the profile; write: also remember without the review inbox; off: nothing. */
export const McpAccess = z.enum(['read', 'write', 'off']);
export type McpAccess = z.output<typeof McpAccess>;

export const MCP_CLIENT_NAME_MAX = 200;
/** A client's name as it gives it (`clientInfo.name`, e.g. "LM Studio", "claude-ai"). */
export const McpClientName = z
  .string()
  .trim()
  .min(1, 'Name the app as it appears in the list of connected apps.')
  .max(MCP_CLIENT_NAME_MAX, `An app's name is at most ${MCP_CLIENT_NAME_MAX} characters.`);

const Count = z.number().int().nonnegative();

export const McpClient = z.object({
  name: z.string(),
  access: McpAccess,
  /** It may also search past conversations (never incognito threads). */
  conversations: z.boolean(),
  /** Null when the user named it before it ever called. */
  firstSeenAt: Timestamp.nullable(),
  lastSeenAt: Timestamp.nullable(),
  /** Its calls that read (search, list, profile, conversations) and that wrote (remember). */
  reads: Count,
  writes: Count,
});
export type McpClient = z.output<typeof McpClient>;

/** One client's use of one memory (the memory's access log). */
export const McpMemoryAccess = z.object({ client: z.string(), reads: Count, writes: Count, lastAt: Timestamp });
export type McpMemoryAccess = z.output<typeof McpMemoryAccess>;

export const mcpOperations = {
  'mcp.clients.list': operation(
    'The apps that used Mnemo’s memory over MCP (or that the user named), most recently seen first, with what each may do.',
    z.object({}).strict(),
    z.object({ clients: z.array(McpClient) }),
  ),
  'mcp.clients.set': operation(
    'Sets what one app may do: access read, write or off; conversations: whether it may search past conversations. ' +
      'An app not seen yet is added, so it can be allowed (or switched off) before its first call.',
    z
      .object({ name: McpClientName, access: McpAccess.optional(), conversations: z.boolean().optional() })
      .strict()
      .refine((i) => i.access !== undefined || i.conversations !== undefined, 'Say what to change: access, conversations or both.'),
    McpClient,
  ),
};

export const mcpEvents = {
  'mcp.clientChanged': z.object({ client: McpClient }),
};
