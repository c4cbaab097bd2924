/**
 * The `threads` table: typed rows in and out, statements prepared once. A thread's message count is that of the
 * conversation shown (message-branches.ts ACTIVE_PATH_LENGTH_SQL). Titles: the user's (title_source 'user', an
 * import's too) is never replaced by an automatic one (`setAutoTitle` writes only while none was chosen).
 *
 * Deleting a thread takes its messages, summary, episodes and jobs by cascade; the full-text entries of its messages
 * go first (messages_fts has no cascade), then both search indexes are merged and the other answers' records that
 * named it are rewritten (prompt-record-scrub.ts), so the deleted words do not stay in the file. `delete` runs in
 * the caller's transaction; `checkpoint` folds the WAL afterwards, as "delete forever" does.
 */
import type { ExportedThread, Thread } from '../../../shared/contract';
import { checkpointAfterPurge } from '../db/checkpoint-after-purge';
import type { Sqlite } from '../db/open-database';
import { writeTransaction } from '../db/write-transaction';
import type { Logger } from '../ports/logger.port';
import { ACTIVE_PATH_LENGTH_SQL } from './message-branches';
import { forgetThreadInRecords } from './prompt-record-scrub';

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

const SELECT_THREAD = `SELECT t.id, t.title, t.incognito, t.model, t.instructions, t.created_at, t.last_activity_at,
  ${ACTIVE_PATH_LENGTH_SQL} AS message_count FROM threads AS t`;

/** The columns a caller may set on its own (value, updated_at, id). */
export type ThreadColumn = 'model' | 'instructions';

