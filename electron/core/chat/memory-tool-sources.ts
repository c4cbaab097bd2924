/**
 * Where the memory tools look (memory-tools.ts MemoryToolSources), over the memory store and the messages table.
 * create-core.ts wires it; episodes come from their service (episodes/episode.service.ts: active ones only; an
 * incognito thread never has any).
 *
 * Privacy rules, each applied here, in the query that reads the data:
 * - memories: active and unexpired only; never one the user excluded from the asking thread;
 * - conversations: the user's messages and the assistant's finished answers (complete, truncated or stopped: never a
 *   failed or unfinished one), each with its role; never from an incognito thread, never one the caller says is
 *   already in the prompt, and only the conversation the user sees (its thread's active path, message-branches.ts):
 *   a question edited away or an answer regenerated away is a version the user left, not what was said. A deleted
 *   thread's messages have no search entries (thread.service.ts), so nothing of it is found.
 */
import type { Sqlite } from '../db/open-database';
import type { MemoryService } from '../memory/memory.service';
import { matchedWords } from '../text/matched-words';
import { toFtsQuery } from '../text/fts-text';
import type { Episode } from '../../../shared/contract';
import type { FoundEpisode, FoundMemory, FoundMessage, MemoryToolSources } from './memory-tools';
import type { MemoryForget } from '../memory/memory-forget';

/** FTS candidates read per conversation search before the filters (role, incognito, already in the prompt). */
const CONVERSATION_DEPTH = 200;

export function createMemoryToolSources(deps: {
  sqlite: Sqlite;
  memory: Pick<MemoryService, 'hybridSearch'>;
  /** Memories the user excluded from a thread (timeline.service.ts). */
  exclusions: (threadId: number) => readonly number[];
  /** Active episodes matching a query, best first (episode.service.ts searchEpisodes). */
  episodes: (query: string, limit: number) => readonly Episode[];
  /** forget_memory: the one rule of forgetting by asking. */
  forget: MemoryForget;
}): MemoryToolSources {
  // The candidates' threads' active paths are walked up from each leaf (an indexed lookup per step), as
  // ACTIVE_PATH_LENGTH_SQL counts them; only the threads that hold a candidate are walked.
  const byMatch = deps.sqlite.prepare(
    `WITH RECURSIVE hit AS (
       SELECT m.id, m.thread_id, m.role, m.content, m.created_at, t.title, f.rank FROM
         (SELECT rowid AS id, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT ${CONVERSATION_DEPTH}) f
         JOIN messages m ON m.id = f.id JOIN threads t ON t.id = m.thread_id
       WHERE (m.role = 'user' OR (m.role = 'assistant' AND m.status IN ('complete', 'truncated', 'stopped')))
         AND t.incognito = 0 AND m.id NOT IN (SELECT value FROM json_each(?))
     ),
     shown(id) AS (
       SELECT coalesce(t.active_leaf_id, (SELECT max(id) FROM messages WHERE thread_id = t.id)) FROM threads t WHERE t.id IN (SELECT thread_id FROM hit)
       UNION ALL SELECT m.parent_id FROM messages m JOIN shown ON m.id = shown.id WHERE m.parent_id IS NOT NULL
     )
     SELECT id, thread_id, role, content, created_at, title FROM hit WHERE id IN (SELECT id FROM shown) ORDER BY rank LIMIT ?`,
  );

  return {
    async searchMemories({ query, category, limit, threadId }) {
      const filters = {
        statuses: ['active' as const],
        expired: false,
        excludeIds: new Set(deps.exclusions(threadId)),
        ...(category ? { categories: [category] } : {}),
      };
      const { hits } = await deps.memory.hybridSearch(query, filters, { limit, keyword: 'search' });
      return hits.map((h): FoundMemory => {
        const matched = h.parts.keywordRank === null ? [] : matchedWords(query, h.memory.content);
        return {
          memoryId: h.memory.id,
          score: h.score,
          reason: h.reason,
          content: h.memory.content,
          category: h.memory.category as FoundMemory['category'],
          ...(matched.length > 0 ? { matched } : {}),
        };
      });
    },

    forgetMemories({ query }) {
      return deps.forget.forget(query, null);
    },

    searchEpisodes({ query, limit }) {
      return deps.episodes(query, limit).map((e): FoundEpisode => ({ episodeId: e.id, threadId: e.threadId, threadTitle: e.threadTitle, title: e.title, content: e.content, startedAt: e.startedAt }));
    },

    searchConversations({ query, limit, excludeMessageIds }) {
      // Every word first; a question in natural language rarely holds them all, so then any of them (BM25 ranks).
      for (const mode of ['all', 'any'] as const) {
        const match = toFtsQuery(query, { mode });
        if (match === null) return [];
        const rows = byMatch.all(match, JSON.stringify([...excludeMessageIds]), limit) as Array<{ id: number; thread_id: number; role: FoundMessage['role']; content: string; created_at: number; title: string }>;
        if (rows.length > 0) {
          return rows.map((r): FoundMessage => ({ messageId: r.id, threadId: r.thread_id, threadTitle: r.title, role: r.role, createdAt: r.created_at, content: r.content }));
        }
      }
      return [];
    },
  };
}
