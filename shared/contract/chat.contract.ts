import { z } from 'zod';
import { Id, Timestamp, operation } from './define';

export const MessageStatus = z.enum(['complete', 'streaming', 'stopped', 'error', 'truncated']);

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


const ModelName = z.string().trim().min(1).max(200);

export const chatOperations = {
  'chat.send': operation(
    'Sends a user message and streams the reply (message.delta events); resolves when the reply and its writes are done.',
    z
      .object({
        threadId: Id.optional(),
        text: z.string().trim().min(1, 'A message cannot be empty.').max(100_000),
        model: ModelName.optional(),
        /** Only for a new thread (no threadId). */
        incognito: z.boolean().optional(),
      })
      .strict(),
    z.object({ threadId: Id, userMessage: Message, assistantMessage: Message, memoriesUsed: z.array(MemoryUse) }),
  ),
  'chat.retry': operation(
    'Answers the last user message again, replacing a failed, stopped or cut reply.',
    z.object({ threadId: Id, model: ModelName.optional() }).strict(),
    z.object({ threadId: Id, userMessage: Message, assistantMessage: Message, memoriesUsed: z.array(MemoryUse) }),
  ),
  'chat.stop': operation(
    "Stops the thread's streaming reply; what was streamed is kept, marked stopped.",
    z.object({ threadId: Id }).strict(),
    z.object({ stopped: z.boolean() }),
  ),
};

export const chatEvents = {
  'message.created': z.object({ message: Message }),
  'message.delta': z.object({ threadId: Id, messageId: Id, content: z.string(), thinking: z.string() }),
  'message.completed': z.object({ message: Message, memoriesUsed: z.array(MemoryUse) }),
};
