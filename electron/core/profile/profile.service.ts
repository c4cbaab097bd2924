/**
 * When the profile is rewritten: a little after the memories change (changes within the same few minutes make one
 * rewrite), at least daily, and when the user asks. Each is a `profile` job on the durable queue, so a refresh that
 * was due when the app closed still happens; the job itself skips an unchanged set of memories (profile.job.ts).
 */
import type { Profile, Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { dayOf, isoDate } from '../../../shared/calendar-day';
import { userTimeZone } from '../../../shared/time-zone';
import type { EventBus } from '../event-bus';
import type { JobQueue } from '../jobs/job-queue';
import type { Clock } from '../ports/clock.port';
import { toProfile, type ProfileStore } from './profile.store';

/** Memory changes within one such window make one rewrite, at its end. */
export const PROFILE_DEBOUNCE_MS = 5 * 60_000;

const MEMORY_CHANGES = new Set(['memory.created', 'memory.updated', 'memory.deleted', 'memory.restored', 'memory.purged', 'memory.imported', 'memory.maintained']);

export function createProfileService(deps: { store: ProfileStore; queue: JobQueue; clock: Clock; events: EventBus; settings: () => Settings }) {
  const { store, queue, clock, events } = deps;
  let scheduledWindow = -1;

  function afterMemoryChange(): void {
    if (!deps.settings().profileEnabled) return;
    const now = clock.now();
    const window = Math.floor(now / PROFILE_DEBOUNCE_MS);
    if (window === scheduledWindow) return; // one enqueue per window, not one per memory of an import
    scheduledWindow = window;
    queue.enqueue({ kind: 'profile', payload: { reason: 'memories' }, idempotencyKey: `profile:memories:${window}`, runAfter: (window + 1) * PROFILE_DEBOUNCE_MS });
  }
  const unsubscribe = events.subscribe((message) => {
    if (MEMORY_CHANGES.has(message.event)) afterMemoryChange();
  });

  return {
    get: (): Profile | null => toProfile(store.get()),
    update(content: string): Profile | null {
      const profile = toProfile(store.setByUser(content, clock.now()));
      events.emit('profile.updated', { profile });
      return profile;
    },
    refreshNow(): { jobId: number } {
      if (!deps.settings().profileEnabled) {
        throw new MnemoError('INVALID_INPUT', 'The profile is turned off. Turn it on (Memories › About you, or the setting profileEnabled) to refresh it.');
      }
      const now = clock.now();
      return { jobId: queue.enqueue({ kind: 'profile', payload: { reason: 'user' }, idempotencyKey: `profile:user:${now}` }) };
    },
    /**
     * When the model last rewrote the profile, for the daily scheduler. A day whose refresh found nothing changed
     * leaves it as it was, so the scheduler asks again at its next check; the day's job key makes that a no-op.
     */
    lastDailyAt: (): number | null => store.get()?.refreshedAt ?? null,
    /** The daily refresh (daily-scheduler.ts): one job per calendar day. */
    refreshDaily(): void {
      const settings = deps.settings();
      if (!settings.profileEnabled) return;
      const day = isoDate(dayOf(clock.now(), userTimeZone(settings.timeZone)));
      queue.enqueue({ kind: 'profile', payload: { reason: 'daily' }, idempotencyKey: `profile:daily:${day}` });
    },
    /** The profile for a prompt: its text while it is on, else null. */
    forPrompt(): string | null {
      if (!deps.settings().profileEnabled) return null;
      return store.get()?.content ?? null;
    },
    dispose: unsubscribe,
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
