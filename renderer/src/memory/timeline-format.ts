/**
 * The timeline's vocabulary: the events table's kinds, grouped into what the user filters by, and the stream cut into
 * local days. Kinds not listed here (written by a newer core) still show, under a generic label.
 */
import type { TimelineEvent } from '../../../shared/contract';
import type { MessageKey } from '../i18n';

export const KNOWN_KINDS = [
  'learned',
  'proposed',
  'approved',
  'rejected',
  'confirmed',
  'updated',
  'reverted',
  'merged',
  'superseded',
  'decayed',
  'expired',
  'archived',
  'unarchived',
  'deleted',
  'restored',
  'purged',
  'imported',
  'import_completed',
  'thread_summarized',
  'extraction_failed',
  'maintained',
] as const;
export type KnownKind = (typeof KNOWN_KINDS)[number];

export function kindLabelKey(kind: string): MessageKey {
  return (KNOWN_KINDS as readonly string[]).includes(kind) ? (`timeline.kind.${kind as KnownKind}` as MessageKey) : 'timeline.kind.other';
}

/** The kind filter: each choice is one or more kinds. */
export const KIND_FILTERS = {
  all: [],
  learned: ['learned', 'imported', 'approved'],
  updated: ['updated', 'reverted', 'confirmed', 'decayed'],
  merged: ['merged'],
  superseded: ['superseded'],
  expired: ['expired'],
  deleted: ['deleted', 'archived'],
  restored: ['restored', 'unarchived'],
  purged: ['purged'],
  review: ['proposed', 'approved', 'rejected'],
  thread_summarized: ['thread_summarized'],
  failed: ['extraction_failed'],
} as const satisfies Record<string, readonly KnownKind[]>;
export type KindFilter = keyof typeof KIND_FILTERS;

/** Kinds about a memory whose current text is worth showing next to the event. */
export function showsMemory(event: TimelineEvent): boolean {
  return event.memoryId !== null && event.kind !== 'purged';
}

export interface DayGroup {
  /** Local midnight. */
  day: number;
  events: TimelineEvent[];
}

/** Events (newest first) cut into local days, newest day first; order within a day is kept. */
export function groupByDay(events: readonly TimelineEvent[]): DayGroup[] {
  const groups: DayGroup[] = [];
  for (const event of events) {
    const d = new Date(event.createdAt);
    const day = new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.events.push(event);
    else groups.push({ day, events: [event] });
  }
  return groups;
}