export function createThreadsStore(sqlite: Sqlite) {
  const q = {
    byId: sqlite.prepare(`${SELECT_THREAD} WHERE t.id = ?`),
    newest: sqlite.prepare(`${SELECT_THREAD} ORDER BY t.last_activity_at DESC, t.id DESC LIMIT ?`),
    newestBefore: sqlite.prepare(`${SELECT_THREAD} WHERE t.last_activity_at < ? ORDER BY t.last_activity_at DESC, t.id DESC LIMIT ?`),
    insert: sqlite.prepare('INSERT INTO threads (title, title_source, incognito, created_at, updated_at, last_activity_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id'),
    insertImported: sqlite.prepare(
      'INSERT INTO threads (title, title_source, incognito, model, instructions, created_at, updated_at, last_activity_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id',
    ),
    // An imported thread is known by its creation time, title and first message (Mnemo's notes aside).
    imported: sqlite.prepare(
      `SELECT t.id FROM threads t WHERE t.created_at = ? AND t.title = ?
         AND (SELECT content FROM messages m WHERE m.thread_id = t.id AND m.role != 'system' ORDER BY m.id LIMIT 1) IS ? LIMIT 1`,
    ),
    rename: sqlite.prepare(`UPDATE threads SET title = ?, title_source = 'user', updated_at = ? WHERE id = ?`),
    autoTitle: sqlite.prepare(`UPDATE threads SET title = ?, title_source = 'auto', updated_at = ? WHERE id = ? AND title_source IS NULL`),
    titleSource: sqlite.prepare('SELECT title_source FROM threads WHERE id = ?'),
    incognito: sqlite.prepare('SELECT incognito FROM threads WHERE id = ?'),
    model: sqlite.prepare('UPDATE threads SET model = ?, updated_at = ? WHERE id = ?'),
    instructions: sqlite.prepare('UPDATE threads SET instructions = ?, updated_at = ? WHERE id = ?'),
    delete: sqlite.prepare('DELETE FROM threads WHERE id = ?'),
    deleteMessageFts: sqlite.prepare('DELETE FROM messages_fts WHERE rowid IN (SELECT id FROM messages WHERE thread_id = ?)'),
    optimizeMessageFts: sqlite.prepare("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')"),
    // The thread's episodes go by cascade, their search entries by the episodes_fts_delete trigger (migration 0014).
    hasEpisodes: sqlite.prepare('SELECT EXISTS (SELECT 1 FROM episodes WHERE thread_id = ?)').pluck(),
    optimizeEpisodeFts: sqlite.prepare("INSERT INTO episodes_fts (episodes_fts) VALUES ('optimize')"),
  };

  return {
    /** One BEGIN IMMEDIATE transaction (db/write-transaction.ts); nested, a savepoint of the caller's. */
    transaction<T>(fn: () => T): T {
      return writeTransaction(sqlite, fn);
    },
    get(threadId: number): Thread | null {
      const row = q.byId.get(threadId) as Row | undefined;
      return row ? toThread(row) : null;
    },
    /** By last activity, newest first; `beforeActivityAt` pages on. */
    list(limit: number, beforeActivityAt?: number): Thread[] {
      const rows = (beforeActivityAt === undefined ? q.newest.all(limit) : q.newestBefore.all(beforeActivityAt, limit)) as Row[];
      return rows.map(toThread);
    },
    /** A new thread's id; a given title is the user's. Run inside a transaction (RETURNING: write-transaction.ts). */
    insert(title: string | undefined, incognito: boolean, now: number): number {
      return (q.insert.get(title ?? '', title ? 'user' : null, incognito ? 1 : 0, now, now, now) as { id: number }).id;
    },
    /** A thread read from an export, with its own times; its title (if any) is kept as the user's. */
    insertImported(thread: ExportedThread, now: number): number {
      return (
        q.insertImported.get(thread.title, thread.title ? 'user' : null, thread.incognito ? 1 : 0, thread.model, thread.instructions, thread.createdAt, now, thread.lastActivityAt) as {
          id: number;
        }
      ).id;
    },
    /** Whether a thread with this creation time, title and first message is already here (an import done before). */
    hasImported(createdAt: number, title: string, firstMessage: string | null): boolean {
      return q.imported.get(createdAt, title, firstMessage) !== undefined;
    },
    /** The user's title; false when the thread does not exist. */
    rename(threadId: number, title: string, now: number): boolean {
      return q.rename.run(title, now, threadId).changes > 0;
    },
    /** An automatic title, written only while the thread has none chosen; true when written. */
    setAutoTitle(threadId: number, title: string, now: number): boolean {
      return q.autoTitle.run(title, now, threadId).changes > 0;
    },
    /** True when neither the user nor Mnemo has titled the thread yet. */
    needsTitle(threadId: number): boolean {
      const r = q.titleSource.get(threadId) as { title_source: string | null } | undefined;
      return r !== undefined && r.title_source === null;
    },
    /** Whether the thread is incognito; null when it does not exist. */
    isIncognito(threadId: number): boolean | null {
      const r = q.incognito.get(threadId) as { incognito: number } | undefined;
      return r ? r.incognito === 1 : null;
    },
    /** Sets one column; false when the thread does not exist. */
    set(threadId: number, column: ThreadColumn, value: string | null, now: number): boolean {
      return q[column].run(value, now, threadId).changes > 0;
    },
    /** Deletes the thread and everything of it (see the header), in the caller's transaction; false when it did not exist. */
    delete(threadId: number): boolean {
      q.deleteMessageFts.run(threadId);
      const hadEpisodes = q.hasEpisodes.get(threadId) === 1;
      const changes = q.delete.run(threadId).changes;
      // A contentless-delete FTS5 DELETE only writes a tombstone; merging the index is what removes the deleted
      // words from the file (the user deleted this conversation: its words, its episodes' too, must not stay on disk).
      if (changes > 0) q.optimizeMessageFts.run();
      if (hadEpisodes) q.optimizeEpisodeFts.run();
      // Other answers' records of what the model saw named its episodes and its title: those names go too.
      if (changes > 0) forgetThreadInRecords(sqlite, threadId);
      return changes > 0;
    },
    /** The deleted words also sit in the WAL until a checkpoint: folded in now (db/checkpoint-after-purge.ts). */
    checkpoint(logger: Logger): void {
      checkpointAfterPurge(sqlite, logger);
    },
  };
}

export type ThreadsStore = ReturnType<typeof createThreadsStore>;
