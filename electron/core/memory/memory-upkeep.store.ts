/**
 * The reads that sweep the memories table family and what the timeline recorded about memories: for maintenance
 * (expiry, merges, decay), consolidation, the cap, supersede lineage, what a purge takes with it, undoing a summary,
 * the review inbox's proposals, the messages a memory was learned from, the profile's notes and the export. Prepared
 * once; typed rows out; the decisions made from them stay with their callers (named at each group). One memory's row,
 * versions and writes: memory.store.ts.
 * the review inbox's proposals, which connected app wrote a memory, the profile's notes and the export. Prepared
 * once; typed rows out; the decisions made from them stay with their callers (named at each group). One memory's
 * row, versions and writes: memory.store.ts.
 */
import type { MemoryStatus, WrittenBy } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';
import type { MemoryRow, VersionRow } from './memory.repo';

/** How many replaced memories a memory lists (a consolidation summary stands for a cluster: a few dozen at most). */
export const MAX_REPLACED = 50;

/**
 * The ids of every memory that is the user's, as a common table expression named `users`: the rule and its reasons
 * are memory-cap.ts's (any version written by the user or imported, and what took such a memory's place).
 */
const USERS_CTE = `WITH RECURSIVE users(id) AS (
    SELECT memory_id FROM memory_versions WHERE origin IN ('user', 'import')
    UNION
    SELECT m.superseded_by FROM users u JOIN memories m ON m.id = u.id
    WHERE m.superseded_by IS NOT NULL AND m.status IN ('archived', 'superseded')
  )`;

export interface LinkRow {
  id: number;
  content: string;
  status: MemoryStatus | 'importing';
}

/** Where a walk over memories in (updated_at, id) order stopped. */
export interface Watermark {
  at: number;
  id: number;
}

export type ExportVersionRow = VersionRow & { memory_id: number };

