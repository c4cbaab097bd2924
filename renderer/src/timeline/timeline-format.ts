/**
 * The timeline's vocabulary as the user sees it: the contract's event kinds (TimelineEventKind), grouped into what the
 * user filters by, and the stream cut into local days. Kinds this renderer does not know (written by a newer core)
 * still show, under a generic label.
 */
import { dayOf, endOfDay, startOfDay } from '../../../shared/calendar-day';
import type { TimelineEvent } from '../../../shared/contract';
// The plain list, not the contract's zod enum: the renderer needs the names, not a validator.
import { FAILED_JOB_KIND, TIMELINE_EVENT_KINDS } from '../../../shared/contract/timeline-kinds';
import { dictionaries, isErrorCodeKey, type MessageKey } from '../i18n/i18n';

export const KNOWN_KINDS = TIMELINE_EVENT_KINDS;
export type KnownKind = (typeof KNOWN_KINDS)[number];

export function kindLabelKey(kind: string): MessageKey {
  return (KNOWN_KINDS as readonly string[]).includes(kind) ? (`timeline.kind.${kind as KnownKind}` as MessageKey) : 'timeline.kind.other';
}

/** Who changes memories, as the core records it in an event's data.origin. */
const ORIGINS = ['user', 'extraction', 'maintenance', 'import'] as const;

/**
 * Who did what, as a phrase that stands on its own: the sentence for this kind by this origin when the catalogs have
 * one ("changed by you", "你修改了这条记忆": Chinese says who first, so the kind and the origin cannot be glued from
 * two fragments), else the origin alone ("from a conversation"). null when the event names no origin this renderer
 * knows (a purge, a newer core's origin).
 */
export function attributionKey(kind: string, origin: unknown, data: Record<string, unknown> = {}): MessageKey | null {
  if (typeof origin !== 'string' || !(ORIGINS as readonly string[]).includes(origin)) return null;
  // Trashed because the user asked to forget it in a chat (electron/core/memory/memory-forget.ts).
  if (kind === 'deleted' && origin === 'user' && 'forgotten' in data) return 'timeline.by.user.forgotten';
  const sentence = `timeline.by.${origin}.${kind}`;
  return (Object.prototype.hasOwnProperty.call(dictionaries.en, sentence) ? sentence : `timeline.origin.${origin}`) as MessageKey;
}

/** The kind filter: each choice is one or more kinds. */
export const KIND_FILTERS = {
  all: [],
  learned: ['learned', 'imported', 'approved'],
  updated: ['updated', 'reverted', 'confirmed', 'decayed'],
  merged: ['merged', 'consolidated'],
  superseded: ['superseded'],
  expired: ['expired'],
  deleted: ['deleted', 'archived'],
  restored: ['restored', 'unarchived'],
  purged: ['purged'],
  review: ['proposed', 'approved', 'rejected'],
  thread_summarized: ['thread_summarized'],
  episodes: ['episode_written', 'episode_edited', 'episode_deleted'],
  apps: ['mcp_read'],
  failed: Object.values(FAILED_JOB_KIND),
} as const satisfies Record<string, readonly KnownKind[]>;
export type KindFilter = keyof typeof KIND_FILTERS;

const FAILED_KINDS: readonly string[] = Object.values(FAILED_JOB_KIND);
type FailedKind = (typeof FAILED_JOB_KIND)[keyof typeof FAILED_JOB_KIND];

/**
 * A background job that failed for good (jobs/dead-job-report.ts): what could not be done, why (the catalog's
 * sentence for the error class the event keeps; a code this renderer does not know reads as the general sentence),
 * and the job to put back in the queue (queue.retry). null for any other event. Such an event is about no memory, so
 * it never reads as "a memory since deleted forever".
 */
export function failedJob(event: TimelineEvent): { what: MessageKey; why: MessageKey; jobId: number | null } | null {
  if (!FAILED_KINDS.includes(event.kind)) return null;
  const code = event.data.code;
  const jobId = event.data.jobId;
  return {
    what: `timeline.failed.${event.kind as FailedKind}`,
    why: typeof code === 'string' && isErrorCodeKey(code) ? `errorCode.${code}` : 'error.generic',
    jobId: typeof jobId === 'number' ? jobId : null,
  };
}

/** Kinds about a memory whose current text is worth showing next to the event. */
export function showsMemory(event: TimelineEvent): boolean {
  return event.memoryId !== null && event.kind !== 'purged';
}

export interface DayGroup {
  /** The day's first instant in the user's zone (its local midnight, unless clocks jumped over it). */
  day: number;
  events: TimelineEvent[];
}

/**
 * Events (newest first) cut into the user's days (timeZone: selectTimeZone), newest day first; order within a day
 * is kept. The zone is asked once per day, not per event: an event joins the last group while it lies in that day.
 */
export function groupByDay(events: readonly TimelineEvent[], timeZone: string): DayGroup[] {
  const groups: DayGroup[] = [];
  let end = -Infinity;
  for (const event of events) {
    const last = groups[groups.length - 1];
    if (last && event.createdAt >= last.day && event.createdAt <= end) {
      last.events.push(event);
      continue;
    }
    const day = dayOf(event.createdAt, timeZone);
    end = endOfDay(day, timeZone);
    groups.push({ day: startOfDay(day, timeZone), events: [event] });
  }
  return groups;
}
