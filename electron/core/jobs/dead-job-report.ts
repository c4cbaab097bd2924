/**
 * A job that failed for good (dead-lettered after its last attempt) is recorded on the timeline and announced
 * (job.failed, final), so the user sees learning that never happened. The timeline keeps ids and the error class
 * only, never text: a purge must leave no trace there (timeline-writer.ts).
 */
import { FAILED_JOB_KIND } from '../../../shared/contract';
import type { EventBus } from '../runtime/event-bus';
import type { TimelineWriter } from '../db/timeline-writer';
import type { JobRow } from './job-queue';

/** The queue's onDead: called after the job's dead status is committed. */
export function reportDeadJob(deps: { timeline: TimelineWriter; events: EventBus }): (job: JobRow, code: string) => void {
  return (job, code) => {
    deps.timeline.record(FAILED_JOB_KIND[job.kind], { threadId: job.threadId, messageId: job.messageId }, { jobId: job.id, code });
    deps.events.emit('job.failed', { jobId: job.id, kind: job.kind, code, final: true });
  };
}
