/**
 * The `thread_memory_exclusions` table: memories a thread leaves out of its prompts (thread.excludeMemory /
 * includeMemory / exclusions in thread.handlers.ts). Applied to prompts and the memory tools by
 * memory/memory.service.ts memoryRetrievalPort and chat/memory-tool-sources.ts, which create-core.ts hands `of`: an
 * excluded memory never reaches that thread's prompt. A memory deleted for good takes its rows with it (cascade).
 */
import type { Sqlite } from '../db/open-database';

export function createThreadExclusionsStore(sqlite: Sqlite) {
  const insert = sqlite.prepare('INSERT OR IGNORE INTO thread_memory_exclusions (thread_id, memory_id, created_at) VALUES (?, ?, ?)');
  const remove = sqlite.prepare('DELETE FROM thread_memory_exclusions WHERE thread_id = ? AND memory_id = ?');
  const ofThread = sqlite.prepare('SELECT memory_id FROM thread_memory_exclusions WHERE thread_id = ? ORDER BY created_at').pluck();
  return {
    /** Idempotent: excluding twice keeps the first time. */
    exclude(threadId: number, memoryId: number, now: number): void {
      insert.run(threadId, memoryId, now);
    },
    include(threadId: number, memoryId: number): void {
      remove.run(threadId, memoryId);
    },
    /** The thread's excluded memories, oldest exclusion first. */
    of(threadId: number): number[] {
      return ofThread.all(threadId) as number[];
    },
  };
}

export type ThreadExclusionsStore = ReturnType<typeof createThreadExclusionsStore>;
