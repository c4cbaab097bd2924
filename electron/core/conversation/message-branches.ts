/**
 * Branches of a conversation: edit-and-resend and regenerate keep the old continuation, like ChatGPT's ‹ 1/2 ›.
 *
 * The rule, in one place:
 * - Each message has a parent (messages.parent_id: the message it follows; null for the first of a thread). Messages
 *   with the same parent are *versions* of each other, numbered by id (1 = the oldest): an edited question is a new
 *   user message beside the old one, a regenerated answer a new answer beside the old one under the same question.
 * - The thread keeps its *active leaf* (threads.active_leaf_id; null: its newest message). The conversation is the
 *   active path: the chain from the leaf up to the first message. Everything that reads "the conversation" follows it
 *   (the thread view, prompt history, summaries, the Markdown export); nothing is ever deleted by branching.
 * - A new message follows the active leaf unless its parent is given, and becomes the leaf.
 * - Switching to version k of a message makes the leaf the newest message under that version (the continuation
 *   written last there), so a switch shows a whole branch and switching back shows the old one again.
 * - A summary covers a range of one path (thread_summaries.to_message_id): it is about the active path only when
 *   that id is on it (or it has no range, a text the user wrote before any summary). Otherwise it describes a branch
 *   the user left: prompts leave it out, an automatic one is rebuilt for the new path by the next summary job, and
 *   one the user edited is kept as written (never overwritten by a machine) until the user edits it again, which
 *   makes it the current path's (summaryForPath, summary.job.ts).
 * - The working memory (focus/) follows the same rule: it applies to the active path only when the last message it read
 *   (thread_focus.through_message_id) is on it, or it read none. Otherwise the prompt and the panel leave out what the
 *   model derived, keep the user's own items, and the next focus job rebuilds it from the current path's messages
 *   (focus.store.ts readForPath, focus.job.ts). One rule for both: appliesToPath.
 * - A message "was edited later" when a newer version of it exists: memories learned from it say so (provenance).
 * - The versions of a user message are one time the user said it: what an edited version or another answer to it
 *   teaches again is not said again (versionsOf; extraction.job.ts confirms a memory once per time it was said).
 *
 * Why a parent per message and a leaf per thread: parents make versions and paths plain SQL (an indexed lookup per
 * step up), ids grow along every path (a child is written after its parent), so "after the summary" stays "id >
 * to_message_id" on a path; one leaf per thread is the only state a switch changes, in one UPDATE.
 */
import type { ThreadSummary } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { Sqlite } from '../db/open-database';

/** SQL columns that give a message row (aliased `m`) its version among its siblings; see versionOf. */
export const VERSION_COLUMNS = `(SELECT count(*) FROM messages s WHERE s.thread_id = m.thread_id AND s.parent_id IS m.parent_id) AS version_count,
  (SELECT count(*) FROM messages s WHERE s.thread_id = m.thread_id AND s.parent_id IS m.parent_id AND s.id <= m.id) AS version_index`;

/**
 * SQL for the number of messages on a thread's active path (the conversation the user sees), for a thread row
 * aliased `t`: what a thread's message count means (thread lists, the CLI). Versions the user left are not counted;
 * the JSON export, which keeps them, says how many it holds beside the path (thread-export.ts).
 */
export const ACTIVE_PATH_LENGTH_SQL = `(WITH RECURSIVE up(id) AS (
    SELECT coalesce(t.active_leaf_id, (SELECT max(id) FROM messages WHERE thread_id = t.id))
    UNION ALL SELECT m.parent_id FROM messages m JOIN up ON m.id = up.id WHERE m.parent_id IS NOT NULL
  ) SELECT count(*) FROM up JOIN messages p ON p.id = up.id)`;

/** A message's place among its versions (1-based), present only when it has more than one. */
export function versionOf(r: { version_count?: number; version_index?: number }): { index: number; count: number } | undefined {
  return r.version_count !== undefined && r.version_count > 1 && r.version_index !== undefined ? { index: r.version_index, count: r.version_count } : undefined;
}

