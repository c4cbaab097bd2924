/**
 * The profile row (user_profile, one row): read, the user's edit, and the background model's rewrite. The rewrite
 * applies only if nobody wrote the profile since the job read it (an edit made while the model worked wins).
 */
import type { Profile } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';

interface Row {
  content: string;
  edited_by_user: number;
  source_hash: string | null;
  memory_count: number;
  updated_at: number;
  refreshed_at: number | null;
}

export interface StoredProfile extends Profile {
  sourceHash: string | null;
}

export function createProfileStore(sqlite: Sqlite) {
  const select = sqlite.prepare('SELECT * FROM user_profile WHERE id = 1');
  const upsertByUser = sqlite.prepare(
    `INSERT INTO user_profile (id, content, edited_by_user, memory_count, updated_at) VALUES (1, ?, 1, 0, ?)
     ON CONFLICT(id) DO UPDATE SET content = excluded.content, edited_by_user = 1, updated_at = excluded.updated_at`,
  );
  const clear = sqlite.prepare('DELETE FROM user_profile WHERE id = 1');
  const upsertRefresh = sqlite.prepare(
    `INSERT INTO user_profile (id, content, edited_by_user, source_hash, memory_count, updated_at, refreshed_at) VALUES (1, ?, 0, ?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET content = excluded.content, source_hash = excluded.source_hash, memory_count = excluded.memory_count,
       updated_at = excluded.updated_at, refreshed_at = excluded.refreshed_at`,
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
    };
  }

  return {
    get,
    /** The user's text; '' removes the profile (the next refresh starts afresh). */
    setByUser(content: string, now: number): StoredProfile | null {
      if (content.trim() === '') clear.run();
      else upsertByUser.run(content, now);
      return get();
    },
    /** The model's rewrite, if the profile is still as it was when the job read it (updatedAt). Keeps editedByUser. */
    setByRefresh(input: { content: string; sourceHash: string; memoryCount: number; readAt: number | null; now: number }): StoredProfile | null {
      if ((get()?.updatedAt ?? null) !== input.readAt) return null;
      upsertRefresh.run(input.content, input.sourceHash, input.memoryCount, input.now, input.now);
      return get();
    },
  };
}

export type ProfileStore = ReturnType<typeof createProfileStore>;

/** The contract's view: without the hash. */
export function toProfile(p: StoredProfile | null): Profile | null {
  if (!p) return null;
  const { sourceHash: _hash, ...profile } = p;
  return profile;
}
