import { z } from 'zod';
import { MemoryUse, Message } from './chat.contract';
import { Id, Ok, Timestamp, operation } from './define';

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
  messageCount: z.number().int().nonnegative(),
});
export type Thread = z.output<typeof Thread>;

/** The longest custom instructions, global or per thread; a prompt keeps what fits its system share (cut with a note). */
export const INSTRUCTIONS_MAX_CHARS = 4000;
export const Instructions = z.string().trim().max(INSTRUCTIONS_MAX_CHARS, `Instructions can be at most ${INSTRUCTIONS_MAX_CHARS} characters.`);

const Title = z.string().trim().min(1, 'A title cannot be empty.').max(200);

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
      /** For each answer on the page that used long-term memories: which ones, with score and reason. */
      receipts: z.array(z.object({ messageId: Id, memories: z.array(MemoryUse) })),
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
  'thread.exclusions': operation('Memories excluded from a thread.', z.object({ threadId: Id }).strict(), z.object({ memoryIds: z.array(Id) })),
};

export const threadEvents = {
  'thread.created': z.object({ thread: Thread }),
  'thread.updated': z.object({ thread: Thread }),
  'thread.deleted': z.object({ threadId: Id }),
};
