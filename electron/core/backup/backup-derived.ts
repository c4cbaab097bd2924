/**
 * In a backup being scrubbed (backup-scrub.ts), what was written from the purged rows goes with them, by the same
 * rules as in the live database:
 * - the profile loses the lines that draw on a purged memory (profile-lines.ts), read from the backup's own memory
 *   rows and versions; a backup from before sources were kept goes by shared words alone;
 * - originals that came back active in the live database (their summary was purged with its source) come back in the
 *   backup too, so restoring it does not leave them hidden behind a summary that no longer exists;
 * - the records of what the model saw (message_contexts) lose the results that named a purged episode.
 * Each step runs only where its table (and column) exists: a pre-migration backup has an older schema.
 */
import type { Sqlite } from '../db/open-database';
import { forgetEpisodesInRecords } from '../conversation/prompt-record-scrub';
import { parseSources, profileWithout } from '../profile/profile-lines';

export interface HeldRow {
  id: number;
  createdAt: number;
}

function columnsOf(db: Sqlite, table: string): Set<string> {
  return new Set((db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table) as string[]) ?? []);
}

/** The profile without the lines of these memories (those this backup holds, by id and creation time). */
export function forgetMemoriesInProfile(db: Sqlite, memories: readonly HeldRow[]): void {
  const profileColumns = columnsOf(db, 'user_profile');
  if (profileColumns.size === 0 || memories.length === 0) return;
  const hasVersions = columnsOf(db, 'memory_versions').size > 0;
  const current = db.prepare('SELECT content FROM memories WHERE id = ? AND created_at = ?').pluck();
  const versions = hasVersions ? db.prepare('SELECT content FROM memory_versions WHERE memory_id = ?').pluck() : null;
  const purged = memories.flatMap((m) => {
    const content = current.get(m.id, m.createdAt) as string | undefined;
    if (content === undefined) return [];
    return [{ id: m.id, content: [content, ...((versions?.all(m.id) as string[] | undefined) ?? [])].join('\n') }];
  });
  const withSources = profileColumns.has('sources');
  const row = db.prepare(`SELECT content, ${withSources ? 'sources' : 'NULL AS sources'} FROM user_profile WHERE id = 1`).get() as { content: string; sources: string | null } | undefined;
  if (!row) return;
  const next = profileWithout({ content: row.content, sources: parseSources(row.sources) }, purged);
  if (!next) return;
  if (next.content === '') db.prepare('DELETE FROM user_profile WHERE id = 1').run();
  else if (withSources) db.prepare('UPDATE user_profile SET content = ?, sources = ? WHERE id = 1').run(next.content, JSON.stringify(next.sources));
  else db.prepare('UPDATE user_profile SET content = ? WHERE id = 1').run(next.content);
}

/** Originals active again in the live database: active here too, when the backup holds them superseded. */
export function returnOriginals(db: Sqlite, originals: readonly HeldRow[]): void {
  if (originals.length === 0) return;
  const update = db.prepare(`UPDATE memories SET status = 'active', superseded_by = NULL WHERE id = ? AND created_at = ? AND status = 'superseded'`);
  for (const m of originals) update.run(m.id, m.createdAt);
}

/** The records of what the model saw, without the results naming these episodes (those this backup holds). */
export function forgetEpisodesInBackupRecords(db: Sqlite, episodeIds: readonly number[]): void {
  if (episodeIds.length === 0 || columnsOf(db, 'message_contexts').size === 0) return;
  forgetEpisodesInRecords(db, episodeIds);
}
