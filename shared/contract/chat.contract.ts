import { z } from 'zod';
import { Empty, Id, Timestamp, operation } from './define';
import { ATTACHMENT_LIMITS, MESSAGE_MAX_CHARS } from './input-limits';

export const MessageStatus = z.enum(['complete', 'streaming', 'stopped', 'error', 'truncated']);

/** A file attached to a user message, as the model sees it: its name and its extracted text. */
export const MessageAttachment = z.object({
  name: z.string().trim().min(1).max(ATTACHMENT_LIMITS.maxNameChars),
  text: z
    .string()
    .max(ATTACHMENT_LIMITS.maxTextChars, `An attached file can hold at most ${ATTACHMENT_LIMITS.maxTextChars.toLocaleString('en')} characters of text.`)
    .refine((t) => t.trim() !== '', 'An attached file has no text.'),
  /**
   * The user confirmed that Mnemo may learn from this file (absent or false: it never does). Extraction then reads
   * its text as the user's own words; an incognito thread or memory switched off still learns nothing.
   */
  learn: z.boolean().optional(),
});
export type MessageAttachment = z.output<typeof MessageAttachment>;

export const Message = z.object({
  id: Id,
  threadId: Id,
  role: z.enum(['user', 'assistant', 'system']),
  content: z.string(),
  /** Reasoning of thinking models, shown folded; never fed to summaries or extraction. */
  thinking: z.string(),
  status: MessageStatus,
  errorCode: z.string().nullable(),
  model: z.string().nullable(),
  promptTokens: z.number().int().nullable(),
  completionTokens: z.number().int().nullable(),
  totalDurationMs: z.number().nullable(),
  loadDurationMs: z.number().nullable(),
  evalDurationMs: z.number().nullable(),
  /** Files attached to a user message (absent: none). Sent to the model with it; never learned from. */
  attachments: z.array(MessageAttachment).optional(),
  /** The message this one follows (null: the first of its thread); absent in events from older hosts. */
  parentId: Id.nullable().optional(),
  /** Its place among its versions (an edited question, a regenerated answer), 1-based; absent when it has only one. */
  version: z.object({ index: z.number().int().positive(), count: z.number().int().positive() }).optional(),
  createdAt: Timestamp,
});
export type Message = z.output<typeof Message>;

export const MemoryUse = z.object({
  memoryId: Id,
  score: z.number(),
  reason: z.enum(['pinned', 'semantic', 'keyword', 'recency']),
  /** The words of the user's message this memory holds, as the message writes them ("matches 'tea'"); absent when none. */
  matched: z.array(z.string()).optional(),
});

const Tokens = z.number().int().nonnegative();
/** One block of custom instructions as it went into the system text: its tokens, and whether it was cut to fit. */
const InstructionsUse = z.object({ tokens: Tokens, cut: z.boolean() }).nullable();

/** An episode as a record of what the model saw names it: what an earlier conversation was about, its thread, its day. */
export const EpisodeRef = z.object({ episodeId: Id, threadId: Id, threadTitle: z.string(), title: z.string(), startedAt: Timestamp });
export type EpisodeRef = z.output<typeof EpisodeRef>;

/**
 * The episodes of the question's time window that its prompt carried ("What did we talk about last week?":
 * chat/prompt-assembly.ts), so the user sees why the model knew about that conversation. forgotten: how many of them
 * were deleted forever since (conversation/prompt-record-scrub.ts: their titles are not kept).
 */
export const RecalledEpisodes = z.object({ episodes: z.array(EpisodeRef), forgotten: z.number().int().nonnegative().default(0) });
export type RecalledEpisodes = z.output<typeof RecalledEpisodes>;

/**
 * What the model saw for one answer (electron/core/chat/prompt-assembly.ts), recorded when the prompt was assembled.
 * Tokens are Mnemo's estimates as the budget counts them (the conversation parts calibrated to the model); the
 * budget is the context window split into its shares. Ids and counts only: the messages themselves are in the thread.
 */
