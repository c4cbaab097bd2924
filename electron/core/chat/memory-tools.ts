/**
 * The memory tools a chat model may call, and running one call: what the model is offered (definitions and the one
 * system rule), reading what it asked for, and the tool message it gets back. The rounds of calls within one answer
 * are tool-loop.ts's.
 *
 * - search_memory(query, category?, limit?): active, unexpired memories by the hybrid search (meaning and keywords,
 *   Chinese and English alike), never one the user excluded from the thread; without a category also the episodes
 *   (what earlier conversations were about, episodes/) that match, at most EPISODE_RESULTS, after the memories.
 * - search_conversations(query, limit?): past messages, the user's and the assistant's answers, each line saying whose
 *   ("the user wrote" / "you answered": "what did you recommend?" asks for the assistant's words), by keyword search
 *   over messages_fts (CJK bigrams), with the thread's title and the day; never an incognito thread's, never a message
 *   already in this prompt, never a version the user left (memory-tool-sources.ts).
 * - forget_memory(query): what the user asked to forget, by the one rule of a request in their message
 *   (memory/memory-forget.ts): one clear match to the trash (Undo under the answer), several for the user to pick,
 *   or none; never a purge. The model is told what happened in the words the chat uses (forget-in-chat.ts).
 * - Time: both take an optional date range (from, to: days in the user's zone, both included), and a time phrase in
 *   the query ("dentist last week", 上周 牙医) is read by the same rule as a question's (time/time-window.ts) when no
 *   range is given. A range is a filter: memories learned in it, episodes and messages of it; a time in the query
 *   orders, as in the prompt (memory-search.ts): what it holds first, then the topic's other matches. The query is
 *   then its topic and may be empty ("what did we talk about last week": the window's newest).
 * - A memory the search finds that is already in the prompt (pinned, or retrieved for the question) is not repeated:
 *   the tool message says how many of the matches are already in the notes above, and the receipt shows them as such
 *   (ToolSearch.inPrompt), so a search that found only those does not read as "0 found".
 * Where results come from is a small interface (MemoryToolSources), wired in create-core.ts.
 *
 * Invariants: a call never throws at the model. Arguments that are not a JSON object, a missing or empty query,
 * wrong types, an unknown tool: the tool message says what was wrong and how to call it. A tool message never exceeds
 * its token allowance: results are added whole while they fit, each message text cut to MESSAGE_TOKENS, and a note
 * says how many were left out.
 */
import type { MemoryCategory } from '../../../shared/contract';
import type { PromptEpisode, RetrievedMemory } from '../ports/memory-retrieval.port';
import type { ToolDefinition } from '../llm/llm.port';
import { fitToTokens } from '../llm/context-budget';
import { addDays, dayOf, isoDate, startOfDay } from '../../../shared/calendar-day';
import type { ForgetResult } from '../memory/memory-forget';
import { forgetReport } from './forget-in-chat';
import { validDay } from '../time/date-words';
import { findQuestionTime, inThePast, type TimeWindow } from '../time/time-window';

export const MEMORY_TOOL_NAMES = ['search_memory', 'search_conversations', 'forget_memory'] as const;
export type MemoryToolName = (typeof MEMORY_TOOL_NAMES)[number];
/** The tools that look things up (the chat says "Searching …" while one runs). */
export type SearchToolName = Exclude<MemoryToolName, 'forget_memory'>;

const CATEGORIES: readonly MemoryCategory[] = ['knowledge', 'preference', 'project', 'skill'];
export const DEFAULT_RESULTS = 5;
export const MAX_RESULTS = 10;
/** A query longer than this is cut: a search is a few words, not a pasted text. */
export const MAX_QUERY_CHARS = 300;
/** A past message is quoted up to this many tokens (its beginning), so one long message cannot fill the allowance. */
export const MESSAGE_TOKENS = 120;
/** Episodes a search_memory call adds after the memories: a few, each quoted like a message (MESSAGE_TOKENS). */
export const EPISODE_RESULTS = 3;

