/**
 * When the queue looks again for work it was holding back: jobs that wait for the model are claimed only when the
 * model lane lets them (llm/model-lane.ts), so the queue is woken whenever the lane's hold may have changed, and when
 * the settings that pause learning change (a schedule switched back from paused, the mains-power rule switched off):
 * jobs that wait for the model may be claimed again now, not at the next poll.
 */
import type { EventBus } from '../runtime/event-bus';
import type { JobQueue } from './job-queue';

/** The settings whose change may let held jobs run. */
export const LEARNING_HOLD_SETTINGS = ['learningSchedule', 'learningNeedsPower'] as const;

export function wakeQueueWhenHoldsChange(deps: {
  queue: Pick<JobQueue, 'notifyChange'>;
  lane: { onChange(listener: () => void): unknown };
  events: EventBus;
}): void {
  const { queue, lane, events } = deps;
  lane.onChange(() => queue.notifyChange());
  events.subscribe((m) => {
    if (m.event === 'settings.changed' && m.payload.keys.some((k) => (LEARNING_HOLD_SETTINGS as readonly string[]).includes(k))) queue.notifyChange();
  });
}
