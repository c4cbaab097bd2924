/**
 * Message rows and their full-text entries. Every write that changes searchable text updates messages_fts in the
 * same call so the two never disagree (callers wrap multi-step writes in a transaction). The one writer of
 * messages.parent_id and threads.active_leaf_id too: a message follows the active leaf unless told otherwise and
 * becomes it (message-branches.ts holds the rule).
 */
import { z } from 'zod';
import { EpisodeRef, ForgetNotice, MessageAttachment, ToolSearch, type ExportedMessage, type Message } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';
import { toFtsDocument, toFtsQuery } from '../text/fts-text';
import type { RetrievedMemory } from '../ports/memory-retrieval.port';
import { createMessageBranches, VERSION_COLUMNS, versionOf } from './message-branches';
import { isReadable, readableSql } from './readable-message';
import { writeTransaction } from '../db/write-transaction';

interface Row {
  id: number;
  thread_id: number;
  role: Message['role'];
  content: string;
  thinking: string;
  status: Message['status'];
  error_code: string | null;
  model: string | null;
  prompt_tokens: number | null;
  completion_tokens: number | null;
  estimated_tokens: number;
  total_duration_ms: number | null;
  load_duration_ms: number | null;
  eval_duration_ms: number | null;
  attachments: string | null;
  parent_id: number | null;
  created_at: number;
  /** Present when read with VERSION_COLUMNS. */
  version_count?: number;
  version_index?: number;
}

