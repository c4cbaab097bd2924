/**
 * Threads: create, list by last activity, rename, delete. Deleting takes the messages, the summary and the pending
 * jobs with it in one transaction (foreign keys cascade), and removes the messages' full-text entries.
 */
import { forgetThreadInRecords } from '../conversation/prompt-record-scrub';
import { checkpointAfterPurge } from '../db/checkpoint-after-purge';
import { silentLogger, type Logger } from '../ports/logger.port';
import type { Thread } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { ACTIVE_PATH_LENGTH_SQL } from '../conversation/message-branches';
import type { Sqlite } from '../db/open-database';
import { writeTransaction } from '../db/write-transaction';
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

interface Row {
  id: number;
  title: string;
  incognito: number;
  model: string | null;
  instructions: string | null;
  created_at: number;
  last_activity_at: number;
  message_count: number;
}

function toThread(r: Row): Thread {
  return {
    id: r.id,
    title: r.title,
    incognito: r.incognito === 1,
    model: r.model,
    instructions: r.instructions,
    createdAt: r.created_at,
    lastActivityAt: r.last_activity_at,
    messageCount: r.message_count,
  };
}

// The count is of the conversation shown (the active path), not of every version kept (message-branches.ts).
const SELECT_THREAD = `SELECT t.id, t.title, t.incognito, t.model, t.instructions, t.created_at, t.last_activity_at,
  ${ACTIVE_PATH_LENGTH_SQL} AS message_count FROM threads AS t`;

export function createThreadService(deps: { sqlite: Sqlite; clock: Clock; events: EventBus; logger?: Logger }): ThreadService {
  const { sqlite, clock, events } = deps;
  const q = {
    byId: sqlite.prepare(`${SELECT_THREAD} WHERE t.id = ?`),
    newest: sqlite.prepare(`${SELECT_THREAD} ORDER BY t.last_activity_at DESC, t.id DESC LIMIT ?`),
    newestBefore: sqlite.prepare(`${SELECT_THREAD} WHERE t.last_activity_at < ? ORDER BY t.last_activity_at DESC, t.id DESC LIMIT ?`),
    insert: sqlite.prepare('INSERT INTO threads (title, title_source, incognito, created_at, updated_at, last_activity_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id'),
    rename: sqlite.prepare(`UPDATE threads SET title = ?, title_source = 'user', updated_at = ? WHERE id = ?`),
    setModel: sqlite.prepare('UPDATE threads SET model = ?, updated_at = ? WHERE id = ?'),
    setInstructions: sqlite.prepare('UPDATE threads SET instructions = ?, updated_at = ? WHERE id = ?'),
    delete: sqlite.prepare('DELETE FROM threads WHERE id = ?'),
    deleteMessageFts: sqlite.prepare('DELETE FROM messages_fts WHERE rowid IN (SELECT id FROM messages WHERE thread_id = ?)'),
    optimizeMessageFts: sqlite.prepare("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')"),
    // The thread's episodes go by cascade, their search entries by the episodes_fts_delete trigger (migration 0014).
    hasEpisodes: sqlite.prepare('SELECT EXISTS (SELECT 1 FROM episodes WHERE thread_id = ?)').pluck(),
    optimizeEpisodeFts: sqlite.prepare("INSERT INTO episodes_fts (episodes_fts) VALUES ('optimize')"),
  };

  function get(threadId: number): Thread {
    const row = q.byId.get(threadId) as Row | undefined;
    if (!row) throw new MnemoError('NOT_FOUND', `Thread ${threadId} does not exist (it may have been deleted).`);
    return toThread(row);
  }

  /** One column of one thread, with the statement that writes it (value, updated_at, id); then thread.updated. */
  function update(threadId: number, statement: { run(value: string | null, now: number, id: number): { changes: number } }, value: string | null): Thread {
    const changed = statement.run(value, clock.now(), threadId);
    if (changed.changes === 0) throw new MnemoError('NOT_FOUND', `Thread ${threadId} does not exist (it may have been deleted).`);
    const thread = get(threadId);
    events.emit('thread.updated', { thread });
    return thread;
  }

  return {
    create({ title, incognito }) {
      const now = clock.now();
      // In a transaction, not autocommit, though it is one INSERT: see write-transaction.ts (RETURNING). The row is
      // read back inside it.
      const thread = writeTransaction(sqlite, () => {
        const inserted = q.insert.get(title ?? '', title ? 'user' : null, incognito ? 1 : 0, now, now, now) as { id: number };
        return get(inserted.id);
      });
      events.emit('thread.created', { thread });
      return thread;
    },
    list({ limit, beforeActivityAt }) {
      const rows = (beforeActivityAt === undefined ? q.newest.all(limit) : q.newestBefore.all(beforeActivityAt, limit)) as Row[];
      return rows.map(toThread);
    },
    get,
    announceUpdated(threadId) {
      const row = q.byId.get(threadId) as Row | undefined;
      if (row) events.emit('thread.updated', { thread: toThread(row) });
    },
    rename: (threadId, title) => update(threadId, q.rename, title),
    setModel: (threadId, model) => update(threadId, q.setModel, model),
    setInstructions: (threadId, instructions) => update(threadId, q.setInstructions, instructions.trim() === '' ? null : instructions.trim()),
    delete(threadId) {
      const removed = writeTransaction(sqlite, () => {
        q.deleteMessageFts.run(threadId);
        const hadEpisodes = q.hasEpisodes.get(threadId) === 1;
        const changes = q.delete.run(threadId).changes;
        // A contentless-delete FTS5 DELETE only writes a tombstone; merging the index is what removes the deleted
        // words from the file (the user deleted this conversation: its words, its episodes' too, must not stay on disk).
        if (changes > 0) q.optimizeMessageFts.run();
        if (hadEpisodes) q.optimizeEpisodeFts.run();
        // Other answers' records of what the model saw named its episodes and its title: those names go too.
        if (changes > 0) forgetThreadInRecords(sqlite, threadId);
        return changes;
      });
      if (removed === 0) throw new MnemoError('NOT_FOUND', `Thread ${threadId} does not exist (it may have been deleted).`);
      // The conversation's words also sit in the WAL until a checkpoint: fold it in now, as "delete forever" does.
      checkpointAfterPurge(sqlite, deps.logger ?? silentLogger);
      events.emit('thread.deleted', { threadId });
    },
  };
}
