/**
 * The working-memory tables (thread_focus, thread_focus_tasks): read a thread's state, write a whole new state
 * (computed by focus-rules.ts), clear, list active work across threads, drop expired rows. The one writer of these
 * tables; callers run `save` inside their transaction (the job's commit, the service's edit).
 *
 * A thread's state was derived from one version of its conversation (through_message_id: the last message the model
 * read); readForPath gives it as it applies to the version shown (conversation/message-branches.ts appliesToPath): whole when
 * that message is on the path, else only the user's own items. Every read for the panel, the prompt and the focus job
 * goes through it, so what the model derived from an edited-away question is neither shown as current nor sent.
 */
import type { FocusTask, WorkingMemory, ActiveWork } from '../../../shared/contract';
import { appliesToPath, type MessageBranches } from '../conversation/message-branches';
import type { Sqlite } from '../db/open-database';
import { writeTransaction } from '../db/write-transaction';
import { liveState, MAX_FINISHED, userItemsOnly, type FocusState, type TaskItem } from './focus-rules';

interface FocusRow {
  focus: string;
  focus_edited_by_user: number;
  focus_expires_at: number | null;
  through_message_id: number;
  updated_at: number;
}

interface TaskRow {
  id: number;
  thread_id: number;
  text: string;
  state: TaskItem['state'];
  importance: TaskItem['importance'];
  edited_by_user: number;
  created_at: number;
  updated_at: number;
  expires_at: number;
  finished_at: number | null;
}

export interface StoredFocus {
  state: FocusState;
  throughMessageId: number;
  updatedAt: number | null;
}

/** A stored state as it applies to one version of the conversation (readForPath). */
export interface FocusForPath extends StoredFocus {
  /** The model's part was derived from another version and is left out (throughMessageId is then 0: read afresh). */
  otherVersion: boolean;
}

function toItem(r: TaskRow): TaskItem {
  return {
    id: r.id,
    text: r.text,
    state: r.state,
    importance: r.importance,
    editedByUser: r.edited_by_user === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    expiresAt: r.expires_at,
    finishedAt: r.finished_at,
  };
}

function toTask(t: TaskItem): FocusTask {
  return { ...t, id: t.id! };
}

/** The contract's view of a live state: open tasks oldest first, finished ones most recent first. */
export function toWorkingMemory(threadId: number, state: FocusState, updatedAt: number | null, otherVersion = false): WorkingMemory {
  const byId = (a: TaskItem, b: TaskItem) => (a.id ?? 0) - (b.id ?? 0);
  return {
    threadId,
    focus: state.focus,
    focusEditedByUser: state.focusEditedByUser,
    tasks: state.tasks.filter((t) => t.state !== 'done').sort(byId).map(toTask),
    finished: state.tasks
      .filter((t) => t.state === 'done')
      .sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0))
      .slice(0, MAX_FINISHED)
      .map(toTask),
    updatedAt,
    ...(otherVersion ? { otherVersion: true } : {}),
  };
}

