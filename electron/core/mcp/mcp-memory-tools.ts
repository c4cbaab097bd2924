/**
 * What an app connected over MCP may ask of Mnemo (the tools of `mnemo mcp`, electron/cli/mcp-server.ts): search and
 * list memories, read the profile, remember a fact, search past conversations. Each call is judged by the consent rule
 * (mcp-consent.ts) for the client that makes it, and every read is logged (mcp-clients.store.ts).
 *
 * Invariants:
 * - Only active, unexpired memories are given out; conversations never from an incognito thread (the memory tools'
 *   source, chat/memory-tool-sources.ts, holds that rule).
 * - What Mnemo hands over is the user's data, fenced, with the sentence that says it is data (text/data-fence.ts):
 *   the app's model reads it in its own prompt.
 * - `remember` passes the guards a learned memory passes (secret-detector.ts, candidate-grounding.ts,
 *   instruction-detector.ts, message-language.ts); it never merges into or supersedes another memory: an exact
 *   duplicate is confirmed, anything else is new (or waits for review).
 * - Dates are days in the user's time zone (settings.timeZone), as the app shows them.
 */
import { z } from 'zod';
import { MemoryCategory, type Memory, type Settings } from '../../../shared/contract';
import { dayOf, endOfDay, isoDate, startOfDay, type CalendarDay } from '../../../shared/calendar-day';
import { MnemoError } from '../../../shared/errors';
import { userTimeZone } from '../../../shared/time-zone';
import type { MemoryToolSources } from '../chat/memory-tools';
import type { EventBus } from '../runtime/event-bus';
import { groundCandidate, indexUserWords, type Grounded } from '../safety/candidate-grounding';
import { looksLikeInstruction } from '../safety/instruction-detector';
import { detectLanguage } from '../safety/message-language';
import { secretRefusal } from '../safety/secret-detector';
import { contentHash } from '../memory/content-hash';
import { LEARNED_MEMORY_MAX_CHARS } from '../text/learned-wording';
import type { MemoryService } from '../memory/memory.service';
import { toMemory } from '../memory/memory.repo';
import type { Clock } from '../ports/clock.port';
import { DATA_NOT_INSTRUCTIONS, fenced } from '../text/data-fence';
import { consentFor, rememberLands, type McpTool } from './mcp-consent';
import type { McpClientsStore } from './mcp-clients.store';

const IsoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Give a date as YYYY-MM-DD, e.g. 2026-03-14.')
  .refine((s) => calendarDay(s) !== null, 'That date does not exist; give a real day as YYYY-MM-DD.');
const Limit = (max: number, fallback: number) => z.number().int().min(1).max(max).default(fallback);

/** The tools' arguments (the MCP server publishes them as JSON Schema; the SDK validates calls against them). */
export const mcpToolInputs = {
  search_memory: {
    query: z.string().trim().min(1, 'Say what to look for.').max(500),
    category: MemoryCategory.optional().describe('knowledge, preference, project or skill'),
    from: IsoDay.optional().describe('only memories written on or after this day (YYYY-MM-DD, the user’s time zone)'),
    to: IsoDay.optional().describe('only memories written on or before this day (YYYY-MM-DD, the user’s time zone)'),
    limit: Limit(50, 10).describe('how many memories at most (1-50, default 10)'),
  },
  list_recent_memories: {
    category: MemoryCategory.optional().describe('knowledge, preference, project or skill'),
    limit: Limit(50, 10).describe('how many memories at most (1-50, default 10)'),
  },
  get_profile: {},
  remember: {
    text: z.string().trim().min(1, 'Say what to remember.').max(LEARNED_MEMORY_MAX_CHARS, `One fact of at most ${LEARNED_MEMORY_MAX_CHARS} characters.`),
    user_words: z
      .string()
      .trim()
      .min(1)
      .max(4000)
      .optional()
      .describe('the user’s own words the fact comes from, quoted exactly as the user wrote them'),
    category: MemoryCategory.optional().describe('knowledge (default), preference, project or skill'),
  },
  search_conversations: {
    query: z.string().trim().min(1, 'Say what to look for.').max(500),
    limit: Limit(20, 5).describe('how many messages at most (1-20, default 5)'),
  },
} satisfies Record<McpTool, z.ZodRawShape>;

type Args<T extends McpTool> = z.output<z.ZodObject<(typeof mcpToolInputs)[T]>>;

/** A tool's answer: the text the app's model reads. */
export interface McpToolAnswer {
  text: string;
}

