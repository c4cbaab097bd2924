/**
 * The status bar's word on background work. While something holds learning back (the chat, the user's schedule, the
 * battery: QueueState.learning.waitingFor, electron/core/llm/model-lane.ts), the line says why instead of naming a job:
 * a claimed job waits inside the model lane, so "learning from a reply" would be untrue while it waits.
 * A hold is only news when there is background work for it to hold, except 'paused': the user's own switch, said
 * until it is switched back, since nothing new is learned meanwhile.
 */
import type { MessageKey, Params } from '../i18n/i18n';
import type { QueueState } from './status.store';

export interface LinePart {
  key: MessageKey;
  params?: Params;
}

/** From this many exchanges not yet learned from, the line says how far behind learning is. */
export const BEHIND_SHOWN_FROM = 2;

export type LearningHold = NonNullable<QueueState['learning']['waitingFor']>;

/** What holds learning back as far as the user is concerned, or null (nothing held, or nothing to hold). */
export function shownHold(queue: QueueState): LearningHold | null {
  const hold = queue.learning.waitingFor;
  if (hold === null || hold === 'paused') return hold;
  return queue.queued > 0 || queue.running !== null ? hold : null;
}

/**
 * The parts of the line, read in order and joined with " · ": the hold or the running job, how far behind learning
 * is, what is queued, what failed. `head` is the word before a colon ("Background:"), absent when a hold leads.
 */
export function queueLine(queue: QueueState): { head: LinePart | null; parts: LinePart[] } {
  if (queue.paused) return { head: null, parts: [{ key: 'status.queuePaused', params: { count: queue.queued } }] };
  const behind = queue.learning.behind >= BEHIND_SHOWN_FROM ? { key: 'status.learning.behind' as const, params: { count: queue.learning.behind } } : null;
  const dead = queue.dead > 0 ? { key: 'status.dead' as const, params: { count: queue.dead } } : null;
  const hold = shownHold(queue);
  if (hold) return { head: null, parts: [{ key: `status.learning.${hold}` as const }, behind, dead].filter((p) => p !== null) };
  const parts = [
    queue.running ? { key: `status.job.${queue.running.kind}` as const } : null,
    behind,
    queue.queued > 0 ? { key: 'status.queued' as const, params: { count: queue.queued } } : null,
    dead,
  ].filter((p) => p !== null);
  if (parts.length === 0) return { head: null, parts: [{ key: 'status.queueIdle' }] };
  return { head: { key: 'status.queue' }, parts };
}
