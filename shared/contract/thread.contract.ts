import { z } from 'zod';
import { EpisodeRef, ForgetNotice, MemoryUse, Message, MessageAttachment, MessageStatus, ToolSearch } from './chat.contract';
import { Id, Ok, Timestamp, operation } from './define';
import { ExportHeader, ImportContent } from './memory.contract';

export const Thread = z.object({
  id: Id,
  title: z.string(),
  incognito: z.boolean(),
  /** The chat model chosen for this thread; null: the chatModel setting. */
  model: z.string().nullable(),
  /** The thread's own system prompt, added after the global instructions; null: none. */
  instructions: z.string().nullable(),
  createdAt: Timestamp,
  lastActivityAt: Timestamp,
  /** Messages of the conversation shown (the active branch); earlier versions of edited messages are not counted. */
  messageCount: z.number().int().nonnegative(),
});
export type Thread = z.output<typeof Thread>;

/** The longest custom instructions, global or per thread; a prompt keeps what fits its system share (cut with a note). */
export const INSTRUCTIONS_MAX_CHARS = 4000;
export const Instructions = z.string().trim().max(INSTRUCTIONS_MAX_CHARS, `Instructions can be at most ${INSTRUCTIONS_MAX_CHARS} characters.`);

const Title = z.string().trim().min(1, 'A title cannot be empty.').max(200);

// ---- Moving conversations in and out ----
/** Written in every thread export; an import refuses a document with a newer version than it knows. */
export const THREAD_EXPORT_FORMAT = 'mnemo.threads';
export const THREAD_EXPORT_VERSION = 1;

/** A memory an answer used, as it read when exported (ids are the exporting database's: provenance only). */
export const ExportedMemoryUse = MemoryUse.extend({ content: z.string().nullable() });

export const ExportedMessage = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  /** Reasoning of thinking models; '' when there was none. */
  thinking: z.string().default(''),
  status: MessageStatus.exclude(['streaming']).default('complete'),
  model: z.string().nullable().default(null),
  createdAt: Timestamp,
  /** Answers only: the memories the answer used. */
  memoriesUsed: z.array(ExportedMemoryUse).default([]),
  /** Questions only: the files attached to it, with their text (what the model was given). */
  attachments: z.array(MessageAttachment).default([]),
  /**
   * The message this one follows, as its 0-based index in the thread's messages (null: a first message); absent: the
   * one before it. Versions (an edited question, a regenerated answer) share a parent.
   */
  parent: z.number().int().nonnegative().nullable().optional(),
});
export type ExportedMessage = z.output<typeof ExportedMessage>;

export const ExportedThread = z.object({
  title: z.string().max(200),
  incognito: z.boolean().default(false),
  model: z.string().nullable().default(null),
  /** The thread's own system prompt (thread.setInstructions); null: none. */
  instructions: z.string().max(4000).nullable().default(null),
  createdAt: Timestamp,
  lastActivityAt: Timestamp,
  /** The thread's running summary and how many of its first messages it covers. */
  summary: z.object({ content: z.string(), coveredMessages: z.number().int().nonnegative(), editedByUser: z.boolean().default(false) }).nullable().default(null),
  messages: z.array(ExportedMessage),
  /** 0-based index of the last message of the conversation shown (its other branches are kept too); absent: the last. */
  active: z.number().int().nonnegative().optional(),
});
export type ExportedThread = z.output<typeof ExportedThread>;

export const ThreadExportDocument = ExportHeader.extend({ format: z.literal(THREAD_EXPORT_FORMAT), threads: z.array(z.unknown()) });

export const ThreadImportItem = z.object({
  /** 0-based index in the document's threads. */
  index: z.number().int().nonnegative(),
  title: z.string(),
  /** Messages of the conversation shown (as Thread.messageCount counts them). */
  messages: z.number().int().nonnegative(),
  /** Messages of other versions (edited questions, regenerated answers), imported too. */
  otherVersions: z.number().int().nonnegative().default(0),
  /** duplicate: a thread with the same start, title and first message is already here (nothing changes). */
  outcome: z.enum(['new', 'duplicate', 'invalid']),
  reason: z.string().optional(),
  /** The new thread, after a real run. */
  threadId: Id.optional(),
});
export type ThreadImportItem = z.output<typeof ThreadImportItem>;

export const ThreadImportReport = z.object({
  dryRun: z.boolean(),
  new: z.number().int().nonnegative(),
  duplicate: z.number().int().nonnegative(),
  invalid: z.number().int().nonnegative(),
  /** Threads written (0 on a dry run). */
  written: z.number().int().nonnegative(),
  items: z.array(ThreadImportItem),
});
export type ThreadImportReport = z.output<typeof ThreadImportReport>;