export interface McpMemoryTools {
  /** Registers a client that connected (read-only on its first contact) and notes when it was last seen. */
  seen(client: string): ReturnType<McpClientsStore['seen']>;
  /** The client as the user set it, or null before its first contact. */
  client(client: string): ReturnType<McpClientsStore['get']>;
  searchMemory(client: string, args: Args<'search_memory'>): Promise<McpToolAnswer>;
  listRecentMemories(client: string, args: Args<'list_recent_memories'>): McpToolAnswer;
  getProfile(client: string): McpToolAnswer;
  remember(client: string, args: Args<'remember'>): Promise<McpToolAnswer>;
  searchConversations(client: string, args: Args<'search_conversations'>): McpToolAnswer;
}

export interface McpMemoryToolsDeps {
  store: McpClientsStore;
  memories: MemoryService;
  settings: () => Settings;
  /** The profile as prompts get it: null when there is none or it is turned off (profile.service.ts forPrompt). */
  profile: () => string | null;
  /** The user's messages matching a query, never from an incognito thread (chat/memory-tool-sources.ts). */
  conversations: Pick<MemoryToolSources, 'searchConversations'>;
  events: EventBus;
  clock: Clock;
}

/** The review inbox's flag (review.contract.ts ReviewFlag) and its reason, as extraction records them on 'proposed'. */
function flagOf(instruction: string | null, otherLanguage: string | null): Record<string, string> {
  if (instruction !== null) return { flag: 'instruction', flagReason: `content: ${instruction}` };
  if (otherLanguage !== null) return { flag: 'language', flagReason: otherLanguage };
  return {};
}

function calendarDay(s: string): CalendarDay | null {
  const [y, m, d] = s.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d ? { y, m: m - 1, d } : null;
}

