/**
 * The timeline's vocabulary as plain data: every kind of event the core writes. timeline.contract.ts builds its zod
 * enum and each kind's data shape from this list; the renderer imports it from here, so its labels and filters follow
 * the list without bundling zod and the whole contract for it.
 */
import type { z } from 'zod';
import type { JobKind } from './queue.contract';

export const TIMELINE_EVENT_KINDS = [
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
  'summary_failed',
  'title_failed',
  'reembed_failed',
  'profile_failed',
  'focus_failed',
  'maintained',
  'consolidated',
  'consolidation_failed',
  'episode_written',
  'episode_edited',
  'episode_deleted',
  'episode_failed',
  'mcp_read',
] as const;

/** The failure event of each kind of background job. */
export const FAILED_JOB_KIND = {
  extract: 'extraction_failed',
  summarize: 'summary_failed',
  title: 'title_failed',
  reembed: 'reembed_failed',
  profile: 'profile_failed',
  consolidate: 'consolidation_failed',
  episode: 'episode_failed',
  focus: 'focus_failed',
} as const satisfies Record<z.output<typeof JobKind>, (typeof TIMELINE_EVENT_KINDS)[number]>;
