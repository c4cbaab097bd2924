/**
 * When the profile is rewritten: a little after the memories change (changes within the same few minutes make one
 * rewrite), at least daily, and when the user asks. Each is a `profile` job on the durable queue, so a refresh that
 * was due when the app closed still happens; the job itself skips an unchanged set of memories (profile.job.ts).
 */
import type { Profile, ProfileFit, Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { dayOf, isoDate } from '../../../shared/calendar-day';
import { userTimeZone } from '../../../shared/time-zone';
import type { EventBus } from '../runtime/event-bus';
import type { JobQueue } from '../jobs/job-queue';
import type { Clock } from '../ports/clock.port';
import { computeBudget } from '../llm/context-budget';
import { fitProfileForPrompt, profileTokenBudget } from '../memory/memory-prompt';
import { estimateTokens } from '../text/token-estimate';
import { toProfile, type ProfileStore } from './profile.store';

/** Memory changes within one such window make one rewrite, at its end. */
export const PROFILE_DEBOUNCE_MS = 5 * 60_000;

const MEMORY_CHANGES = new Set(['memory.created', 'memory.updated', 'memory.deleted', 'memory.restored', 'memory.purged', 'memory.imported', 'memory.maintained']);

/** contextWindow: the num_ctx a request to a model carries (LlmProvider.contextWindow), for how much of the profile fits. */
export function createProfileService(deps: { store: ProfileStore; queue: JobQueue; clock: Clock; events: EventBus; settings: () => Settings; contextWindow?: (model: string) => Promise<number> }) {
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

  function requireEnabled(): void {
    if (!deps.settings().profileEnabled) {
      throw new MnemoError('INVALID_INPUT', 'The profile is turned off. Turn it on (Memories › About you, or the setting profileEnabled) to refresh it.');
    }
  }

  /** How much of the profile a prompt holds with the chat model in Settings: the prompt's own rule (memory-prompt.ts). */
  async function fitOf(content: string): Promise<ProfileFit> {
    const settings = deps.settings();
    const model = settings.chatModel;
    // The server away, or not confirmed yet: the window the setting asks for, as a request would carry it.
    const contextWindow = deps.contextWindow ? await deps.contextWindow(model).catch(() => settings.contextWindowTokens) : settings.contextWindowTokens;
    const { text: _prompt, ...fit } = fitProfileForPrompt(content, profileTokenBudget(computeBudget(contextWindow, settings.budget)), estimateTokens);
    return { model, contextWindow, ...fit };
  }

  return {
    get: (): Profile | null => toProfile(store.get()),
    /** The profile with how much of it fits in a prompt (profile.get). */
    async getWithFit(): Promise<(Profile & { fits: ProfileFit }) | null> {
      const profile = toProfile(store.get());
      return profile && { ...profile, fits: await fitOf(profile.content) };
    },
    update(content: string): Profile | null {
      const profile = toProfile(store.setByUser(content, clock.now()));
      events.emit('profile.updated', { profile });
      return profile;
    },
    refreshNow(): { jobId: number } {
      requireEnabled();
      const now = clock.now();
      return { jobId: queue.enqueue({ kind: 'profile', payload: { reason: 'user' }, idempotencyKey: `profile:user:${now}` }) };
    },
    /**
     * A rewrite asked to fit what a prompt holds (one model call, like Refresh now): for a profile longer than that.
     * Refused while the profile is off, or when it already fits.
     */
    async shortenNow(): Promise<{ jobId: number }> {
      requireEnabled();
      const profile = store.get();
      const fit = profile ? await fitOf(profile.content) : null;
      if (!fit || fit.cutAt === null) throw new MnemoError('INVALID_INPUT', 'The whole profile already fits in a prompt; there is nothing to shorten.');
      const now = clock.now();
      return { jobId: queue.enqueue({ kind: 'profile', payload: { reason: 'user', fitTokens: fit.roomTokens }, idempotencyKey: `profile:shorten:${now}` }) };
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
