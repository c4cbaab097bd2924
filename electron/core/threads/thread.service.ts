/**
 * Threads: create, list by last activity, rename, delete. Deleting takes the messages, the summary and the pending
 * jobs with it in one transaction (foreign keys cascade), and removes the messages' full-text entries.
 */
import { desc, eq, lt, sql } from 'drizzle-orm';
import type { Thread } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { Orm, Sqlite } from '../db/open-database';
import { threads } from '../db/schema';
import type { EventBus } from '../event-bus';
import type { Clock } from '../ports/clock.port';

export interface ThreadService {
  create(input: { title?: string | undefined; incognito: boolean }): Thread;
  list(input: { limit: number; beforeActivityAt?: number | undefined }): Thread[];
  get(threadId: number): Thread;
  rename(threadId: number, title: string): Thread;
  delete(threadId: number): void;
}

export function createThreadService(deps: { sqlite: Sqlite; orm: Orm; clock: Clock; events: EventBus }): ThreadService {
  const { sqlite, orm, clock, events } = deps;
  // Qualified by hand: drizzle renders a column in a select list unqualified, which inside this subquery would
  // silently mean messages.id.
  const messageCount = sql<number>`(SELECT count(*) FROM messages AS m WHERE m.thread_id = "threads"."id")`;
  const columns = {
    id: threads.id,
    title: threads.title,
    incognito: threads.incognito,
    model: threads.model,
    createdAt: threads.createdAt,
    lastActivityAt: threads.lastActivityAt,
    messageCount,
  };
  const deleteMessageFts = sqlite.prepare('DELETE FROM messages_fts WHERE rowid IN (SELECT id FROM messages WHERE thread_id = ?)');
  const optimizeMessageFts = sqlite.prepare("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')");

  function get(threadId: number): Thread {
    const row = orm.select(columns).from(threads).where(eq(threads.id, threadId)).get();
    if (!row) throw new MnemoError('NOT_FOUND', `Thread ${threadId} does not exist (it may have been deleted).`);
    return row;
  }

  return {
    create({ title, incognito }) {
      const now = clock.now();
      // In a transaction, not autocommit: `.get()` reads the RETURNING row and resets the statement, and an
      // autocommit's COMMIT happens in that reset, whose failure (a full disk) better-sqlite3 does not report. The
      // explicit COMMIT throws instead, and the row is read back inside it.
      const thread = sqlite
        .transaction(() => {
          const inserted = orm
            .insert(threads)
            .values({ title: title ?? '', titleSource: title ? 'user' : null, incognito, createdAt: now, updatedAt: now, lastActivityAt: now })
            .returning({ id: threads.id })
            .get();
          return get(inserted.id);
        })
        .immediate();
      events.emit('thread.created', { thread });
      return thread;
    },
    list({ limit, beforeActivityAt }) {
      return orm
        .select(columns)
        .from(threads)
        .where(beforeActivityAt === undefined ? undefined : lt(threads.lastActivityAt, beforeActivityAt))
        .orderBy(desc(threads.lastActivityAt), desc(threads.id))
        .limit(limit)
        .all();
    },
    get,
    rename(threadId, title) {
      const changed = orm
        .update(threads)
        .set({ title, titleSource: 'user', updatedAt: clock.now() })
        .where(eq(threads.id, threadId))
        .run();
      if (changed.changes === 0) throw new MnemoError('NOT_FOUND', `Thread ${threadId} does not exist (it may have been deleted).`);
      const thread = get(threadId);
      events.emit('thread.updated', { thread });
      return thread;
    },
    delete(threadId) {
      const removed = sqlite.transaction(() => {
        deleteMessageFts.run(threadId);
        const changes = orm.delete(threads).where(eq(threads.id, threadId)).run().changes;
        // A contentless-delete FTS5 DELETE only writes a tombstone; merging the index is what removes the deleted
        // words from the file (the user deleted this conversation: its words must not stay on disk).
        if (changes > 0) optimizeMessageFts.run();
        return changes;
      }).immediate();
      if (removed === 0) throw new MnemoError('NOT_FOUND', `Thread ${threadId} does not exist (it may have been deleted).`);
      events.emit('thread.deleted', { threadId });
    },
  };
}
