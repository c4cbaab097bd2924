/**
 * Background work that failed for good, on the timeline (renderer/src/timeline/timeline-format.ts failedJob): every
 * failure kind the core writes has its own sentence and the reason in both languages, never "a memory since deleted
 * forever", and names the job Try again puts back in the queue (the button itself: test/e2e/profile.e2e.ts).
 */
import { describe, expect, it } from 'vitest';
import { FAILED_JOB_KIND, type TimelineEvent } from '../../shared/contract';
import { translate } from '../../renderer/src/i18n/i18n';
import { failedJob } from '../../renderer/src/timeline/timeline-format';

function event(kind: string, data: Record<string, unknown>, memoryId: number | null = null): TimelineEvent {
  return { id: 7, kind, memoryId, threadId: null, messageId: null, category: null, data, createdAt: 1 };
}

describe('a failed job on the timeline', () => {
  it.each(Object.values(FAILED_JOB_KIND))('%s says what failed and why, in English and Chinese, and names its job', (kind) => {
    const failed = failedJob(event(kind, { jobId: 12, code: 'LLM_BAD_OUTPUT' }))!;
    expect(failed.jobId).toBe(12);
    expect(failed.why).toBe('errorCode.LLM_BAD_OUTPUT');
    for (const language of ['en', 'zh-CN'] as const) {
      const what = translate(language, failed.what);
      expect(what).not.toBe(failed.what);
      expect(what).not.toBe(translate(language, 'timeline.memoryPurgedNoId'));
    }
    // Each kind its own sentence.
    const others = Object.values(FAILED_JOB_KIND).filter((k) => k !== kind);
    expect(others.map((k) => translate('en', failedJob(event(k, { jobId: 1, code: 'X' }))!.what))).not.toContain(translate('en', failed.what));
  });

  it('a code this renderer does not know reads as the general sentence; a malformed event has no job to retry', () => {
    expect(failedJob(event('profile_failed', { jobId: 3, code: 'SOMETHING_NEW' }))).toEqual({ what: 'timeline.failed.profile_failed', why: 'error.generic', jobId: 3 });
    expect(failedJob(event('profile_failed', {}))?.jobId).toBeNull();
  });

  it('no other event is a failure (a memory event whose memory was purged stays one)', () => {
    expect(failedJob(event('learned', { version: 1 }))).toBeNull();
    expect(failedJob(event('purged', { memoryId: 4 }))).toBeNull();
    expect(failedJob(event('something_newer', {}))).toBeNull();
  });
});