export function createMemoryUpkeepStore(sqlite: Sqlite) {
  const q = {
    // Lineage (memory-lineage.ts).
    replaced: sqlite.prepare(`SELECT id, content, status FROM memories WHERE superseded_by = ? AND status = 'superseded' ORDER BY id LIMIT ${MAX_REPLACED}`),
    retirements: sqlite.prepare(
      `SELECT json_extract(data, '$.version') AS version, json_extract(data, '$.by') AS by FROM events WHERE memory_id = ? AND kind = 'superseded' ORDER BY id`,
    ),
    link: sqlite.prepare('SELECT id, content, status FROM memories WHERE id = ?'),
    state: sqlite.prepare('SELECT status, superseded_by, (SELECT max(version) FROM memory_versions WHERE memory_id = m.id) AS version FROM memories m WHERE id = ?'),
    // Derived memories (derived-memories.ts) and undoing a summary (memory-unconsolidate.ts).
    summariesOf: sqlite
      .prepare(
        `SELECT DISTINCT e.memory_id FROM events e, json_each(e.data, '$.from') f
         WHERE e.kind IN ('consolidated', 'proposed') AND e.memory_id IS NOT NULL AND f.value = ?`,
      )
      .pluck(),
    supersededBy: sqlite.prepare(`SELECT id FROM memories WHERE superseded_by = ? AND status = 'superseded' ORDER BY id`).pluck(),
    wordings: sqlite.prepare(`SELECT content FROM memories WHERE id = ? UNION SELECT content FROM memory_versions WHERE memory_id = ?`).pluck(),
    firstReason: sqlite.prepare('SELECT reason FROM memory_versions WHERE memory_id = ? ORDER BY version LIMIT 1').pluck(),
    // The cap (memory-cap.ts).
    capCounts: sqlite.prepare(
      `${USERS_CTE}
       SELECT count(*) AS active, coalesce(sum(id NOT IN (SELECT id FROM users)), 0) AS learned FROM memories WHERE status = 'active'`,
    ),
    leastValuable: sqlite.prepare(
      `${USERS_CTE}
       SELECT id FROM memories WHERE status = 'active' AND pinned = 0 AND id NOT IN (SELECT id FROM users)
       ORDER BY importance ASC, access_count ASC, coalesce(last_used_at, updated_at) ASC, id ASC LIMIT ?`,
    ).pluck(),
    // The ids travel as one JSON array: one statement for any number of them.
    usersAmong: sqlite.prepare(`${USERS_CTE} SELECT id FROM users WHERE id IN (SELECT value FROM json_each(?))`).pluck(),
    // Maintenance (memory-maintenance.ts).
    newlyExpired: sqlite.prepare(
      `SELECT id FROM memories m
       WHERE m.status = 'active' AND m.expires_at IS NOT NULL AND m.expires_at <= ?
         AND NOT EXISTS (SELECT 1 FROM events e WHERE e.memory_id = m.id AND e.kind = 'expired' AND e.created_at >= m.expires_at)`,
    ).pluck(),
    lastMaintained: sqlite.prepare(`SELECT created_at AS at, data FROM events WHERE kind = 'maintained' ORDER BY created_at DESC, id DESC LIMIT 1`),
    mergeCandidates: sqlite.prepare(
      `SELECT id, updated_at FROM memories
       WHERE status = 'active' AND embedding_model = @model AND (updated_at > @at OR (updated_at = @at AND id > @id))
       ORDER BY updated_at, id LIMIT @limit`,
    ),
    mergePending: sqlite.prepare(
      `SELECT count(*) AS n FROM memories
       WHERE status = 'active' AND embedding_model = @model AND (updated_at > @at OR (updated_at = @at AND id > @id))`,
    ),
    decayable: sqlite.prepare(
      `SELECT id, importance FROM memories
       WHERE status = 'active' AND pinned = 0 AND importance < @below AND importance > @floor
         AND updated_at < @cutoff AND (last_used_at IS NULL OR last_used_at < @cutoff)
       ORDER BY id`,
    ),
    // Consolidation (consolidation-step.ts, consolidate.job.ts).
    changedSince: sqlite.prepare(
      `SELECT id, updated_at FROM memories
       WHERE status = 'active' AND embedding_model = @model AND (expires_at IS NULL OR expires_at > @now)
         AND (updated_at > @at OR (updated_at = @at AND id > @id))
       ORDER BY updated_at, id LIMIT @limit`,
    ),
    // A random place in the id order, then the next active ones (abs of random() alone can overflow at its minimum).
    sample: sqlite.prepare(
      `SELECT id, updated_at FROM memories
       WHERE id >= (SELECT abs(random() % 4294967296) % (coalesce(max(id), 0) + 1) FROM memories)
         AND status = 'active' AND embedding_model = @model AND (expires_at IS NULL OR expires_at > @now)
       ORDER BY id LIMIT @limit`,
    ),
    clusterRow: sqlite.prepare(`SELECT id, category, pinned, status, embedding_model FROM memories WHERE id = ?`),
    latestVersion: sqlite.prepare('SELECT max(version) FROM memory_versions WHERE memory_id = ?').pluck(),
    consolidationProposals: sqlite.prepare(
      `SELECT e.data FROM events e JOIN memories m ON m.id = e.memory_id
       WHERE e.kind = 'proposed' AND m.status IN ('review', 'rejected') AND json_extract(e.data, '$.flag') = 'consolidation'`,
    ).pluck(),
    // By event id, not time: a summary written in the same millisecond as a run is counted once.
    summarisedSinceLastRun: sqlite.prepare(
      `SELECT count(*) FROM events WHERE kind = 'consolidated' AND id > coalesce((SELECT max(id) FROM events WHERE kind = 'maintained'), 0)`,
    ).pluck(),
    // The review inbox (review/review.service.ts).
    proposal: sqlite.prepare(
      `SELECT json_extract(data, '$.replaces') AS replaces, json_extract(data, '$.alsoReplaces') AS alsoReplaces, json_extract(data, '$.flag') AS flag FROM events
       WHERE memory_id = ? AND kind = 'proposed' ORDER BY id DESC LIMIT 1`,
    ),
    // Learning (extraction/extraction.job.ts): the user messages a memory was learned, confirmed or merged from. A
    // 'learned' or 'proposed' event points at the memory's source message; a 'confirmed' or 'merged' one names the
    // message that said it again in its data.
    heardFrom: sqlite
      .prepare(
        `SELECT 1 FROM events WHERE memory_id = ? AND kind IN ('learned', 'proposed', 'confirmed', 'merged')
         AND coalesce(json_extract(data, '$.messageId'), message_id) IN (SELECT value FROM json_each(?)) LIMIT 1`,
      )
      .pluck(),
    // Which connected app wrote a memory (memory.get, the review inbox): its creating event names it, nothing else does.
    writtenBy: sqlite.prepare(
      `SELECT json_extract(data, '$.mcpClient') FROM events WHERE memory_id = ? AND kind IN ('learned', 'proposed') ORDER BY id LIMIT 1`,
    ).pluck(),
    // The profile (profile/profile.job.ts).
    exists: sqlite.prepare('SELECT 1 FROM memories WHERE id = ?').pluck(),
    profileNotes: sqlite.prepare(
      `SELECT id, category, content FROM memories WHERE status = 'active' AND (expires_at IS NULL OR expires_at > ?)
       ORDER BY pinned DESC, importance DESC, id DESC LIMIT ?`,
    ),
    // The export (memory-export.ts): one consistent read, back to back.
    exportRows: sqlite.prepare(
      `SELECT m.*, t.title AS thread_title FROM memories m LEFT JOIN threads t ON t.id = m.source_thread_id
       WHERE m.status IN (SELECT value FROM json_each(?)) ORDER BY m.id`,
    ),
    exportVersions: sqlite.prepare(
      `SELECT v.* FROM memory_versions v JOIN memories m ON m.id = v.memory_id
       WHERE m.status IN (SELECT value FROM json_each(?)) ORDER BY v.memory_id, v.version`,
    ),
  };

  return {
    // Lineage.
    /** Memories superseded by this one and still retired by it, oldest first (at most MAX_REPLACED). */
    replaced: (id: number) => q.replaced.all(id) as LinkRow[],
    /** The 'superseded' events of a memory: the version it retired and by which memory (as stored: check the types). */
    retirements: (id: number) => q.retirements.all(id) as Array<{ version: unknown; by: unknown }>,
    /** A memory as a link, whatever its status (an import's hidden one included: the caller leaves it out). */
    link: (id: number) => q.link.get(id) as LinkRow | undefined,
    /** A memory's status, what superseded it and its latest version number. */
    state: (id: number) => q.state.get(id) as { status: string; superseded_by: number | null; version: number | null } | undefined,

    // Derived memories.
    /** Memories whose creating event ('consolidated', 'proposed') names this one among those they were written from. */
    summariesOf: (id: number) => q.summariesOf.all(id) as number[],
    /** Memories still superseded by this one, by id. */
    supersededBy: (id: number) => q.supersededBy.all(id) as number[],
    /** Every text the memory and its versions had. */
    wordings: (id: number) => q.wordings.all(id, id) as string[],
    /** The reason of a memory's first version, or undefined when it has none. */
    firstReason: (id: number) => q.firstReason.get(id) as string | undefined,

    // The cap.
    capCounts: () => q.capCounts.get() as { active: number; learned: number },
    /** Learned, unpinned active memories, least important, least used, longest unused first. */
    leastValuableLearned: (n: number) => q.leastValuable.all(n) as number[],
    usersAmong: (ids: readonly number[]) => q.usersAmong.all(JSON.stringify(ids)) as number[],

    // Maintenance.
    /** Active memories past their expiry without an 'expired' event since. */
    newlyExpired: (at: number) => q.newlyExpired.all(at) as number[],
    /** The last 'maintained' event: when, and its data as stored. */
    lastMaintained: () => q.lastMaintained.get() as { at: number; data: string } | undefined,
    /** Active memories with a vector of `model` changed after the watermark, in (updated_at, id) order. */
    mergeCandidates: (model: string, after: Watermark, limit: number) => q.mergeCandidates.all({ model, ...after, limit }) as Array<{ id: number; updated_at: number }>,
    mergePending: (model: string, after: Watermark) => (q.mergePending.get({ model, ...after }) as { n: number }).n,
    /** Active, unpinned memories with importance in (floor, below), unchanged and unused since `cutoff`. */
    decayable: (below: number, floor: number, cutoff: number) => q.decayable.all({ below, floor, cutoff }) as Array<{ id: number; importance: number }>,

    // Consolidation.
    /** Active, unexpired memories with a vector of `model` changed after the watermark, in (updated_at, id) order. */
    changedSince: (model: string, now: number, after: Watermark, limit: number) => q.changedSince.all({ model, now, ...after, limit }) as Array<{ id: number; updated_at: number }>,
    /** Active, unexpired memories with a vector of `model`, from a random place in the id order. */
    sample: (model: string, now: number, limit: number) => q.sample.all({ model, now, limit }) as Array<{ id: number }>,
    clusterRow: (id: number) => q.clusterRow.get(id) as { id: number; category: string; pinned: number; status: string; embedding_model: string | null } | undefined,
    latestVersion: (id: number) => q.latestVersion.get(id) as number | null,
    /** The data of the 'proposed' events of consolidation summaries waiting in review or rejected. */
    consolidationProposals: () => q.consolidationProposals.all() as string[],
    summarisedSinceLastRun: () => q.summarisedSinceLastRun.get() as number,

    // Review.
    /** What the newest 'proposed' event of a candidate said it replaces, and its flag (as stored). */
    proposal: (id: number) => q.proposal.get(id) as { replaces: number | null; alsoReplaces: string | null; flag: string | null } | undefined,
    /**
     * The connected app that wrote the memory (`mcpClient` of its 'learned' or 'proposed' event) as a field to spread
     * into what is returned; empty when Mnemo or the user wrote it. Derived from the event rather than a new origin
     * value (memory_versions.origin's CHECK would need a table rebuild); an app that only confirmed a memory is in its
     * access log, not here.
     */
    writtenBy(id: number): { writtenBy?: WrittenBy } {
      const app: unknown = q.writtenBy.get(id);
      return typeof app === 'string' ? { writtenBy: { app } } : {};
    },

    // Learning.
    /** Whether the memory was learned, confirmed or merged from any of these messages. */
    heardFrom: (id: number, messageIds: readonly number[]) => q.heardFrom.get(id, JSON.stringify(messageIds)) !== undefined,

    // Profile.
    exists: (id: number) => q.exists.get(id) !== undefined,
    /** Active, unexpired memories: pinned, then most important, then newest first. */
    profileNotes: (at: number, limit: number) => q.profileNotes.all(at, limit) as Array<{ id: number; category: string; content: string }>,

    // Export.
    exportRows: (statuses: readonly MemoryStatus[]) => q.exportRows.all(JSON.stringify(statuses)) as Array<MemoryRow & { thread_title: string | null }>,
    exportVersions: (statuses: readonly MemoryStatus[]) => q.exportVersions.all(JSON.stringify(statuses)) as ExportVersionRow[],
  };
}

export type MemoryUpkeepStore = ReturnType<typeof createMemoryUpkeepStore>;