export function createFocusStore(sqlite: Sqlite, branches: MessageBranches) {
  const selectFocus = sqlite.prepare('SELECT * FROM thread_focus WHERE thread_id = ?');
  const selectTasks = sqlite.prepare('SELECT * FROM thread_focus_tasks WHERE thread_id = ? ORDER BY id');
  // @through NULL: what the model read stays as it is (a user's edit); a number: the state was read through it.
  const upsertFocus = sqlite.prepare(
    `INSERT INTO thread_focus (thread_id, focus, focus_edited_by_user, focus_expires_at, through_message_id, updated_at)
       VALUES (@threadId, @focus, @edited, @expires, coalesce(@through, 0), @now)
     ON CONFLICT(thread_id) DO UPDATE SET focus = excluded.focus, focus_edited_by_user = excluded.focus_edited_by_user,
       focus_expires_at = excluded.focus_expires_at, through_message_id = coalesce(@through, through_message_id), updated_at = excluded.updated_at`,
  );
  const insertTask = sqlite.prepare(
    `INSERT INTO thread_focus_tasks (thread_id, text, state, importance, edited_by_user, created_at, updated_at, expires_at, finished_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const updateTask = sqlite.prepare(
    `UPDATE thread_focus_tasks SET text = ?, state = ?, importance = ?, edited_by_user = ?, updated_at = ?, expires_at = ?, finished_at = ?
     WHERE id = ? AND thread_id = ?`,
  );
  const markRead = sqlite.prepare(
    `INSERT INTO thread_focus (thread_id, through_message_id, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(thread_id) DO UPDATE SET through_message_id = max(through_message_id, excluded.through_message_id)`,
  );
  const deleteTask = sqlite.prepare('DELETE FROM thread_focus_tasks WHERE id = ? AND thread_id = ?');
  const deleteTasksOf = sqlite.prepare('DELETE FROM thread_focus_tasks WHERE thread_id = ?');
  const clearFocus = sqlite.prepare(`UPDATE thread_focus SET focus = '', focus_edited_by_user = 0, focus_expires_at = NULL, updated_at = ? WHERE thread_id = ?`);
  const deleteExpiredTasks = sqlite.prepare('DELETE FROM thread_focus_tasks WHERE expires_at <= ?');
  const expireFocus = sqlite.prepare(`UPDATE thread_focus SET focus = '', focus_edited_by_user = 0, focus_expires_at = NULL WHERE focus_expires_at <= ?`);
  const anyExpired = sqlite.prepare(
    `SELECT EXISTS (SELECT 1 FROM thread_focus_tasks WHERE expires_at <= ?) OR EXISTS (SELECT 1 FROM thread_focus WHERE focus_expires_at <= ?)`,
  ).pluck();
  // Threads with something live, incognito ones left out: their working memory never leaves the thread.
  const activeThreads = sqlite.prepare(
    `SELECT t.id, t.title, f.updated_at FROM threads t JOIN thread_focus f ON f.thread_id = t.id
     WHERE t.incognito = 0 AND ((f.focus <> '' AND f.focus_expires_at > ?)
       OR EXISTS (SELECT 1 FROM thread_focus_tasks k WHERE k.thread_id = t.id AND k.state <> 'done' AND k.expires_at > ?))
     ORDER BY f.updated_at DESC LIMIT ?`,
  );

  function read(threadId: number): StoredFocus {
    const row = selectFocus.get(threadId) as FocusRow | undefined;
    const tasks = (selectTasks.all(threadId) as TaskRow[]).map(toItem);
    if (!row) return { state: { focus: '', focusEditedByUser: false, focusExpiresAt: null, tasks }, throughMessageId: 0, updatedAt: null };
    return {
      state: { focus: row.focus, focusEditedByUser: row.focus_edited_by_user === 1, focusExpiresAt: row.focus_expires_at, tasks },
      throughMessageId: row.through_message_id,
      updatedAt: row.updated_at,
    };
  }

  /**
   * The state as it applies to the path ending at `pathEndId` (default: the version shown). On another version only
   * the user's items stay and nothing counts as read, so the next update reads this path afresh.
   */
  function readForPath(threadId: number, now: number, pathEndId: number | null = branches.leaf(threadId)): FocusForPath {
    const stored = read(threadId);
    if (appliesToPath(stored.throughMessageId, pathEndId, branches)) return { ...stored, otherVersion: false };
    const live = liveState(stored.state, now);
    const kept = userItemsOnly(live);
    return { state: kept, throughMessageId: 0, updatedAt: stored.updatedAt, otherVersion: kept.focus !== live.focus || kept.tasks.length !== live.tasks.length };
  }

  return {
    /** One BEGIN IMMEDIATE transaction (db/write-transaction.ts): a user's edit, the daily cleanup. */
    transaction<T>(fn: () => T): T {
      return writeTransaction(sqlite, fn);
    },
    read,
    readForPath,
    /** The live state of the version shown, as the contract shows it (expired items left out, whether or not the cleanup ran). */
    get(threadId: number, now: number): WorkingMemory {
      const shown = readForPath(threadId, now);
      return toWorkingMemory(threadId, liveState(shown.state, now), shown.updatedAt, shown.otherVersion);
    },
    /**
     * Writes `next` as the thread's whole state: tasks not in it are deleted, new ones (id null) inserted. `through`:
     * the last message the state was derived from (omitted: unchanged). Call inside a transaction.
     */
    save(threadId: number, next: FocusState, now: number, through?: number): void {
      upsertFocus.run({ threadId, focus: next.focus, edited: next.focusEditedByUser ? 1 : 0, expires: next.focusExpiresAt, through: through ?? null, now });
      const keep = new Set(next.tasks.map((t) => t.id).filter((id) => id !== null));
      for (const r of selectTasks.all(threadId) as TaskRow[]) if (!keep.has(r.id)) deleteTask.run(r.id, threadId);
      for (const t of next.tasks) {
        const row = [t.text, t.state, t.importance, t.editedByUser ? 1 : 0] as const;
        if (t.id === null) insertTask.run(threadId, ...row, t.createdAt, t.updatedAt, t.expiresAt, t.finishedAt);
        else updateTask.run(...row, t.updatedAt, t.expiresAt, t.finishedAt, t.id, threadId);
      }
    },
    /** Records that the model has nothing to read up to this message (small talk), leaving the state and its time as they are. */
    markRead(threadId: number, throughMessageId: number, now: number): void {
      markRead.run(threadId, throughMessageId, now);
    },
    /** Empties the thread's working memory; what the model has read stays read. Call inside a transaction. */
    clear(threadId: number, now: number): void {
      deleteTasksOf.run(threadId);
      clearFocus.run(now, threadId);
    },
    /** Removes what expired (in every thread); reads leave it out already. Returns the task rows removed. */
    dropExpired(now: number): number {
      expireFocus.run(now);
      return deleteExpiredTasks.run(now).changes;
    },
    /** Does any thread keep an expired focus or task row (the cleanup is due)? */
    hasExpired: (now: number): boolean => anyExpired.get(now, now) === 1,
    listActive(now: number, limit = 50): ActiveWork[] {
      const rows = activeThreads.all(now, now, limit) as Array<{ id: number; title: string; updated_at: number }>;
      return rows
        .map((r) => {
          const wm = toWorkingMemory(r.id, liveState(readForPath(r.id, now).state, now), r.updated_at);
          return { threadId: r.id, threadTitle: r.title, focus: wm.focus, tasks: wm.tasks, updatedAt: r.updated_at };
        })
        .filter((w) => w.focus !== '' || w.tasks.length > 0);
    },
  };
}

export type FocusStore = ReturnType<typeof createFocusStore>;