/** One search the model ran with a memory tool while answering (electron/core/chat/tool-loop.ts), as its receipt shows it. */
export const ToolSearch = z.object({
  /** search_memory, search_conversations, or the unknown name the model used. */
  tool: z.string().max(200),
  /** null when the call could not be read. */
  query: z.string().nullable(),
  memoryIds: z.array(Id),
  /** How many of memoryIds (the first ones) the prompt already held, pinned or retrieved: found, not repeated to the model. */
  inPrompt: z.number().int().nonnegative().default(0),
  /** Episodes search_memory returned (what earlier conversations were about); absent in rows written before episodes. */
  episodes: z.array(EpisodeRef).default([]),
  /** Past messages search_conversations returned, and whose they are (rows written before answers were searched: the user's). */
  messages: z.array(z.object({ messageId: Id, threadId: Id, threadTitle: z.string(), role: z.enum(['user', 'assistant']).default('user'), createdAt: Timestamp })),
  /** Results left out since: their episode was deleted forever or their thread deleted (their titles are not kept). */
  forgotten: z.number().int().nonnegative().default(0),
  /** What was wrong with the call (bad arguments, unknown tool, a repeated search), as the model was told; null: it ran. */
  problem: z.string().nullable(),
  /** The tool message's tokens, and whether results were left out to fit. */
  tokens: Tokens,
  cut: z.boolean(),
});
export type ToolSearch = z.output<typeof ToolSearch>;

/**
 * A request to forget handled while answering (electron/core/memory/memory-forget.ts): from the user's message
 * ("Forget that I live in Berlin") or the model's forget_memory call. The chat shows it under the answer: what went
 * to the trash with Undo, or the candidates to pick from, or that nothing matched.
 */
export const ForgetNotice = z.object({
  via: z.enum(['message', 'tool']),
  /** What was asked to be forgotten, as asked (the user's words, or the model's query). */
  request: z.string(),
  /** Moved to the trash (restorable: Undo). */
  trashed: z.array(Id),
  /** Several matched: nothing of them trashed, the user picks. Empty with `trashed` empty: nothing matched. */
  candidates: z.array(Id),
});
export type ForgetNotice = z.output<typeof ForgetNotice>;

export const PromptContext = z.object({
  model: z.string(),
  budget: z.object({ contextWindow: Tokens, system: Tokens, memories: Tokens, conversation: Tokens, reply: Tokens }),
  system: z.object({
    /** The system text as sent, without the memories block (those are listed by id below). */
    text: z.string(),
    tokens: Tokens,
    globalInstructions: InstructionsUse,
    threadInstructions: InstructionsUse,
  }),
  /**
   * tokens: the profile's (when it went in) and the memories'. profileCut: the profile did not fit its share, and the
   * model saw only its first `lines` of `ofLines` lines (null: all of it, or none went in).
   */
  memories: z.object({
    ids: z.array(Id),
    tokens: Tokens,
    profile: z.boolean().default(false),
    profileCut: z.object({ lines: z.number().int().nonnegative(), ofLines: z.number().int().nonnegative() }).nullable().default(null),
  }),
  summary: z.object({ included: z.boolean(), tokens: Tokens }),
  /** Earlier messages of the thread sent verbatim, and the oldest of them (null: none). */
  recent: z.object({ count: z.number().int().nonnegative(), tokens: Tokens, fromMessageId: Id.nullable() }),
  /** The question being answered (its tokens include its attachments'). */
  question: z.object({ tokens: Tokens }),
  /** The question's attached files: their tokens, and whether one was cut to fit the conversation share. */
  attachments: z.object({ count: z.number().int().nonnegative(), tokens: Tokens, cut: z.boolean() }).default({ count: 0, tokens: 0, cut: false }),
  /** True when an older message did not fit the conversation share. */
  conversationCut: z.boolean(),
  /**
   * The memory tools: whether they were offered, the searches the model ran (in order), and whether the server
   * refused tools so the answer fell back to injected memories.
   */
  tools: z.object({ offered: z.boolean(), searches: z.array(ToolSearch), refused: z.boolean() }).default({ offered: false, searches: [], refused: false }),
  /** The thread's working memory (its own share of the conversation share): tokens, whether the focus went in, how many open tasks. */
  workingMemory: z.object({ tokens: Tokens, focus: z.boolean(), tasks: z.number().int().nonnegative() }).default({ tokens: 0, focus: false, tasks: 0 }),
  /** The memory search for this prompt: semanticTimedOut, the question's embedding took longer than settings.retrieval.timeBudgetMs, so keyword results only. */
  retrieval: z.object({ semanticTimedOut: z.boolean() }).default({ semanticTimedOut: false }),
  /**
   * The output cap the request that wrote the answer carried (num_predict for Ollama, max_tokens for an
   * OpenAI-compatible server): what the context window left after its prompt. null: an answer recorded before caps.
   */
  replyCap: Tokens.nullable().default(null),
  /** Requests to forget handled for this answer (the model was told what happened); absent in rows written before. */
  forgets: z.array(ForgetNotice).default([]),
  /** The episodes of the question's time window the prompt carried; absent in rows written before: none. */
  recalled: RecalledEpisodes.default({ episodes: [], forgotten: 0 }),
});
export type PromptContext = z.output<typeof PromptContext>;