/**
 * How many ancestors the first step of a path walk reads, and the most one step reads: each step reads twice as many
 * as the one before. A prompt stops walking once its budget is full, most often within the first few messages (each
 * row read costs about 15 us at 10,000 messages); a walk over a whole long path (an export, a summary) soon reads
 * large pages.
 */
const FIRST_PATH_PAGE = 16;
const MAX_PATH_PAGE = 1024;

export interface PathRow {
  id: number;
  parent_id: number | null;
}

export function createMessageBranches(sqlite: Sqlite) {
  const leafOf = sqlite.prepare(
    `SELECT coalesce(t.active_leaf_id, (SELECT max(id) FROM messages WHERE thread_id = t.id)) AS leaf FROM threads t WHERE t.id = ?`,
  );
  const setLeaf = sqlite.prepare('UPDATE threads SET active_leaf_id = ? WHERE id = ?');
  // A page of ancestors, starting at (and including) the given message, newest first.
  const ancestors = sqlite.prepare(
    `WITH RECURSIVE up(id, depth) AS (
       SELECT ?, 0
       UNION ALL SELECT m.parent_id, up.depth + 1 FROM messages m JOIN up ON m.id = up.id WHERE m.parent_id IS NOT NULL AND up.depth + 1 < ?
     ) SELECT m.* FROM up JOIN messages m ON m.id = up.id ORDER BY up.depth`,
  );
  const siblingsOf = sqlite.prepare('SELECT id FROM messages WHERE thread_id = ? AND parent_id IS ? ORDER BY id');
  const newestUnder = sqlite.prepare(
    `WITH RECURSIVE down(id) AS (SELECT ? UNION ALL SELECT m.id FROM messages m JOIN down ON m.thread_id = ? AND m.parent_id = down.id)
     SELECT max(id) AS id FROM down`,
  );
  const newerSibling = sqlite.prepare(
    'SELECT 1 FROM messages s JOIN messages m ON m.id = ? WHERE s.thread_id = m.thread_id AND s.parent_id IS m.parent_id AND s.id > m.id LIMIT 1',
  );
  const meta = sqlite.prepare('SELECT id, thread_id, parent_id FROM messages WHERE id = ?');

  /** The message and its ancestors, newest first, read a page at a time (a long thread is never loaded whole). */
  function* pathUp<R extends PathRow>(fromId: number | null): Generator<R> {
    let next = fromId;
    for (let page = FIRST_PATH_PAGE; next !== null; page = Math.min(MAX_PATH_PAGE, page * 2)) {
      const rows = ancestors.all(next, page) as R[];
      if (rows.length === 0) return;
      for (const r of rows) yield r;
      next = rows[rows.length - 1]!.parent_id;
    }
  }

  function leaf(threadId: number): number | null {
    const r = leafOf.get(threadId) as { leaf: number | null } | undefined;
    return r?.leaf ?? null;
  }

  return {
    leaf,
    setLeaf(threadId: number, leafId: number | null): void {
      setLeaf.run(leafId, threadId);
    },
    pathUp,
    /** Ids of the active path, first message first. */
    activePath(threadId: number): number[] {
      return [...pathUp(leaf(threadId))].map((r) => r.id).reverse();
    },
    /** Whether `messageId` is `fromId` or one of its ancestors; ids grow down a path, so the walk stops below it. */
    isOnPath(messageId: number, fromId: number | null): boolean {
      for (const r of pathUp(fromId)) {
        if (r.id === messageId) return true;
        if (r.id < messageId) return false;
      }
      return false;
    },
    /**
     * Shows version `version` (1-based) of the message's versions: the leaf becomes the newest message under it.
     * Returns the new leaf. Unknown message or version: typed errors.
     */
    switchTo(messageId: number, version: number): { threadId: number; leafId: number } {
      const m = meta.get(messageId) as { id: number; thread_id: number; parent_id: number | null } | undefined;
      if (!m) throw new MnemoError('NOT_FOUND', `Message ${messageId} does not exist (its thread may have been deleted).`);
      const siblings = (siblingsOf.all(m.thread_id, m.parent_id) as Array<{ id: number }>).map((s) => s.id);
      const chosen = siblings[version - 1];
      if (chosen === undefined) {
        throw new MnemoError('INVALID_INPUT', `This message has ${siblings.length} version${siblings.length === 1 ? '' : 's'}; there is no version ${version}.`);
      }
      const leafId = (newestUnder.get(chosen, m.thread_id) as { id: number }).id;
      setLeaf.run(leafId, m.thread_id);
      return { threadId: m.thread_id, leafId };
    },
    /**
     * Makes a message part of the conversation shown (opening a memory's source or a search hit that was edited away):
     * nothing changes when it is on the active path; otherwise the leaf becomes the newest message under it, as a
     * switch to its version would. Unknown message: NOT_FOUND.
     */
    reveal(messageId: number): { threadId: number; leafId: number; switched: boolean } {
      const m = meta.get(messageId) as { id: number; thread_id: number; parent_id: number | null } | undefined;
      if (!m) throw new MnemoError('NOT_FOUND', `Message ${messageId} does not exist (its thread may have been deleted).`);
      const current = leaf(m.thread_id);
      if (this.isOnPath(messageId, current)) return { threadId: m.thread_id, leafId: current!, switched: false };
      const leafId = (newestUnder.get(messageId, m.thread_id) as { id: number }).id;
      setLeaf.run(leafId, m.thread_id);
      return { threadId: m.thread_id, leafId, switched: true };
    },
    /** The message and its versions (itself included), oldest first; none for an unknown message. */
    versionsOf(messageId: number): number[] {
      const m = meta.get(messageId) as { id: number; thread_id: number; parent_id: number | null } | undefined;
      return m ? (siblingsOf.all(m.thread_id, m.parent_id) as Array<{ id: number }>).map((s) => s.id) : [];
    },
    /** True when a newer version of the message exists: the user edited it (or regenerated it) afterwards. */
    wasEditedLater(messageId: number): boolean {
      return newerSibling.get(messageId) !== undefined;
    },
  };
}