/** A receipt's matched words as stored (a JSON array of strings); anything else reads as none. */
function matchedOf(stored: string | null): string[] | undefined {
  if (stored === null) return undefined;
  try {
    const value: unknown = JSON.parse(stored);
    return Array.isArray(value) && value.length > 0 && value.every((w) => typeof w === 'string') ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A message's attached files as stored (JSON); a row this version cannot read shows none rather than failing the thread. */
export function attachmentsOf(stored: string | null): MessageAttachment[] {
  if (stored === null) return [];
  try {
    const parsed = MessageAttachment.array().safeParse(JSON.parse(stored));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

export function toMessage(r: Row): Message {
  const attachments = attachmentsOf(r.attachments);
  const version = versionOf(r);
  return {
    id: r.id,
    threadId: r.thread_id,
    role: r.role,
    content: r.content,
    thinking: r.thinking,
    status: r.status,
    errorCode: r.error_code,
    model: r.model,
    promptTokens: r.prompt_tokens,
    completionTokens: r.completion_tokens,
    totalDurationMs: r.total_duration_ms,
    loadDurationMs: r.load_duration_ms,
    evalDurationMs: r.eval_duration_ms,
    ...(attachments.length > 0 ? { attachments } : {}),
    parentId: r.parent_id,
    ...(version ? { version } : {}),
    createdAt: r.created_at,
  };
}

export interface FinishedReply {
  content: string;
  thinking: string;
  status: Message['status'];
  errorCode: string | null;
  estimatedTokens: number;
  promptTokens: number | null;
  completionTokens: number | null;
  totalDurationMs: number | null;
  loadDurationMs: number | null;
  evalDurationMs: number | null;
}

/** The user's message of an exchange as extraction reads it (userTurn). */
export interface UserTurn {
  id: number;
  thread_id: number;
  content: string;
  attachments: string | null;
  created_at: number;
  incognito: number;
  before_id: number | null;
  before_content: string | null;
}

/** A message found for the memory tools (chat/memory-tool-sources.ts), with its thread's title. */
export interface SearchedMessage {
  id: number;
  thread_id: number;
  role: 'user' | 'assistant';
  content: string;
  created_at: number;
  title: string;
}

/** FTS candidates read per conversation search before the filters (readable, incognito, already in the prompt). */
const SEARCH_DEPTH = 200;

export function createMessagesStore(sqlite: Sqlite) {
  const branches = createMessageBranches(sqlite);
  const insert = sqlite.prepare(
    `INSERT INTO messages (thread_id, role, content, thinking, status, model, estimated_tokens, attachments, parent_id, writer, created_at, updated_at)
     VALUES (?, ?, ?, '', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFull = sqlite.prepare(
    `INSERT INTO messages (thread_id, role, content, thinking, status, model, estimated_tokens, attachments, parent_id, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = sqlite.prepare(`SELECT m.*, ${VERSION_COLUMNS} FROM messages m WHERE m.id = ?`);
  const ftsInsert = sqlite.prepare('INSERT INTO messages_fts (rowid, body) VALUES (?, ?)');
  const ftsDelete = sqlite.prepare('DELETE FROM messages_fts WHERE rowid = ?');
  const partial = sqlite.prepare('UPDATE messages SET content = ?, thinking = ?, updated_at = ? WHERE id = ?');
  const finish = sqlite.prepare(
    `UPDATE messages SET content = ?, thinking = ?, status = ?, error_code = ?, estimated_tokens = ?, prompt_tokens = ?, completion_tokens = ?,
     total_duration_ms = ?, load_duration_ms = ?, eval_duration_ms = ?, writer = NULL, updated_at = ? WHERE id = ?`,
  );
  const heartbeat = sqlite.prepare(`UPDATE messages SET updated_at = ? WHERE id = ? AND status = 'streaming'`);
  const interrupt = sqlite.prepare(`UPDATE messages SET status = 'stopped', error_code = 'INTERRUPTED', writer = NULL, updated_at = ? WHERE id = ? AND status = 'streaming'`);
  const beingWritten = sqlite.prepare(`SELECT id, writer, updated_at AS updatedAt FROM messages WHERE status = 'streaming'`);
  const beingWrittenIn = sqlite.prepare(`SELECT id, writer, updated_at AS updatedAt FROM messages WHERE thread_id = ? AND status = 'streaming'`);
  const touchThread = sqlite.prepare('UPDATE threads SET last_activity_at = ?, updated_at = ? WHERE id = ?');
  const stampsOf = sqlite.prepare('SELECT id, created_at AS createdAt FROM messages WHERE thread_id = ? ORDER BY id');
  const readableIn = sqlite.prepare(`SELECT id, role, content FROM messages m WHERE thread_id = ? AND id >= ? AND id <= ? AND ${readableSql('m')} ORDER BY id`);
  const newestOf = sqlite.prepare('SELECT max(id) AS id FROM messages WHERE thread_id = ?');
  const textsOf = sqlite.prepare('SELECT role, content FROM messages WHERE id IN (?, ?) ORDER BY id');
  // The reply is only looked for, never read: extraction learns from the user's words (extract-prompt.ts).
  const userTurnOf = sqlite.prepare(
    `SELECT m.id, m.thread_id, m.content, m.attachments, m.created_at, t.incognito, p.id AS before_id, p.content AS before_content
     FROM messages m JOIN threads t ON t.id = m.thread_id LEFT JOIN messages p ON p.id = m.parent_id AND p.role = 'assistant'
     WHERE m.id = ? AND m.role = 'user' AND EXISTS (SELECT 1 FROM messages r WHERE r.id = ? AND r.role = 'assistant')`,
  );
  // Readable messages of threads that are not incognito, on their thread's active path (walked up from each leaf, an
  // indexed lookup per step, only for the threads that hold a candidate). `candidates` yields (id, rank), best
  // first; its own parameters come first, then the excluded ids (JSON), the window, the limit.
  const shownAmong = (candidates: string) =>
    sqlite.prepare(
      `WITH RECURSIVE hit AS (
       SELECT m.id, m.thread_id, m.role, m.content, m.created_at, t.title, f.rank FROM ${candidates} f
         JOIN messages m ON m.id = f.id JOIN threads t ON t.id = m.thread_id
       WHERE ${readableSql('m')} AND t.incognito = 0 AND m.id NOT IN (SELECT value FROM json_each(?)) AND m.created_at >= ? AND m.created_at < ?
     ),
     shown(id) AS (
       SELECT coalesce(t.active_leaf_id, (SELECT max(id) FROM messages WHERE thread_id = t.id)) FROM threads t WHERE t.id IN (SELECT thread_id FROM hit)
       UNION ALL SELECT m.parent_id FROM messages m JOIN shown ON m.id = shown.id WHERE m.parent_id IS NOT NULL
     )
     SELECT id, thread_id, role, content, created_at, title FROM hit WHERE id IN (SELECT id FROM shown) ORDER BY rank LIMIT ?`,
    );
  const shownByMatch = shownAmong(`(SELECT rowid AS id, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT ${SEARCH_DEPTH})`);
  // A window without topic words: its newest messages (messages_created_idx walks the range).
  const shownNewest = shownAmong(`(SELECT id, -created_at AS rank FROM messages WHERE created_at >= ? AND created_at < ? ORDER BY created_at DESC LIMIT ${SEARCH_DEPTH})`);

  return {
    branches,
    /**
     * One BEGIN IMMEDIATE transaction over the conversation's writes (db/write-transaction.ts): a reply with its
     * jobs, a retry's removal, a switch of versions. Nested, a savepoint of the caller's.
     */
    transaction<T>(fn: () => T): T {
      return writeTransaction(sqlite, fn);
    },
    /**
     * attachments: a user message's files; its full-text entry holds the typed text only (the files are not searched).
     * parentId: the message it follows (undefined: the active leaf; null: none, a new first message). It becomes the
     * thread's active leaf. Callers that also read the leaf wrap both in one transaction. writer: for a 'streaming'
     * reply, the process writing it (chat/reply-writer.ts).
     */
    insert(m: {
      threadId: number;
      role: Message['role'];
      content: string;
      status: Message['status'];
      model: string | null;
      estimatedTokens: number;
      attachments?: readonly MessageAttachment[] | undefined;
      parentId?: number | null | undefined;
      writer?: string | undefined;
      now: number;
    }): Message {
      const attachments = m.attachments && m.attachments.length > 0 ? JSON.stringify(m.attachments) : null;
      const parentId = m.parentId === undefined ? branches.leaf(m.threadId) : m.parentId;
      const id = Number(insert.run(m.threadId, m.role, m.content, m.status, m.model, m.estimatedTokens, attachments, parentId, m.writer ?? null, m.now, m.now).lastInsertRowid);
      if (m.content) ftsInsert.run(BigInt(id), toFtsDocument(m.content));
      branches.setLeaf(m.threadId, id);
      touchThread.run(m.now, m.now, m.threadId);
      return this.get(id)!;
    },
    /**
     * A message read from a thread export, with its own time, reasoning, model and status (thread-import.ts). The
     * importer sets the active leaf once the whole thread is in.
     */
    insertImported(threadId: number, m: ExportedMessage, estimatedTokens: number, parentId: number | null): number {
      const attachments = m.attachments.length > 0 ? JSON.stringify(m.attachments) : null;
      const id = Number(
        insertFull.run(threadId, m.role, m.content, m.thinking, m.status, m.model, estimatedTokens, attachments, parentId, m.createdAt, m.createdAt).lastInsertRowid,
      );
      if (m.content) ftsInsert.run(BigInt(id), toFtsDocument(m.content));
      return id;
    },
    get(id: number): Message | null {
      const r = byId.get(id) as Row | undefined;
      return r ? toMessage(r) : null;
    },
    savePartial(id: number, content: string, thinking: string, now: number): void {
      partial.run(content, thinking, now, id);
    },
    /** A reply's writer is still at work (chat/reply-writer.ts), while the model is silent. */
    heartbeat(id: number, now: number): void {
      heartbeat.run(now, id);
    },
    finish(id: number, threadId: number, reply: FinishedReply, now: number): Message {
      finish.run(
        reply.content,
        reply.thinking,
        reply.status,
        reply.errorCode,
        reply.estimatedTokens,
        reply.promptTokens,
        reply.completionTokens,
        reply.totalDurationMs,
        reply.loadDurationMs,
        reply.evalDurationMs,
        now,
        id,
      );
      ftsDelete.run(BigInt(id));
      if (reply.content) ftsInsert.run(BigInt(id), toFtsDocument(reply.content));
      touchThread.run(now, now, threadId);
      return this.get(id)!;
    },
    /**
     * The conversation before a message, newest first: its ancestors on its path (message-branches.ts), without
     * failed replies, Mnemo's notes and empty rows, read in pages so prompt assembly never loads a whole long thread.
     */
    *historyBefore(message: { parentId?: number | null | undefined }): Generator<Row> {
      for (const r of branches.pathUp<Row>(message.parentId ?? null)) {
        if (isReadable(r)) yield r;
      }
    },
    /** The active path (the conversation the user sees), oldest first; page backwards with beforeId, a message of it. */
    page(threadId: number, beforeId: number | undefined, limit: number) {
      const before = beforeId === undefined ? null : this.get(beforeId);
      const start = beforeId === undefined ? branches.leaf(threadId) : before?.threadId === threadId ? (before.parentId ?? null) : null;
      const ids: number[] = [];
      for (const r of branches.pathUp(start)) {
        ids.push(r.id);
        if (ids.length > limit) break;
      }
      const hasMore = ids.length > limit;
      const page = ids.slice(0, limit).reverse().map((id) => this.get(id)!);
      const uses = page.length
        ? (sqlite
            .prepare(
              `SELECT message_id AS messageId, memory_id AS memoryId, score, reason, matched FROM message_memories
               WHERE message_id IN (${page.map(() => '?').join(',')}) ORDER BY message_id, rank`,
            )
            .all(...page.map((m) => m.id)) as Array<{ messageId: number; memoryId: number; score: number; reason: RetrievedMemory['reason']; matched: string | null }>)
        : [];
      const receipts = new Map<number, RetrievedMemory[]>();
      for (const u of uses) {
        const list = receipts.get(u.messageId) ?? [];
        const matched = matchedOf(u.matched);
        list.push({ memoryId: u.memoryId, score: u.score, reason: u.reason, ...(matched ? { matched } : {}) });
        receipts.set(u.messageId, list);
      }
      const pageIds = page.map((m) => m.id);
      const searches = recordedOf(sqlite, pageIds, '$.tools.searches', ToolSearch);
      const forgets = recordedOf(sqlite, pageIds, '$.forgets', ForgetNotice);
      const recalled = recordedOf(sqlite, pageIds, '$.recalled.episodes', EpisodeRef);
      for (const id of [...searches.keys(), ...forgets.keys(), ...recalled.keys()]) if (!receipts.has(id)) receipts.set(id, []);
      return {
        messages: page,
        hasMore,
        receipts: [...receipts].map(([messageId, memories]) => ({
          messageId,
          memories,
          ...(searches.has(messageId) ? { searches: searches.get(messageId)! } : {}),
          ...(forgets.has(messageId) ? { forgets: forgets.get(messageId)! } : {}),
          ...(recalled.has(messageId) ? { recalled: recalled.get(messageId)! } : {}),
        })),
      };
    },
    /** The last message of the conversation the user sees (the active leaf), if any. */
    last(threadId: number): Message | null {
      const leaf = branches.leaf(threadId);
      return leaf === null ? null : this.get(leaf);
    },
    /** Removes a message that nothing follows (chat.retry's failed reply); the leaf moves back to its parent. */
    remove(id: number): void {
      const m = this.get(id);
      ftsDelete.run(BigInt(id));
      sqlite.prepare('DELETE FROM messages WHERE id = ?').run(id);
      if (m) sqlite.prepare('UPDATE threads SET active_leaf_id = ? WHERE id = ? AND active_leaf_id = ?').run(m.parentId ?? null, m.threadId, id);
    },
    /** FTS5 BM25 over every message; ranked in an inner query so SQLite can stop early, joined afterwards. */
    search(query: string, limit: number): Array<{ threadId: number; threadTitle: string; message: Message }> {
      const match = toFtsQuery(query);
      if (!match) return [];
      const rows = sqlite
        .prepare(
          `SELECT m.*, t.title AS thread_title FROM (SELECT rowid AS id, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT ?) hit
           JOIN messages m ON m.id = hit.id JOIN threads t ON t.id = m.thread_id ORDER BY hit.rank`,
        )
        .all(match, limit) as Array<Row & { thread_title: string }>;
      return rows.map((r) => ({ threadId: r.thread_id, threadTitle: r.thread_title, message: toMessage(r) }));
    },
    /**
     * Full-text matches (an FTS5 `match`, text/fts-text.ts) among the conversations shown (see shownAmong), best
     * first, created within `window`, leaving out `excluded` ids.
     */
    searchShown(match: string, excluded: Iterable<number>, window: { from: number; to: number }, limit: number): SearchedMessage[] {
      return shownByMatch.all(match, JSON.stringify([...excluded]), window.from, window.to, limit) as SearchedMessage[];
    },
    /** The newest messages of `window` among the conversations shown, leaving out `excluded` ids. */
    newestShown(excluded: Iterable<number>, window: { from: number; to: number }, limit: number): SearchedMessage[] {
      return shownNewest.all(window.from, window.to, JSON.stringify([...excluded]), window.from, window.to, limit) as SearchedMessage[];
    },
    /** Every message of a thread (all versions) with its time, oldest first: where the thread's stretches begin and end. */
    stamps(threadId: number): Array<{ id: number; createdAt: number }> {
      return stampsOf.all(threadId) as Array<{ id: number; createdAt: number }>;
    },
    /** The readable messages (readable-message.ts) of a thread with ids fromId..toId, all versions, oldest first. */
    readableBetween(threadId: number, fromId: number, toId: number): Array<{ id: number; role: Message['role']; content: string }> {
      return readableIn.all(threadId, fromId, toId) as Array<{ id: number; role: Message['role']; content: string }>;
    },
    /** The id of the thread's newest message of any version; null when it has none. */
    newestId(threadId: number): number | null {
      return (newestOf.get(threadId) as { id: number | null }).id;
    },
    /** The role and text of up to two messages (an exchange), oldest first; those that do not exist are left out. */
    texts(firstId: number, secondId: number): Array<{ role: Message['role']; content: string }> {
      return textsOf.all(firstId, secondId) as Array<{ role: Message['role']; content: string }>;
    },
    /**
     * The user's message of an exchange (a question and its reply) as stored, with its thread's incognito flag and,
     * when it follows an answer, that answer (before_id, before_content); null when either message is gone.
     */
    userTurn(userMessageId: number, replyId: number): UserTurn | null {
      return (userTurnOf.get(userMessageId, replyId) as UserTurn | undefined) ?? null;
    },
    /** Replies being written (status 'streaming'), in one thread or all, with their writer and heartbeat (chat/reply-writer.ts). */
    repliesBeingWritten(threadId: number | null): Array<{ id: number; writer: string | null; updatedAt: number }> {
      return (threadId === null ? beingWritten.all() : beingWrittenIn.all(threadId)) as Array<{ id: number; writer: string | null; updatedAt: number }>;
    },
    /** A reply whose writer is gone (chat/reply-writer.ts): it keeps its text, marked stopped with INTERRUPTED. */
    markInterrupted(id: number, now: number): Message {
      interrupt.run(now, id);
      const m = this.get(id)!;
      ftsDelete.run(BigInt(id));
      if (m.content) ftsInsert.run(BigInt(id), toFtsDocument(m.content));
      return m;
    },
  };
}

export type MessagesStore = ReturnType<typeof createMessagesStore>;

/**
 * A list these answers' records hold (prompt-context.store.ts), at `jsonPath`: the memory tools' searches, the
 * requests to forget, the time's episodes the prompt carried. Empty and unreadable lists are left out.
 */
function recordedOf<T extends z.ZodType>(sqlite: Sqlite, messageIds: readonly number[], jsonPath: '$.tools.searches' | '$.forgets' | '$.recalled.episodes', item: T): Map<number, Array<z.output<T>>> {
  const out = new Map<number, Array<z.output<T>>>();
  if (messageIds.length === 0) return out;
  const rows = sqlite
    .prepare(
      `SELECT message_id AS messageId, json_extract(breakdown, '${jsonPath}') AS list FROM message_contexts
       WHERE message_id IN (SELECT value FROM json_each(?)) AND json_array_length(breakdown, '${jsonPath}') > 0`,
    )
    .all(JSON.stringify(messageIds)) as Array<{ messageId: number; list: string }>;
  for (const r of rows) {
    let json: unknown;
    try {
      json = JSON.parse(r.list);
    } catch {
      continue;
    }
    const parsed = z.array(item).safeParse(json);
    if (parsed.success) out.set(r.messageId, parsed.data as Array<z.output<T>>);
  }
  return out;
}