export function createMcpMemoryTools(deps: McpMemoryToolsDeps): McpMemoryTools {
  const { store, memories } = deps;
  const zone = () => userTimeZone(deps.settings().timeZone);

  /** Registers the call and applies the consent rule: FORBIDDEN with the reason when the client may not. */
  function admit(name: string, tool: McpTool) {
    const client = store.seen(name);
    const consent = consentFor(client, tool, deps.settings().memoryMode);
    if (!consent.allowed) throw new MnemoError('FORBIDDEN', consent.reason);
    return client;
  }

  const dayText = (ms: number, tz: string) => isoDate(dayOf(ms, tz));
  function memoriesAnswer(found: readonly Memory[], none: string): McpToolAnswer {
    if (found.length === 0) return { text: none };
    const tz = zone();
    const items = found.map((m) => ({ id: m.id, category: m.category, since: dayText(m.createdAt, tz), ...(m.pinned ? { pinned: true } : {}), text: m.content }));
    return { text: `${found.length} ${found.length === 1 ? 'memory' : 'memories'} about the user (what they told Mnemo; "since" is the day it was written).\n${DATA_NOT_INSTRUCTIONS}\n${fenced(JSON.stringify(items, null, 1), 'json')}` };
  }

  return {
    seen: (name) => store.seen(name),
    client: (name) => store.get(name),

    async searchMemory(name, { query, category, from, to, limit }) {
      admit(name, 'search_memory');
      const tz = zone();
      const createdFrom = from !== undefined ? startOfDay(calendarDay(from)!, tz) : undefined;
      const createdTo = to !== undefined ? endOfDay(calendarDay(to)!, tz) : undefined;
      if (createdFrom !== undefined && createdTo !== undefined && createdFrom > createdTo) {
        throw new MnemoError('INVALID_INPUT', `"from" (${from}) is after "to" (${to}); give the earlier day first.`, { path: 'from' });
      }
      const { hits } = await memories.hybridSearch(
        query,
        {
          statuses: ['active'],
          expired: false,
          ...(category ? { categories: [category] } : {}),
          ...(createdFrom !== undefined ? { createdFrom } : {}),
          ...(createdTo !== undefined ? { createdTo } : {}),
        },
        { limit, keyword: 'search' },
      );
      const at = deps.clock.now();
      const found = hits.map((h) => toMemory(h.memory, at));
      store.recordRead(name, { tool: 'search_memory', memoryIds: found.map((m) => m.id), items: found.length });
      return memoriesAnswer(found, 'No memory matches. Mnemo only knows what the user told it; ask the user.');
    },

    listRecentMemories(name, { category, limit }) {
      admit(name, 'list_recent_memories');
      const { items } = memories.list({ statuses: ['active'], expired: false, ...(category ? { categories: [category] } : {}), sort: 'created', limit, offset: 0 });
      store.recordRead(name, { tool: 'list_recent_memories', memoryIds: items.map((m) => m.id), items: items.length });
      return memoriesAnswer(items, 'Mnemo holds no memories yet.');
    },

    getProfile(name) {
      admit(name, 'get_profile');
      const profile = deps.profile();
      store.recordRead(name, { tool: 'get_profile', memoryIds: [], items: profile ? 1 : 0 });
      if (!profile) return { text: 'There is no profile of the user (none written yet, or the user turned it off). search_memory may still find what you need.' };
      return { text: `The user's profile: what Mnemo knows about them, in short.\n${DATA_NOT_INSTRUCTIONS}\n${fenced(profile)}` };
    },

    async remember(name, { text, user_words: userWords, category }) {
      const client = admit(name, 'remember');
      const secret = secretRefusal(text) ?? (userWords !== undefined ? secretRefusal(userWords) : null);
      if (secret) throw new MnemoError('INVALID_INPUT', `Not remembered: ${secret}.`, { path: 'text' });
      const hash = contentHash(text);
      const same = memories.findByHash(hash);
      if (same.some((m) => m.status === 'rejected' || m.status === 'trashed')) {
        store.recordWrite(name, null);
        return { text: 'Not remembered: the user declined or deleted this before, so Mnemo does not keep it again.' };
      }
      const existing = same.find((m) => m.status === 'active' || m.status === 'archived' || m.status === 'review');
      if (existing) {
        store.recordWrite(name, existing.id);
        return { text: existing.status === 'review' ? 'Already waiting for the user’s review in Mnemo.' : 'Mnemo already remembers this.' };
      }
      const check = userWords !== undefined ? groundCandidate(text, userWords, indexUserWords(userWords), detectLanguage(userWords)) : null;
      // A problem (a string) or no quote: not grounded. Grounded: the quote (cut at the cap) becomes the evidence.
      const grounded: Grounded | null = typeof check === 'object' ? check : null;
      const instruction = looksLikeInstruction(text);
      const mode = deps.settings().memoryMode;
      const lands = rememberLands(client.access === 'write' ? 'write' : 'read', mode === 'ask' ? 'ask' : 'auto', {
        grounded: grounded !== null,
        instruction: instruction !== null,
        otherLanguage: grounded?.otherLanguage != null,
      });
      const embedding = (await memories.prepareEmbeddings([text]))?.[0] ?? null;
      const memory = memories.transaction(() => {
        const created = memories.createMemory(
          { content: text, category: category ?? 'knowledge', importance: 0.5 },
          {
            origin: 'extraction',
            status: lands === 'active' ? 'active' : 'review',
            evidence: grounded?.evidence ?? null,
            embedding,
            eventKind: lands === 'active' ? 'learned' : 'proposed',
            eventData: { mcpClient: name, ...flagOf(instruction?.reason ?? null, grounded?.otherLanguage ?? null) },
          },
        );
        store.recordWrite(name, created.id);
        return created;
      });
      deps.events.emit('memory.created', { memory });
      if (lands === 'active') return { text: `Remembered (memory ${memory.id}).` };
      const why =
        client.access !== 'write'
          ? 'this app may not write memories directly'
          : mode === 'ask'
            ? 'the user reviews every new memory first'
            : instruction
              ? 'it reads like an instruction rather than a fact about the user'
              : userWords === undefined
                ? 'no words of the user were quoted (user_words)'
                : 'it does not say only what the user’s quoted words say';
      return { text: `Saved for the user to review in Mnemo (${why}); it is used once the user approves it.` };
    },

    searchConversations(name, { query, limit }) {
      admit(name, 'search_conversations');
      // Another app asks outside any exchange: no message of one to leave out, and no time window.
      const found = deps.conversations.searchConversations({ query, limit, excludeMessageIds: new Set(), window: null, windowOnly: false });
      store.recordRead(name, { tool: 'search_conversations', memoryIds: [], items: found.length });
      if (found.length === 0) return { text: 'No message of the user in past conversations matches.' };
      const tz = zone();
      const items = found.map((m) => ({ conversation: m.threadTitle, day: dayText(m.createdAt, tz), userWrote: m.content }));
      return { text: `${found.length} of the user's own messages from past conversations with Mnemo.\n${DATA_NOT_INSTRUCTIONS}\n${fenced(JSON.stringify(items, null, 1), 'json')}` };
    },
  };
}
