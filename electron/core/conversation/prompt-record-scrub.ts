/**
 * The records of what the model saw (message_contexts, prompt-context.store.ts) name what the memory tools found (an
 * episode with its title and its thread's title, a message with its thread's title) and the episodes of a question's
 * time its prompt carried (`recalled`). When the episode is deleted forever or the thread is deleted, those names must
 * go from every other answer's record too (and so from every backup made later, backup-derived.ts): the result is
 * removed from its list and counted in that list's `forgotten`, so the receipt can still say that something was there.
 *
 * Rows are found by the ids' JSON text (JSON.stringify writes no spaces) and then read and rewritten whole; a row that
 * does not parse is left as it is (the receipt shows it as not recorded: prompt-context.store.ts).
 */
import type { Sqlite } from '../db/open-database';

interface Result {
  episodeId?: number;
  threadId?: number;
}

interface RawSearch {
  episodes?: Result[];
  messages?: Result[];
  forgotten?: number;
}

/** Rewrites the rows whose text matches `like`, dropping the results `gone` says; returns how many rows changed. */
function rewrite(sqlite: Sqlite, likes: readonly string[], gone: (r: Result) => boolean): number {
  if (likes.length === 0) return 0;
  const rows = sqlite
    .prepare(`SELECT message_id AS id, breakdown FROM message_contexts WHERE ${likes.map(() => 'breakdown LIKE ?').join(' OR ')}`)
    .all(...likes) as Array<{ id: number; breakdown: string }>;
  const update = sqlite.prepare('UPDATE message_contexts SET breakdown = ? WHERE message_id = ?');
  let changed = 0;
  for (const row of rows) {
    let json: { tools?: { searches?: RawSearch[] }; recalled?: RawSearch };
    try {
      json = JSON.parse(row.breakdown) as typeof json;
    } catch {
      continue;
    }
    let dropped = 0;
    // A search's results and the prompt's recalled episodes are the same kind of list: one rule for both.
    for (const search of [...(json.tools?.searches ?? []), ...(json.recalled ? [json.recalled] : [])]) {
      const before = (search.episodes?.length ?? 0) + (search.messages?.length ?? 0);
      if (search.episodes) search.episodes = search.episodes.filter((r) => !gone(r));
      if (search.messages) search.messages = search.messages.filter((r) => !gone(r));
      const removed = before - (search.episodes?.length ?? 0) - (search.messages?.length ?? 0);
      if (removed > 0) search.forgotten = (search.forgotten ?? 0) + removed;
      dropped += removed;
    }
    if (dropped === 0) continue;
    update.run(JSON.stringify(json), row.id);
    changed++;
  }
  return changed;
}

/** Inside the transaction that deletes the episodes for good. */
export function forgetEpisodesInRecords(sqlite: Sqlite, episodeIds: readonly number[]): number {
  const ids = new Set(episodeIds);
  return rewrite(
    sqlite,
    episodeIds.flatMap((id) => [`%"episodeId":${id},%`, `%"episodeId":${id}}%`]),
    (r) => r.episodeId !== undefined && ids.has(r.episodeId),
  );
}

/** Inside the transaction that deletes the thread: its episodes and messages named in other answers' records. */
export function forgetThreadInRecords(sqlite: Sqlite, threadId: number): number {
  return rewrite(sqlite, [`%"threadId":${threadId},%`, `%"threadId":${threadId}}%`], (r) => r.threadId === threadId);
}