export type MessageBranches = ReturnType<typeof createMessageBranches>;

/**
 * Whether text derived from a conversation up to message `throughId` (a summary's range, the last message the working
 * memory read) is about the path ending at `pathEndId`: when it read no message (null or 0), or that message is on
 * the path (its ancestors then are too: every read before it was on the path). Otherwise it describes a branch the
 * user left, and tells the model about a conversation that, on this path, never happened.
 */
export function appliesToPath(throughId: number | null, pathEndId: number | null, branches: Pick<MessageBranches, 'isOnPath'>): boolean {
  return !throughId || branches.isOnPath(throughId, pathEndId);
}

/**
 * The summary as it applies to the path ending at `pathEndId` (see the rule above): itself when its range is on that
 * path or it has none; null when it describes a branch the user left.
 */
export function summaryForPath<S extends Pick<ThreadSummary, 'toMessageId'>>(summary: S | null, pathEndId: number | null, branches: Pick<MessageBranches, 'isOnPath'>): S | null {
  if (!summary) return summary;
  return appliesToPath(summary.toMessageId, pathEndId, branches) ? summary : null;
}

/** The summary as the thread view shows it: marked when it describes a branch the user left (see summaryForPath). */
export function summaryAsShown(summary: ThreadSummary | null, leafId: number | null, branches: Pick<MessageBranches, 'isOnPath'>): ThreadSummary | null {
  if (!summary) return null;
  return { ...summary, otherVersion: summaryForPath(summary, leafId, branches) === null };
}
