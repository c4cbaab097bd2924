/**
 * Where the memory tools look (memory-tools.ts MemoryToolSources), over the memory store and the messages table.
 * create-core.ts wires it; episodes come from their service (episodes/episode.service.ts: active ones only; an
 * incognito thread never has any).
 *
 * Privacy rules, each applied here, in the query that reads the data:
 * - memories: active and unexpired only; never one the user excluded from the asking thread;
 * - conversations: readable messages only (conversation/readable-message.ts: never a failed or unfinished answer),
 *   each with its role; never from an incognito thread, never one the caller says is already in the prompt, and only
 *   the conversation the user sees (its thread's active path, message-branches.ts): a question edited away or an
 *   answer regenerated away is a version the user left, not what was said (messages.store.ts searchShown). A deleted
 *   thread's messages have no search entries (conversation/threads.store.ts), so nothing of it is found.
 * A window is what it holds: memories learned in it (memory.repo.ts LEARNED_AT_SQL), episodes and messages of it;
 * a date range (`windowOnly`) keeps only that, the time a query names puts it first; for a query that names no subject ("What did we talk about?", '';
 * time/time-window.ts aboutTheTimeItself) and matches nothing, its newest: the same rule as a question's time in the
 * prompt (memory-search.ts).
 */
import type { MessagesStore, SearchedMessage } from '../conversation/messages.store';
import type { MemoryService } from '../memory/memory.service';
import { matchedWords } from '../text/matched-words';
import { toFtsQuery } from '../text/fts-text';
import { aboutTheTimeItself } from '../time/time-window';
import type { Episode } from '../../../shared/contract';
import type { FoundMemory, FoundMessage, MemoryToolSources } from './memory-tools';
import { toPromptEpisode } from '../episodes/episode.service';
import type { MemoryForget } from '../memory/memory-forget';

/** The items in the window first, each part in its order (a time the query names orders, it does not exclude). */
function inWindowFirst<T>(items: readonly T[], window: { from: number; to: number } | null, inside: (item: T) => boolean): T[] {
  return window ? [...items.filter(inside), ...items.filter((i) => !inside(i))] : [...items];
}

export function createMemoryToolSources(deps: {
  messages: Pick<MessagesStore, 'searchShown' | 'newestShown'>;
  memory: Pick<MemoryService, 'hybridSearch' | 'newestLearnedWithin'>;
  /** Memories the user excluded from a thread (threads/thread-exclusions.store.ts). */
  exclusions: (threadId: number) => readonly number[];
  /** Active episodes matching a query, best first; within a window, those overlapping it (episode.service.ts searchEpisodes). */
  episodes: (query: string, limit: number, window: { from: number; to: number } | null) => readonly Episode[];
  /** forget_memory: the one rule of forgetting by asking. */
  forget: MemoryForget;
}): MemoryToolSources {
  const toFound = (r: SearchedMessage): FoundMessage => ({ messageId: r.id, threadId: r.thread_id, threadTitle: r.title, role: r.role, createdAt: r.created_at, content: r.content });

  return {
    async searchMemories({ query, category, limit, threadId, window, windowOnly }) {
      const filters = {
        statuses: ['active' as const],
        expired: false,
        excludeIds: new Set(deps.exclusions(threadId)),
        ...(category ? { categories: [category] } : {}),
      };
      const { hits: matched } = await deps.memory.hybridSearch(query, windowOnly && window ? { ...filters, learnedWithin: window } : filters, { limit, keyword: 'search', learnedFirst: window });
      const hits = window && matched.length === 0 && aboutTheTimeItself(query) ? deps.memory.newestLearnedWithin(filters, window, limit) : matched;
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

    searchEpisodes({ query, limit, window, windowOnly }) {
      const matched = query.trim() ? inWindowFirst(deps.episodes(query, limit, windowOnly ? window : null), window, (e) => e.startedAt < window!.to && e.endedAt >= window!.from) : [];
      return (window && matched.length === 0 && aboutTheTimeItself(query) ? deps.episodes('', limit, window) : matched).map(toPromptEpisode);
    },

    searchConversations({ query, limit, excludeMessageIds, window, windowOnly }) {
      const from = window?.from ?? 0;
      const to = window?.to ?? Number.MAX_SAFE_INTEGER;
      const filter = windowOnly ? [from, to] : [0, Number.MAX_SAFE_INTEGER];
      // Every word first; a question in natural language rarely holds them all, so then any of them (BM25 ranks).
      for (const mode of ['all', 'any'] as const) {
        const match = toFtsQuery(query, { mode });
        if (match === null) break;
        const rows = deps.messages.searchShown(match, excludeMessageIds, { from: filter[0]!, to: filter[1]! }, limit);
        if (rows.length > 0) return inWindowFirst(rows, window, (r) => r.created_at >= from && r.created_at < to).map(toFound);
      }
      return window && aboutTheTimeItself(query) ? deps.messages.newestShown(excludeMessageIds, { from, to }, limit).map(toFound) : [];
    },
  };
}