/** The line the system text gains when tools are offered: what they are for and when to use them. */
export const MEMORY_TOOLS_RULE =
  'You can look things up with two tools: search_memory (what you know about the user: facts, preferences, projects) and ' +
  'search_conversations (what the user said and what you answered in earlier conversations). Use them when the answer depends on something ' +
  'about the user or an earlier conversation that is not already above; do not use them for general knowledge. ' +
  'When the user asks you to forget something about them, call forget_memory with what to forget.';

const DATE_RANGE_PROPERTIES = {
  from: { type: 'string', description: 'Only from this day on (YYYY-MM-DD), e.g. for "last week" its Monday.' },
  to: { type: 'string', description: 'Only up to this day, included (YYYY-MM-DD).' },
};

export const MEMORY_TOOL_DEFINITIONS: ToolDefinition[] = [
  {
    name: 'search_memory',
    description: "Searches the long-term memories Mnemo keeps about the user (facts, preferences, projects, skills). Works in any language.",
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to look for, in a few words, e.g. "cat\'s name" or "咖啡 偏好". May be empty with a date range.' },
        category: { type: 'string', enum: [...CATEGORIES], description: 'Only memories of this kind.' },
        limit: { type: 'integer', description: `How many results, 1 to ${MAX_RESULTS} (default ${DEFAULT_RESULTS}).` },
        ...DATE_RANGE_PROPERTIES,
      },
      required: ['query'],
    },
  },
  {
    name: 'search_conversations',
    description: "Searches earlier conversations (not this one): what the user wrote and what you answered, each result saying which, with its conversation's title and date.",
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'Words the user or your answer would have used, e.g. "Kyoto trip", "knee exercises" or "京都 旅行". May be empty with a date range.' },
        limit: { type: 'integer', description: `How many results, 1 to ${MAX_RESULTS} (default ${DEFAULT_RESULTS}).` },
        ...DATE_RANGE_PROPERTIES,
      },
      required: ['query'],
    },
  },
  {
    name: 'forget_memory',
    description: 'Forgets what the user asked you to forget: the matching memories go to the trash (the user can undo), or the user picks when several match.',
    parameters: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What to forget, in the user\'s words, e.g. "lives in Berlin" or "住在柏林".' },
      },
      required: ['query'],
    },
  },
];

export interface FoundMemory extends RetrievedMemory {
  content: string;
  category: MemoryCategory;
}

/** An episode a search found: the same shape the prompt quotes (memory-retrieval.port.ts PromptEpisode). */
export type FoundEpisode = PromptEpisode;

export interface FoundMessage {
  messageId: number;
  threadId: number;
  threadTitle: string;
  /** Who wrote it: the user, or the assistant (an earlier answer). */
  role: 'user' | 'assistant';
  createdAt: number;
  content: string;
}

/** Where the tools look. Each source applies the privacy rules of its own data (exclusions, incognito). */
/**
 * Where the tools look. Each source applies the privacy rules of its own data (exclusions, incognito). `query` is
 * the topic (a time phrase taken out); with a `window`, what it holds (memories learned in it, episodes and messages
 * of it): only that when `windowOnly` (a date range), else first (a time in the query); its newest when the query
 * names no subject.
 */
export interface MemoryToolSources {
  searchMemories(input: { query: string; category: MemoryCategory | null; limit: number; threadId: number; window: TimeWindow | null; windowOnly: boolean }): Promise<FoundMemory[]>;
  searchConversations(input: { query: string; limit: number; excludeMessageIds: ReadonlySet<number>; window: TimeWindow | null; windowOnly: boolean }): FoundMessage[];
  /** Active episodes, best first. */
  searchEpisodes(input: { query: string; limit: number; window: TimeWindow | null; windowOnly: boolean }): FoundEpisode[];
  /** What a request to forget means, done (memory/memory-forget.ts). */
  forgetMemories(input: { query: string }): Promise<ForgetResult>;
}

