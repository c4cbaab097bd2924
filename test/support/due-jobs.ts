import type Database from 'better-sqlite3';
import { expect } from 'vitest';

/**
 * After a drain that started at `drainStartedAt`: every job due by then is done, and whatever is not done is a queued
 * profile rewrite (waiting for the end of its debounce window, profile.service.ts) or episode (waiting for its thread
 * to go quiet, episode.service.ts) that was not due when the drain started. The cut-off is the drain's start, not the
 * check's "now": a debounce window can end between the two (seen at a five-minute boundary). Returns every job by kind
 * and status.
 */
export function expectDueJobsDone(db: Database.Database, drainStartedAt: number): Array<{ kind: string; status: string; n: number }> {
  const jobs = db.prepare('SELECT kind, status, count(*) AS n FROM jobs GROUP BY kind, status').all() as Array<{ kind: string; status: string; n: number }>;
  const waiting = db.prepare("SELECT kind, status, run_after AS runAfter FROM jobs WHERE status != 'done'").all() as Array<{ kind: string; status: string; runAfter: number }>;
  const allowed = (j: (typeof waiting)[number]) => j.status === 'queued' && (j.kind === 'profile' || j.kind === 'episode') && j.runAfter > drainStartedAt;
  expect(waiting.filter((j) => !allowed(j)), JSON.stringify(jobs)).toEqual([]);
  return jobs;
}
