/**
 * `thread.*`: threads, their messages, and the memories a thread leaves out. Deleting a thread is a use case across
 * domains: its answer is stopped first, then the thread goes (messages, summary and jobs by cascade), then a job
 * still running for it is aborted.
 */
import { MnemoError } from '../../../shared/errors';
import type { MessagesStore } from '../conversation/messages.store';
import type { JobQueue } from '../jobs/job-queue';
import type { Memory } from '../../../shared/contract';
import type { HandlersFor } from '../rpc/dispatcher';
import type { Clock } from '../ports/clock.port';
import type { ThreadExclusionsStore } from './thread-exclusions.store';
import type { ThreadExporter } from './thread-export';
import type { ThreadImporter } from './thread-import';
import type { ThreadService } from './thread.service';

/** What thread operations ask of the chat (chat/chat.service.ts), typed here: threads/ ranks below chat/. */
export interface ThreadChat {
  /** Stops the thread's answer being written, if one is. */
  stop(threadId: number): boolean;
  switchBranch(input: { messageId: number; version: number }): { threadId: number; leafId: number };
  showMessage(input: { messageId: number }): { threadId: number; leafId: number; switched: boolean };
}

export interface ThreadHandlerDeps {
  threads: ThreadService;
  messages: MessagesStore;
  chat: ThreadChat;
  queue: JobQueue;
  exclusions: ThreadExclusionsStore;
  clock: Clock;
  memory: (memoryId: number) => Memory | null;
  exporter: ThreadExporter;
  importer: ThreadImporter;
  /** Refuses a model that is not installed or cannot chat (models.service.ts). */
  assertCanChat: (model: string) => Promise<void>;
}

export function threadHandlers(deps: ThreadHandlerDeps): HandlersFor<'thread'> {
  const { threads, messages, chat, queue, exclusions } = deps;
  return {
    'thread.create': (input) => threads.create(input),
    'thread.list': (input) => ({ threads: threads.list(input) }),
    'thread.get': ({ threadId }) => threads.get(threadId),
    'thread.rename': ({ threadId, title }) => threads.rename(threadId, title),
    'thread.setModel': async ({ threadId, model }) => {
      threads.get(threadId); // NOT_FOUND first: the model server need not be asked for a thread that is gone
      if (model !== null) await deps.assertCanChat(model);
      return threads.setModel(threadId, model);
    },
    'thread.setInstructions': ({ threadId, instructions }) => threads.setInstructions(threadId, instructions),
    'thread.delete': ({ threadId }) => {
      chat.stop(threadId);
      threads.delete(threadId);
      queue.abortIfGone();
      return { ok: true as const };
    },
    'thread.messages': ({ threadId, beforeId, limit }) => {
      threads.get(threadId);
      return messages.page(threadId, beforeId, limit);
    },
    'thread.search': ({ query, limit }) => ({ hits: messages.search(query, limit) }),
    'thread.excludeMemory': ({ threadId, memoryId }) => {
      threads.get(threadId);
      if (!deps.memory(memoryId)) throw new MnemoError('NOT_FOUND', `Memory ${memoryId} does not exist.`);
      exclusions.exclude(threadId, memoryId, deps.clock.now());
      return { ok: true as const };
    },
    'thread.includeMemory': ({ threadId, memoryId }) => {
      exclusions.include(threadId, memoryId);
      return { ok: true as const };
    },
    'thread.export': (input) => deps.exporter.export(input),
    'thread.import': (input) => deps.importer.import(input),
    'thread.switchBranch': (input) => chat.switchBranch(input),
    'thread.showMessage': (input) => chat.showMessage(input),
    'thread.exclusions': ({ threadId }) => {
      threads.get(threadId);
      return { memoryIds: exclusions.of(threadId) };
    },
  };
}
