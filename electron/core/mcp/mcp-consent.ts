/**
 * What an app connected over MCP may do: the one consent rule, for the tools (mcp-memory-tools.ts) and the server
 * (electron/cli/mcp-server.ts), and the reason the app is given when it may not.
 *
 * - A client is known by the name it gives (`clientInfo.name`); its first call registers it with 'read'.
 * - 'off' answers every call with an error that says how to allow it again (the command, or Settings › Connected apps).
 * - Memory switched off in Settings ('memoryMode' off) refuses every tool, whatever the client may do: nothing is
 *   read and nothing is kept, as in Mnemo's own chats.
 * - 'read' and 'write' may search and list memories and read the profile. search_conversations is a separate
 *   permission (`conversations`), never implied by 'write': past conversations hold far more than memories do. It is
 *   listed only to a client that has it.
 * - `remember` lands as an active memory only when the client has 'write', memory is in 'auto' mode (not 'ask
 *   first'), and the guards extraction uses pass: the text is grounded in the user's own words the client quotes, is
 *   not instruction-like and is in the words' language. Anything else waits in the review inbox; a secret is refused.
 */
import type { McpClient, Settings } from '../../../shared/contract';

export const MCP_TOOLS = ['search_memory', 'list_recent_memories', 'get_profile', 'remember', 'search_conversations'] as const;
export type McpTool = (typeof MCP_TOOLS)[number];

export type Consent = { allowed: true } | { allowed: false; reason: string };

const quoted = (name: string) => JSON.stringify(name);

/** How the user allows this client again: the command, or the settings page. */
export function howToAllow(name: string, access: 'read' | 'write' = 'read'): string {
  return `The user can allow it with "mnemo mcp clients set ${quoted(name)} ${access}" or in Mnemo under Settings › Connected apps.`;
}

/** Whether the tool appears in this client's tool list. */
export function toolListed(client: Pick<McpClient, 'conversations'>, tool: McpTool): boolean {
  return tool !== 'search_conversations' || client.conversations;
}

/** May this client call this tool now? */
export function consentFor(client: Pick<McpClient, 'name' | 'access' | 'conversations'>, tool: McpTool, memoryMode: Settings['memoryMode']): Consent {
  if (client.access === 'off') {
    return { allowed: false, reason: `Mnemo's user switched off access for the app ${quoted(client.name)}, so Mnemo answers none of its requests. ${howToAllow(client.name)}` };
  }
  if (memoryMode === 'off') {
    return { allowed: false, reason: 'Long-term memory is switched off in Mnemo’s settings, so Mnemo neither reads nor keeps memories for any app. The user can switch it on in Mnemo under Settings › Memory.' };
  }
  if (tool === 'search_conversations' && !client.conversations) {
    return {
      allowed: false,
      reason: `The app ${quoted(client.name)} may not search the user's past conversations. The user can allow it with "mnemo mcp clients set ${quoted(client.name)} --conversations on" or in Mnemo under Settings › Connected apps.`,
    };
  }
  return { allowed: true };
}

/** What the guards found in a text to remember (the same detectors as extraction's). */
export interface RememberChecks {
  /** The text's terms are all in the user's quoted words (candidate-grounding.ts); false without a quote. */
  grounded: boolean;
  /** looksLikeInstruction (instruction-detector.ts). */
  instruction: boolean;
  /** Written in another language than the quoted words (message-language.ts). */
  otherLanguage: boolean;
}

/** Where a remembered text lands, for a client allowed to call remember at all. */
export function rememberLands(access: 'read' | 'write', memoryMode: 'auto' | 'ask', checks: RememberChecks): 'active' | 'review' {
  const trusted = access === 'write' && memoryMode === 'auto';
  return trusted && checks.grounded && !checks.instruction && !checks.otherLanguage ? 'active' : 'review';
}
