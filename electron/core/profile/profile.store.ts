/**
 * The profile row (user_profile, one row): read, the user's edit, the background model's rewrite, and a purge's
 * removal of the lines a purged memory was in. The rewrite applies only if nobody wrote the profile since the job read
 * it (an edit made while the model worked, or a purge, wins). Each write keeps the lines' sources (profile-lines.ts).
 */
import type { Profile } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';
import { parseSources, profileWithout, sourcesAfterUserEdit, type ProfileSources, type SourceNote } from './profile-lines';

interface Row {
  content: string;
  edited_by_user: number;
  source_hash: string | null;
  sources: string | null;
  memory_count: number;
  updated_at: number;
  refreshed_at: number | null;
}

export interface StoredProfile extends Profile {
  sourceHash: string | null;
  sources: ProfileSources | null;
}

export function createProfileStore(sqlite: Sqlite) {
  const select = sqlite.prepare('SELECT * FROM user_profile WHERE id = 1');
  const upsertByUser = sqlite.prepare(
    `INSERT INTO user_profile (id, content, edited_by_user, sources, memory_count, updated_at) VALUES (1, ?, 1, ?, 0, ?)
     ON CONFLICT(id) DO UPDATE SET content = excluded.content, edited_by_user = 1, sources = excluded.sources, updated_at = excluded.updated_at`,
  );
  const updateAfterPurge = sqlite.prepare('UPDATE user_profile SET content = ?, sources = ?, updated_at = ? WHERE id = 1');
  const clear = sqlite.prepare('DELETE FROM user_profile WHERE id = 1');
  const upsertRefresh = sqlite.prepare(
    `INSERT INTO user_profile (id, content, edited_by_user, source_hash, sources, memory_count, updated_at, refreshed_at) VALUES (1, ?, 0, ?, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET content = excluded.content, source_hash = excluded.source_hash, sources = excluded.sources,
       memory_count = excluded.memory_count, updated_at = excluded.updated_at, refreshed_at = excluded.refreshed_at`,
  );

  function get(): StoredProfile | null {
    const r = select.get() as Row | undefined;
    if (!r) return null;
    return {
      content: r.content,
      editedByUser: r.edited_by_user === 1,
      updatedAt: r.updated_at,
      refreshedAt: r.refreshed_at,
      memoryCount: r.memory_count,
      sourceHash: r.source_hash,
      sources: parseSources(r.sources),
    };
  }

  return {
    get,
    /** The user's text; '' removes the profile (the next refresh starts afresh). */
    setByUser(content: string, now: number): StoredProfile | null {
      if (content.trim() === '') clear.run();
      else upsertByUser.run(content, JSON.stringify(sourcesAfterUserEdit(content, get())), now);
      return get();
    },
    /** The model's rewrite, if the profile is still as it was when the job read it (updatedAt). Keeps editedByUser. */
    setByRefresh(input: { content: string; sourceHash: string; sources: ProfileSources; memoryCount: number; readAt: number | null; now: number }): StoredProfile | null {
      if ((get()?.updatedAt ?? null) !== input.readAt) return null;
      upsertRefresh.run(input.content, input.sourceHash, JSON.stringify(input.sources), input.memoryCount, input.now, input.now);
      return get();
    },
    /**
     * Inside a purge's transaction: the profile without the lines these memories are in (profile-lines.ts), or no
     * profile when nothing is left. Returns how many lines went and the profile now (undefined: unchanged).
     */
    forgetMemories(purged: readonly SourceNote[], now: number): { removed: number; profile?: StoredProfile | null } {
      const current = get();
      const next = current ? profileWithout(current, purged) : null;
      if (!next) return { removed: 0 };
      if (next.content === '') clear.run();
      else updateAfterPurge.run(next.content, JSON.stringify(next.sources), now);
      return { removed: next.removed, profile: get() };
    },
  };
}

export type ProfileStore = ReturnType<typeof createProfileStore>;

/** The contract's view: without the hash. */
export function toProfile(p: StoredProfile | null): Profile | null {
  if (!p) return null;
  const { sourceHash: _hash, sources: _sources, ...profile } = p;
  return profile;
}