/** `query` as the model wrote it; `topic` without the time it names; `window` the range (`windowOnly`) or that time. */
interface ParsedSearch {
  query: string;
  topic: string;
  window: TimeWindow | null;
  windowOnly: boolean;
  limit: number;
}

export type ParsedCall =
  | ({ ok: true; tool: 'search_memory'; category: MemoryCategory | null } & ParsedSearch)
  | ({ ok: true; tool: 'search_conversations' } & ParsedSearch)
  | { ok: true; tool: 'forget_memory'; query: string }
  | { ok: false; problem: string };

/** What dates in a call mean: the user's zone and the time of the question. */
export interface CallTime {
  now: number;
  timeZone: string;
}

/**
 * Reads a call as the server sent it (arguments an object, a JSON string, or anything). Pure: the time is passed in.
 */
export function parseToolCall(name: string, raw: unknown, time: CallTime): ParsedCall {
  if (!(MEMORY_TOOL_NAMES as readonly string[]).includes(name)) {
    return { ok: false, problem: `There is no tool named "${clip(name, 60)}". The tools are: ${MEMORY_TOOL_NAMES.join(', ')}.` };
  }
  const args = argumentsObject(raw);
  if (args === null) return { ok: false, problem: `The arguments of ${name} must be a JSON object, e.g. {"query": "…"}.` };
  const range = '"from"?: "YYYY-MM-DD", "to"?: "YYYY-MM-DD"';
  const usage =
    name === 'search_memory'
      ? `search_memory needs {"query": "<words>", "category"?: one of ${CATEGORIES.join('|')}, "limit"?: 1-10, ${range}}`
      : name === 'forget_memory'
        ? 'forget_memory needs {"query": "<what to forget>"}'
        : `search_conversations needs {"query": "<words>", "limit"?: 1-10, ${range}}`;
  if (name === 'forget_memory') {
    if (typeof args.query !== 'string' || !args.query.trim()) return { ok: false, problem: `"query" is missing or empty. ${usage}.` };
    return { ok: true, tool: name, query: args.query.trim().slice(0, MAX_QUERY_CHARS) };
  }
  const dates = readRange(args.from, args.to, time.timeZone);
  if (typeof dates === 'string') return { ok: false, problem: `${dates} ${usage}.` };
  const rawQuery = args.query === undefined || args.query === null ? '' : args.query;
  if (typeof rawQuery !== 'string' || (!rawQuery.trim() && dates === null)) return { ok: false, problem: `"query" is missing or empty. ${usage}.` };
  const query = rawQuery.trim().slice(0, MAX_QUERY_CHARS);
  const limit = readLimit(args.limit);
  if (limit === null) return { ok: false, problem: `"limit" must be a whole number from 1 to ${MAX_RESULTS}. ${usage}.` };
  // An explicit range wins; else the time the query names, if any (its words are then no topic words).
  const found = dates === null ? findQuestionTime(query, time.now, time.timeZone) : null;
  // A time wholly ahead ("next week") filters nothing learned: its words stay in the topic.
  const asked = found && inThePast(found.window, time.now) ? found : null;
  const search = { query, topic: asked ? asked.topic : query, window: dates ?? (asked ? inThePast(asked.window, time.now) : null), windowOnly: dates !== null, limit };
  if (name === 'search_conversations') return { ok: true, tool: name, ...search };
  const category = args.category ?? null;
  if (category !== null && !CATEGORIES.includes(category as MemoryCategory)) {
    return { ok: false, problem: `"category" must be one of ${CATEGORIES.join(', ')} (or left out). ${usage}.` };
  }
  return { ok: true, tool: 'search_memory', category: category as MemoryCategory | null, ...search };
}

