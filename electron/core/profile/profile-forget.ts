/**
 * The profile's part in a purge (memory-bulk.ts `writtenFromMemories`): inside the purge's transaction the lines that
 * draw on the purged memories leave the profile (profile-lines.ts), with no model involved; after the commit the
 * window hears of the profile as it now is. The rewrite the purge schedules (profile.service.ts) fills in what the
 * remaining memories say.
 */
import type { EventBus } from '../runtime/event-bus';
import type { WrittenFromMemories } from '../memory/memory-bulk';
import type { Clock } from '../ports/clock.port';
import { toProfile, type ProfileStore } from './profile.store';

export function profileForgetsPurged(deps: { store: ProfileStore; events: EventBus; clock: Clock }): WrittenFromMemories {
  return {
    forget(purged) {
      const { removed, profile } = deps.store.forgetMemories(purged, deps.clock.now());
      if (profile === undefined) return { lines: 0 };
      return { lines: removed, afterCommit: () => deps.events.emit('profile.updated', { profile: toProfile(profile) }) };
    },
  };
}
