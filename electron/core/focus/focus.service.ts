/**
 * A thread's working memory for its users: the panel (read, the user's edits, clear), the "Active work" list across
 * threads, the update queued after each exchange, and the part of the prompt. Rules are focus-rules.ts's, rows are
 * focus.store.ts's; events leave after their transaction commits.
 */
import type { ActiveWork, FocusEdit, Settings, WorkingMemory } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { DailyTask } from '../runtime/daily-scheduler';
import type { EventBus } from '../runtime/event-bus';
import { secretRefusal } from '../safety/secret-detector';
import type { JobQueue } from '../jobs/job-queue';
import type { Clock } from '../ports/clock.port';
import { applyUserEdit, liveState, type FocusState } from './focus-rules';
import { enqueueFocusUpdate } from './focus.job';
import type { FocusStore } from './focus.store';

export function createFocusService(deps: { store: FocusStore; queue: JobQueue; clock: Clock; events: EventBus; settings: () => Settings; assertThread: (threadId: number) => void }) {
  const { store, clock, events } = deps;

  function write(threadId: number, change: (now: number) => void): WorkingMemory {
    deps.assertThread(threadId);
    const workingMemory = store.transaction(() => {
      const now = clock.now();
      change(now);
      return store.get(threadId, now);
    });
    events.emit('focus.updated', { workingMemory });
    return workingMemory;
  }

  return {
    get(threadId: number): WorkingMemory {
      deps.assertThread(threadId);
      return store.get(threadId, clock.now());
    },
    update(threadId: number, edit: FocusEdit): WorkingMemory {
      const text = edit.kind === 'removeTask' ? undefined : edit.text;
      const secret = text ? secretRefusal(text) : null;
      if (secret) throw new MnemoError('INVALID_INPUT', `Not saved: ${secret}.`);
      return write(threadId, (now) => {
        // The edit applies to what the user sees: on another version, their own items only, read afresh from here on.
        const shown = store.readForPath(threadId, now);
        store.save(threadId, applyUserEdit(shown.state, edit, now), now, shown.throughMessageId);
      });
    },
    clear(threadId: number): WorkingMemory {
      return write(threadId, (now) => store.clear(threadId, now));
    },
    listActive(): ActiveWork[] {
      return store.listActive(clock.now());
    },
    /**
     * The housekeeping task (daily-scheduler.ts): an update's commit removes expired rows, but a thread with no new
     * exchange gets no update, so its expired focus and tasks would stay on disk for good. Due whenever something has
     * expired (reads already leave it out; this removes the rows): the check is one indexed query, the scheduler's
     * checks are hourly. No event: what the panel shows does not change.
     */
    cleanup: {
      name: 'working memory',
      lastRunAt: () => (store.hasExpired(clock.now()) ? null : clock.now()),
      run: () => store.transaction(() => store.dropExpired(clock.now())),
    } satisfies DailyTask,
    /** Inside the reply's transaction (chat.service.ts): queues the update, one job per exchange (focus.job.ts). */
    afterExchange(threadId: number, replyId: number): void {
      if (!deps.settings().workingMemoryEnabled) return;
      enqueueFocusUpdate((input) => deps.queue.enqueue(input), threadId, store.read(threadId).throughMessageId, replyId);
    },
    /**
     * The live state for a prompt whose conversation ends at `pathEndId` (the new question's parent), while working
     * memory is on, else null: what was derived from another version of the conversation is left out (focus.store.ts).
     */
    forPrompt(threadId: number, pathEndId: number | null): FocusState | null {
      if (!deps.settings().workingMemoryEnabled) return null;
      const now = clock.now();
      return liveState(store.readForPath(threadId, now, pathEndId).state, now);
    },
  };
}

export type FocusService = ReturnType<typeof createFocusService>;