/** "from" and "to" as days of the user's zone (both included) -> a window; null when neither; a problem's text when wrong. */
function readRange(from: unknown, to: unknown, timeZone: string): TimeWindow | null | string {
  const day = (raw: unknown, key: string) => {
    if (raw === undefined || raw === null || raw === '') return null;
    const m = typeof raw === 'string' ? /^\s*(\d{4})-(\d{1,2})-(\d{1,2})\s*$/.exec(raw) : null;
    const d = m ? validDay(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
    return d ?? `"${key}" must be a day written YYYY-MM-DD, e.g. "2026-03-14".`;
  };
  const first = day(from, 'from');
  const last = day(to, 'to');
  if (typeof first === 'string') return first;
  if (typeof last === 'string') return last;
  if (first === null && last === null) return null;
  const window = { from: first ? startOfDay(first, timeZone) : 0, to: last ? startOfDay(addDays(last, 1), timeZone) : Number.MAX_SAFE_INTEGER };
  return window.from < window.to ? window : '"from" must not be after "to".';
}

/** The same search twice in one answer is a loop: this key says two calls are the same search. */
export function callKey(call: Extract<ParsedCall, { ok: true }>): string {
  return JSON.stringify([
    call.tool,
    call.query.toLowerCase().replace(/\s+/g, ' '),
    call.tool === 'search_memory' ? call.category : null,
    call.tool === 'forget_memory' ? null : [call.limit, call.window, call.windowOnly],
  ]);
}

export interface ToolRun {
  /** The tool message for the model, within the allowance. */
  text: string;
  /** The memories found: first those already in the prompt (`inPrompt` of them, not repeated to the model), then the others it was given. */
  memories: FoundMemory[];
  inPrompt: number;
  episodes: FoundEpisode[];
  messages: FoundMessage[];
  /** True when results were left out to fit. */
  cut: boolean;
  /** forget_memory: what it did. */
  forgot?: ForgetResult;
}

/** Runs one parsed call and writes its tool message within `maxTokens`. */
export async function runMemoryTool(
  sources: MemoryToolSources,
  call: Extract<ParsedCall, { ok: true }>,
  context: {
    threadId: number;
    excludeMessageIds: ReadonlySet<number>;
    /** Memories the prompt already holds (pinned or retrieved for the question). */
    inPromptMemoryIds: ReadonlySet<number>;
    maxTokens: number;
    timeZone: string;
    estimate: (s: string) => number;
  },
): Promise<ToolRun> {
  if (call.tool === 'forget_memory') {
    const forgot = await sources.forgetMemories({ query: call.query });
    return { text: fitToTokens(forgetReport(call.query, forgot), context.maxTokens, context.estimate), memories: [], inPrompt: 0, episodes: [], messages: [], cut: false, forgot };
  }
  const { window, windowOnly } = call;
  if (call.tool === 'search_memory') {
    const all = await sources.searchMemories({ query: call.topic, category: call.category, limit: call.limit, threadId: context.threadId, window, windowOnly });
    const already = all.filter((m) => context.inPromptMemoryIds.has(m.memoryId));
    const found = all.filter((m) => !context.inPromptMemoryIds.has(m.memoryId));
    // Episodes have no category: a search narrowed to one is about memories only.
    const episodes = call.category === null ? sources.searchEpisodes({ query: call.topic, limit: Math.min(call.limit, EPISODE_RESULTS), window, windowOnly }) : [];
    const lines = [
      ...found.map((m) => `- [${m.category}] ${m.content}`),
      ...episodes.map((e) => `- [episode, ${isoDate(dayOf(e.startedAt, context.timeZone))}, in "${clip(e.threadTitle.trim() || 'untitled', 80)}"] ${quote(`${e.title}: ${e.content}`, context.estimate)}`),
    ];
    const what = `"${call.query}"${window ? ` (${rangeText(window, context.timeZone)}${windowOnly ? '' : ' first'})` : ''}`;
    const above = already.length === 0 ? '' : ` ${already.length} of the matches ${already.length === 1 ? 'is' : 'are'} already in the long-term memory notes above (not repeated here)${lines.length > 0 ? '; the others:' : '.'}`;
    const head = lines.length === 0 && already.length === 0 ? `No memory matches ${what}.` : `Memories matching ${what}:${above}`;
    const fitted = fitLines(head, lines, context.maxTokens, context.estimate);
    return {
      text: fitted.text,
      memories: [...already, ...found.slice(0, fitted.kept)],
      inPrompt: already.length,
      episodes: episodes.slice(0, Math.max(0, fitted.kept - found.length)),
      messages: [],
      cut: fitted.kept < lines.length,
    };
  }
  const found = sources.searchConversations({ query: call.topic, limit: call.limit, excludeMessageIds: context.excludeMessageIds, window, windowOnly });
  const lines = found.map((m) => {
    const day = isoDate(dayOf(m.createdAt, context.timeZone));
    const title = m.threadTitle.trim() || 'untitled';
    return `- ${day}, in "${clip(title, 80)}", ${m.role === 'user' ? 'the user wrote' : 'you answered'}: ${quote(m.content, context.estimate)}`;
  });
  const what = `"${call.query}"${window ? ` (${rangeText(window, context.timeZone)}${windowOnly ? '' : ' first'})` : ''}`;
  const head = found.length === 0 ? `Nothing in other conversations matches ${what}.` : `Earlier conversations matching ${what} (what the user wrote and what you answered):`;
  const fitted = fitLines(head, lines, context.maxTokens, context.estimate);
  return { text: fitted.text, memories: [], inPrompt: 0, episodes: [], messages: found.slice(0, fitted.kept), cut: fitted.kept < found.length };
}

/** "2026-01-05 to 2026-01-11" in the user's zone, for the tool message: the model sees which days it searched. */
function rangeText(window: TimeWindow, timeZone: string): string {
  const first = window.from > 0 ? isoDate(dayOf(window.from, timeZone)) : null;
  const last = window.to < Number.MAX_SAFE_INTEGER ? isoDate(dayOf(window.to - 1, timeZone)) : null;
  if (first && last) return first === last ? `on ${first}` : `${first} to ${last}`;
  return first ? `from ${first}` : `up to ${last}`;
}

/** The head and as many whole lines as fit, then a note of how many were left out (the note's room is kept). Pure. */
export function fitLines(head: string, lines: readonly string[], maxTokens: number, estimate: (s: string) => number): { text: string; kept: number } {
  const note = (n: number) => `(${n} more left out to fit the prompt.)`;
  let text = fitToTokens(head, maxTokens, estimate);
  let kept = 0;
  for (const line of lines) {
    const next = `${text}\n${line}`;
    const left = lines.length - kept - 1;
    if (estimate(next) + (left > 0 ? estimate(note(left)) + 1 : 0) > maxTokens) break;
    text = next;
    kept++;
  }
  if (kept < lines.length) {
    const withNote = `${text}\n${note(lines.length - kept)}`;
    if (estimate(withNote) <= maxTokens) text = withNote;
  }
  return { text, kept };
}

function argumentsObject(raw: unknown): Record<string, unknown> | null {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw.trim() || '{}');
    } catch {
      return null;
    }
  }
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** Absent: the default; a whole number (or a string of one, as small models write it) from 1 up, capped; else null. */
function readLimit(raw: unknown): number | null {
  if (raw === undefined || raw === null) return DEFAULT_RESULTS;
  const n = typeof raw === 'string' && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) return null;
  return Math.min(n, MAX_RESULTS);
}

/** A text on one line, its beginning up to MESSAGE_TOKENS, marked when cut. */
function quote(text: string, estimate: (s: string) => number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return `${fitToTokens(line, MESSAGE_TOKENS, estimate)}${estimate(line) > MESSAGE_TOKENS ? ' […]' : ''}`;
}

function clip(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars - 1)}…` : text;
}
