/**
 * Other apps' use of the memory (MCP, electron/core/mcp/) said in words, the way an answer's receipt says Mnemo's
 * own: a memory's access log ("LM Studio read this 3 times, last at 10:02"), a timeline event of an app's read
 * ("LM Studio searched your memories and was given 3"), and the app a learned or proposed memory came from.
 * Times are in the user's zone (format.ts). Pure, given the catalog's translate function.
 */
import type { McpMemoryAccess, TimelineEvent } from '../../../shared/contract';
import { formatList, formatTimeOfDay, isSameDay } from '../format/format';
import type { Language, MessageKey } from '../i18n/i18n';
import type { Translate } from '../i18n/use-t';

/** One app's line in a memory's access log. */
export function accessLine(entry: McpMemoryAccess, now: number, t: Translate, language: Language): string {
  const actions = [
    ...(entry.reads > 0 ? [t('memory.access.reads', { count: entry.reads })] : []),
    ...(entry.writes > 0 ? [t('memory.access.writes', { count: entry.writes })] : []),
  ];
  const key = isSameDay(entry.lastAt, now) ? 'memory.access.lineToday' : 'memory.access.line';
  return t(key, { client: entry.client, actions: formatList(actions, language), when: formatTimeOfDay(entry.lastAt, now, language) });
}

const READ_TOOLS = ['search_memory', 'list_recent_memories', 'get_profile', 'search_conversations'] as const;

/** An 'mcp_read' event's sentence: which app read what, and how much it was given. */
export function mcpReadText(event: TimelineEvent, t: Translate): string {
  const client = typeof event.data.client === 'string' ? event.data.client : '?';
  const tool = event.data.tool;
  const count = typeof event.data.items === 'number' ? event.data.items : 0;
  // A tool a newer core added still reads as a read.
  if (typeof tool !== 'string' || !(READ_TOOLS as readonly string[]).includes(tool)) return t('timeline.mcp.other', { client });
  return t(`timeline.mcp.${tool}` as MessageKey, { client, count });
}

/** The memories an 'mcp_read' event says the app was given (ids only: the timeline never holds their text). */
export function mcpReadMemoryIds(event: TimelineEvent): number[] {
  const ids = event.data.memoryIds;
  return Array.isArray(ids) ? ids.filter((id): id is number => typeof id === 'number') : [];
}

/**
 * Who a learned or proposed memory came from when an app wrote it (its event's `data.mcpClient`): the phrase for the
 * timeline, or null when no app did.
 */
export function mcpWriteAttribution(event: TimelineEvent, t: Translate): string | null {
  const client = event.data.mcpClient;
  if (typeof client !== 'string') return null;
  return t(event.kind === 'proposed' ? 'timeline.by.mcp.proposed' : 'timeline.by.mcp', { client });
}
