/**
 * Where the memory tools look (memory-tools.ts MemoryToolSources), over the memory store and the messages table.
 * create-core.ts wires it; episodes come from their service (episodes/episode.service.ts: active ones only; an
 * incognito thread never has any).
 *
 * Privacy rules, each applied here, in the query that reads the data:
 * - memories: active and unexpired only; never one the user excluded from the asking thread;
 * - conversations: the user's own messages only (role 'user'), never from an incognito thread, never one the caller
 *   says is already in the prompt.
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
  const byMatch = deps.sqlite.prepare(
    `SELECT m.id, m.thread_id, m.content, m.created_at, t.title FROM
       (SELECT rowid AS id, rank FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rank LIMIT ${CONVERSATION_DEPTH}) hit
       JOIN messages m ON m.id = hit.id JOIN threads t ON t.id = m.thread_id
     WHERE m.role = 'user' AND t.incognito = 0 AND m.id NOT IN (SELECT value FROM json_each(?))
     ORDER BY hit.rank LIMIT ?`,
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
        const rows = byMatch.all(match, JSON.stringify([...excludeMessageIds]), limit) as Array<{ id: number; thread_id: number; content: string; created_at: number; title: string }>;
        if (rows.length > 0) {
          return rows.map((r): FoundMessage => ({ messageId: r.id, threadId: r.thread_id, threadTitle: r.title, createdAt: r.created_at, content: r.content }));
        }
      }
      return [];
    },
  };
}
