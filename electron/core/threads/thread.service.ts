/**
 * Threads: create, list by last activity, rename, delete. Deleting takes the messages, the summary and the pending
 * jobs with it in one transaction (foreign keys cascade), and removes the messages' full-text entries.
 */
import { silentLogger, type Logger } from '../ports/logger.port';
import type { Thread } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { ThreadColumn, ThreadsStore } from '../conversation/threads.store';
import type { EventBus } from '../runtime/event-bus';
import type { Clock } from '../ports/clock.port';

export interface ThreadService {
  create(input: { title?: string | undefined; incognito: boolean }): Thread;
  list(input: { limit: number; beforeActivityAt?: number | undefined }): Thread[];
  get(threadId: number): Thread;
  rename(threadId: number, title: string): Thread;
  /** The user's choice of chat model for this thread; null: the chatModel setting. */
  setModel(threadId: number, model: string | null): Thread;
  /** The thread's own system prompt; empty: none. */
  setInstructions(threadId: number, instructions: string): Thread;
  delete(threadId: number): void;
  /** Announces (thread.updated) a change written elsewhere, after its commit (the automatic title); nothing for a thread gone meanwhile. */
  announceUpdated(threadId: number): void;
}

export function createThreadService(deps: { store: ThreadsStore; clock: Clock; events: EventBus; logger?: Logger }): ThreadService {
  const { store, clock, events } = deps;
  const notFound = (threadId: number) => new MnemoError('NOT_FOUND', `Thread ${threadId} does not exist (it may have been deleted).`);

  function get(threadId: number): Thread {
    const thread = store.get(threadId);
    if (!thread) throw notFound(threadId);
    return thread;
  }

  /** One column of one thread; then thread.updated. */
  function update(threadId: number, write: (now: number) => boolean): Thread {
    if (!write(clock.now())) throw notFound(threadId);
    const thread = get(threadId);
    events.emit('thread.updated', { thread });
    return thread;
  }
  const set = (threadId: number, column: ThreadColumn, value: string | null) => update(threadId, (now) => store.set(threadId, column, value, now));

  return {
    create({ title, incognito }) {
      const now = clock.now();
      // In a transaction, not autocommit, though it is one INSERT: see write-transaction.ts (RETURNING). The row is
      // read back inside it.
      const thread = store.transaction(() => get(store.insert(title, incognito, now)));
      events.emit('thread.created', { thread });
      return thread;
    },
    list({ limit, beforeActivityAt }) {
      return store.list(limit, beforeActivityAt);
    },
    get,
    announceUpdated(threadId) {
      const thread = store.get(threadId);
      if (thread) events.emit('thread.updated', { thread });
    },
    rename: (threadId, title) => update(threadId, (now) => store.rename(threadId, title, now)),
    setModel: (threadId, model) => set(threadId, 'model', model),
    setInstructions: (threadId, instructions) => set(threadId, 'instructions', instructions.trim() === '' ? null : instructions.trim()),
    delete(threadId) {
      const removed = store.transaction(() => store.delete(threadId));
      if (!removed) throw notFound(threadId);
      // The conversation's words also sit in the WAL until a checkpoint: fold it in now, as "delete forever" does.
      store.checkpoint(deps.logger ?? silentLogger);
      events.emit('thread.deleted', { threadId });
    },
  };
}