const ModelName = z.string().trim().min(1).max(200);

export const chatOperations = {
  'chat.send': operation(
    'Sends a user message and streams the reply (message.delta events); resolves when the reply and its writes are done.',
    z
      .object({
        threadId: Id.optional(),
        text: z.string().trim().min(1, 'A message cannot be empty.').max(MESSAGE_MAX_CHARS),
        /** Becomes the thread's model (thread.setModel): the user chose it. Without it: the thread's, else the setting. */
        model: ModelName.optional(),
        /** Only for a new thread (no threadId). */
        incognito: z.boolean().optional(),
        /** Files whose text goes to the model with the message (cut to fit when too long); never learned from. */
        attachments: z.array(MessageAttachment).max(ATTACHMENT_LIMITS.maxFiles, `At most ${ATTACHMENT_LIMITS.maxFiles} files can be attached to one message.`).optional(),
      })
      .strict(),
    z.object({ threadId: Id, userMessage: Message, assistantMessage: Message, memoriesUsed: z.array(MemoryUse) }),
  ),
  'chat.retry': operation(
    'Answers the last user message again after a failed, stopped or cut reply: an empty failed reply is replaced, one with text stays as an earlier version.',
    /** model: for this answer only; the thread keeps its own. */
    z.object({ threadId: Id, model: ModelName.optional() }).strict(),
    z.object({ threadId: Id, userMessage: Message, assistantMessage: Message, memoriesUsed: z.array(MemoryUse) }),
  ),
  'chat.edit': operation(
    'Sends a new version of an earlier question of yours (with its attachments) and streams the reply as chat.send does; ' +
      'the old question and what followed it stay as a branch (thread.switchBranch).',
    z
      .object({
        messageId: Id,
        text: z.string().trim().min(1, 'An edited message cannot be empty.').max(MESSAGE_MAX_CHARS),
        /** As chat.send's: becomes the thread's model. */
        model: ModelName.optional(),
      })
      .strict(),
    z.object({ threadId: Id, userMessage: Message, assistantMessage: Message, memoriesUsed: z.array(MemoryUse) }),
  ),
  'chat.regenerate': operation(
    'Writes a new version of an answer to the same question and streams it; the old answer and what followed it stay as a branch.',
    /** model: for this answer only; the thread keeps its own. */
    z.object({ messageId: Id, model: ModelName.optional() }).strict(),
    z.object({ threadId: Id, userMessage: Message, assistantMessage: Message, memoriesUsed: z.array(MemoryUse) }),
  ),
  'chat.typing': operation(
    'The user is typing a message: background model work holds off for a few seconds (and a running background request is stopped) so the model is free when it is sent.',
    Empty,
    z.object({}),
  ),
  'chat.stop': operation(
    "Stops the thread's streaming reply; what was streamed is kept, marked stopped.",
    z.object({ threadId: Id }).strict(),
    z.object({ stopped: z.boolean() }),
  ),
  'chat.context': operation(
    'What the model saw for an answer: system text, memories, summary, recent messages, tokens per part against the budget. Null for answers written before Mnemo recorded it.',
    z.object({ messageId: Id }).strict(),
    PromptContext.nullable(),
  ),
};

export const chatEvents = {
  'message.created': z.object({ message: Message }),
  'message.delta': z.object({ threadId: Id, messageId: Id, content: z.string(), thinking: z.string() }),
  /**
   * The model asked for a search with a memory tool while writing this answer, and it is running now (the chat shows
   * "Searching memories: …" until the answer's text goes on). Only searches that run: a refused call sends none.
   */
  'message.searchStarted': z.object({ threadId: Id, messageId: Id, tool: z.enum(['search_memory', 'search_conversations']), query: z.string() }),
  /** toolSearches: the searches the model ran with the memory tools (absent: none). */
  /** forgets: requests to forget handled for this answer (absent: none). recalled: the time's episodes its prompt carried (absent: none). */
  'message.completed': z.object({ message: Message, memoriesUsed: z.array(MemoryUse), toolSearches: z.array(ToolSearch).optional(), forgets: z.array(ForgetNotice).optional(), recalled: z.array(EpisodeRef).optional() }),
};
