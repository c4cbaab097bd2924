/**
 * What a conversation export reads (thread-export.ts): the threads with their running summary, every message of
 * every version (Mnemo's own notes, role 'system', are not the conversation), and each answer's memory uses with the
 * memory's text as it reads now. Rows as stored, statements prepared once; one thread or all of them.
 */
import type { MemoryReason } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';

export interface ExportThreadRow {
  id: number;
  title: string;
  incognito: number;
  model: string | null;
  instructions: string | null;
  created_at: number;
  last_activity_at: number;
  summary: string | null;
  summary_to: number | null;
  summary_edited: number | null;
  active_leaf_id: number | null;
}

export interface ExportMessageRow {
  id: number;
  thread_id: number;
  role: 'user' | 'assistant';
  content: string;
  thinking: string;
  status: 'complete' | 'streaming' | 'stopped' | 'error' | 'truncated';
  model: string | null;
  attachments: string | null;
  parent_id: number | null;
  created_at: number;
}

export interface ExportUseRow {
  message_id: number;
  memory_id: number;
  score: number;
  reason: MemoryReason;
  content: string | null;
}

export function createThreadExportStore(sqlite: Sqlite) {
  const threadsSql = `SELECT t.id, t.title, t.incognito, t.model, t.instructions, t.created_at, t.last_activity_at,
      s.content AS summary, s.to_message_id AS summary_to, s.edited_by_user AS summary_edited, t.active_leaf_id
    FROM threads t LEFT JOIN thread_summaries s ON s.thread_id = t.id`;
  const oneThread = sqlite.prepare(`${threadsSql} WHERE t.id = ?`);
  const allThreads = sqlite.prepare(`${threadsSql} ORDER BY t.created_at, t.id`);
  const messagesSql = `SELECT id, thread_id, role, content, thinking, status, model, attachments, parent_id, created_at FROM messages WHERE role != 'system'`;
  const messagesOf = sqlite.prepare(`${messagesSql} AND thread_id = ? ORDER BY id`);
  const allMessages = sqlite.prepare(`${messagesSql} ORDER BY thread_id, id`);
  const usesSql = `SELECT u.message_id, u.memory_id, u.score, u.reason, m.content FROM message_memories u
    JOIN messages msg ON msg.id = u.message_id LEFT JOIN memories m ON m.id = u.memory_id`;
  const usesOf = sqlite.prepare(`${usesSql} WHERE msg.thread_id = ? ORDER BY u.message_id, u.rank`);
  const allUses = sqlite.prepare(`${usesSql} ORDER BY u.message_id, u.rank`);

  return {
    /** One thread (none when it does not exist) or every thread, oldest first; messages and uses in id order. */
    read(threadId: number | undefined): { threads: ExportThreadRow[]; messages: ExportMessageRow[]; uses: ExportUseRow[] } {
      return {
        threads: (threadId === undefined ? allThreads.all() : [oneThread.get(threadId)].filter(Boolean)) as ExportThreadRow[],
        messages: (threadId === undefined ? allMessages.all() : messagesOf.all(threadId)) as ExportMessageRow[],
        uses: (threadId === undefined ? allUses.all() : usesOf.all(threadId)) as ExportUseRow[],
      };
    },
  };
}

export type ThreadExportStore = ReturnType<typeof createThreadExportStore>;
