import type Database from 'better-sqlite3';
import { expect } from 'vitest';

/**
 * After a drain: every job that was due is done, and only profile rewrites wait (for the end of their debounce
 * window, profile.service.ts) or episodes (for their thread to go quiet, episode.service.ts). Returns the due jobs by
 * kind and status.
 */
export function expectDueJobsDone(db: Database.Database): Array<{ kind: string; status: string; n: number }> {
  const now = Date.now();
  const jobs = db.prepare('SELECT kind, status, count(*) AS n FROM jobs WHERE run_after <= ? GROUP BY kind, status').all(now) as Array<{ kind: string; status: string; n: number }>;
  expect(jobs.filter((j) => j.status !== 'done'), JSON.stringify(jobs)).toEqual([]);
  const later = db.prepare('SELECT kind FROM jobs WHERE run_after > ?').all(now) as Array<{ kind: string }>;
  expect(later.every((j) => j.kind === 'profile' || j.kind === 'episode'), JSON.stringify(later)).toBe(true);
  return jobs;
}