export const threadOperations = {
  'thread.create': operation(
    'Starts a thread. Incognito threads are never read into or written to long-term memory.',
    z.object({ title: Title.optional(), incognito: z.boolean().default(false) }).strict(),
    Thread,
  ),
  'thread.list': operation(
    'Threads by last activity, newest first.',
    z.object({ limit: z.number().int().min(1).max(1000).default(200), beforeActivityAt: Timestamp.optional() }).strict(),
    z.object({ threads: z.array(Thread) }),
  ),
  'thread.get': operation('One thread.', z.object({ threadId: Id }).strict(), Thread),
  'thread.rename': operation('Renames a thread; an automatic title never overwrites it afterwards.', z.object({ threadId: Id, title: Title }).strict(), Thread),
  'thread.setModel': operation(
    "Chooses the chat model for this thread's next answers; null goes back to the chatModel setting.",
    z.object({ threadId: Id, model: z.string().trim().min(1).max(200).nullable() }).strict(),
    Thread,
  ),
  'thread.setInstructions': operation(
    "Sets the thread's own system prompt (empty: none). Never learned from.",
    z.object({ threadId: Id, instructions: Instructions }).strict(),
    Thread,
  ),
  'thread.delete': operation(
    'Deletes a thread with its messages, summary and pending jobs, in one transaction.',
    z.object({ threadId: Id }).strict(),
    Ok,
  ),
  'thread.messages': operation(
    'Messages of a thread, oldest first; page backwards with beforeId.',
    z.object({ threadId: Id, beforeId: Id.optional(), limit: z.number().int().min(1).max(1000).default(200) }).strict(),
    z.object({
      messages: z.array(Message),
      hasMore: z.boolean(),
      /**
       * For each answer on the page that used long-term memories: which ones, with score and reason; and the searches
       * the model ran with the memory tools, the requests to forget it handled, and the episodes of the question's time
       * its prompt carried (absent: none).
       */
      receipts: z.array(z.object({ messageId: Id, memories: z.array(MemoryUse), searches: z.array(ToolSearch).optional(), forgets: z.array(ForgetNotice).optional(), recalled: z.array(EpisodeRef).optional() })),
    }),
  ),
  'thread.search': operation(
    'Full-text search over all messages (Chinese and English).',
    z.object({ query: z.string().trim().min(1).max(500), limit: z.number().int().min(1).max(200).default(50) }).strict(),
    z.object({ hits: z.array(z.object({ threadId: Id, threadTitle: z.string(), message: Message })) }),
  ),
  'thread.excludeMemory': operation(
    'Do not use this memory in this thread again (from a receipt’s quick actions).',
    z.object({ threadId: Id, memoryId: Id }).strict(),
    Ok,
  ),
  'thread.includeMemory': operation('Undoes thread.excludeMemory.', z.object({ threadId: Id, memoryId: Id }).strict(), Ok),
  'thread.export': operation(
    'Exports one thread (threadId) or all of them: JSON with every message, its model, times, reasoning and the memories ' +
      'each answer used (what thread.import reads back), or Markdown for people.',
    z.object({ threadId: Id.optional(), format: z.enum(['json', 'md']).default('md') }).strict(),
    z.object({ content: z.string(), filename: z.string(), count: z.number().int().nonnegative() }),
  ),
  'thread.import': operation(
    'Reads a thread export (JSON) back as new threads, in one transaction; a thread already here is skipped. Nothing is ' +
      'learned from imported messages, and the memories their answers used are not linked (their ids belonged to the ' +
      'exporting database). dryRun reports without writing.',
    z.object({ content: ImportContent, dryRun: z.boolean().default(false) }).strict(),
    ThreadImportReport,
  ),
  'thread.switchBranch': operation(
    'Shows another version of a message (an edited question, a regenerated answer) and the conversation that followed it; ' +
      'refused while a reply is being written in the thread.',
    z.object({ messageId: Id, version: z.number().int().min(1) }).strict(),
    z.object({ threadId: Id, leafId: Id }),
  ),
  'thread.showMessage': operation(
    'Makes a message part of the conversation shown, to open it (a memory’s source, a search hit): nothing changes when it ' +
      'is shown already; a message on another version (edited away, a regenerated answer) switches the thread to the newest ' +
      'conversation that continues it (thread.branchSwitched). That switch is refused while a reply is being written in the thread.',
    z.object({ messageId: Id }).strict(),
    z.object({ threadId: Id, leafId: Id, switched: z.boolean() }),
  ),
  'thread.exclusions': operation('Memories excluded from a thread.', z.object({ threadId: Id }).strict(), z.object({ memoryIds: z.array(Id) })),
};

export const threadEvents = {
  'thread.created': z.object({ thread: Thread }),
  'thread.updated': z.object({ thread: Thread }),
  'thread.deleted': z.object({ threadId: Id }),
  /** The conversation shown is another branch: read thread.messages again. */
  'thread.branchSwitched': z.object({ threadId: Id, leafId: Id }),
};
