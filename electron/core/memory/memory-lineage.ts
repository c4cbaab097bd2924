/**
 * A supersede told both ways: a newer statement of a fact took the place of an older memory (extraction's
 * contradiction, a review approval, a consolidation summary), and memory.get says so on each side: the memories a
 * memory replaces, and for each version of it that retired it, the memory that replaced it then.
 *
 * Read from what the memory writer stored, nothing new is written: memories.superseded_by (indexed) for what a memory
 * replaces now (only those still retired by it: one restored since is no longer replaced), and the 'superseded'
 * timeline events of the memory (events.memory_id is indexed; data.version and data.by are ids, never text) for its
 * history, which stays true after a restore. A memory stored superseded without such an event (an older import) is
 * named by its superseded_by. A successor purged since is a null link: "replaced by a memory deleted since".
 */
import type { MemoryLink, MemoryStatus } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';

/** How many replaced memories a memory lists (a consolidation summary stands for a cluster: a few dozen at most). */
const MAX_REPLACED = 50;

export interface MemoryLineage {
  /** Memories this one replaces now, oldest first. */
  replaces: MemoryLink[];
  /** Each version of this memory that retired it, with the memory that replaced it then (null: purged since). */
  replacedBy: Array<{ version: number; memory: MemoryLink | null }>;
}

interface LinkRow {
  id: number;
  content: string;
  status: MemoryStatus | 'importing';
}

export function createMemoryLineage(sqlite: Sqlite) {
  const q = {
    replaced: sqlite.prepare(`SELECT id, content, status FROM memories WHERE superseded_by = ? AND status = 'superseded' ORDER BY id LIMIT ${MAX_REPLACED}`),
    retirements: sqlite.prepare(
      `SELECT json_extract(data, '$.version') AS version, json_extract(data, '$.by') AS by FROM events WHERE memory_id = ? AND kind = 'superseded' ORDER BY id`,
    ),
    link: sqlite.prepare('SELECT id, content, status FROM memories WHERE id = ?'),
    state: sqlite.prepare('SELECT status, superseded_by, (SELECT max(version) FROM memory_versions WHERE memory_id = m.id) AS version FROM memories m WHERE id = ?'),
  };
  const toLink = (r: LinkRow | undefined): MemoryLink | null => (r && r.status !== 'importing' ? { id: r.id, content: r.content, status: r.status } : null);

  return {
    of(memoryId: number): MemoryLineage {
      const replaces = (q.replaced.all(memoryId) as LinkRow[]).map((r) => toLink(r)!);
      const replacedBy = (q.retirements.all(memoryId) as Array<{ version: unknown; by: unknown }>)
        .filter((e): e is { version: number; by: number } => Number.isInteger(e.version) && Number.isInteger(e.by))
        .map((e) => ({ version: e.version, memory: toLink(q.link.get(e.by) as LinkRow | undefined) }));
      const now = q.state.get(memoryId) as { status: string; superseded_by: number | null; version: number | null } | undefined;
      if (now?.status === 'superseded' && now.superseded_by !== null && now.version !== null && !replacedBy.some((r) => r.memory?.id === now.superseded_by)) {
        replacedBy.push({ version: now.version, memory: toLink(q.link.get(now.superseded_by) as LinkRow | undefined) });
      }
      return { replaces, replacedBy };
    },
  };
}
