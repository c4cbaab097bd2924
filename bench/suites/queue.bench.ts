/**
 * Queue overhead per job (claim + commit + "done" + events) at 10,000 jobs with an instant handler, beside the bare
 * minimum a durable queue must do per job on the same database settings (one claim UPDATE and one done UPDATE, each
 * its own synchronous=FULL transaction).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, sourceMigrationsDir } from '../../electron/core/db/open-database';
import { JobQueue } from '../../electron/core/jobs/job-queue';
import { createJobsStore } from '../../electron/core/jobs/jobs.store';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { fmt, type SuiteResult } from '../harness';

export async function queueBench(jobs: number): Promise<SuiteResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-queue-'));
  try {
    // Mnemo's queue.
    const db = openDatabase(path.join(dir, 'mnemo.db'), { migrationsDir: sourceMigrationsDir() });
    let events = 0;
    const queue = new JobQueue({ store: createJobsStore(db.sqlite), clock: { now: () => Date.now() }, logger: silentLogger, onChange: () => void events++ });
    const write = db.sqlite.prepare("INSERT INTO settings (key, value, updated_at) VALUES (?, '1', 0)");
    queue.register({ kind: 'reembed', run: async ({ job }) => () => void write.run(`job-${job.id}`) });
    const insert = db.sqlite.transaction(() => {
      for (let i = 0; i < jobs; i++) queue.enqueue({ kind: 'reembed', payload: { reason: 'bench' }, idempotencyKey: `j${i}` });
    });
    insert();
    const t0 = performance.now();
    queue.start();
    await queue.waitForIdle();
    const mnemoMs = performance.now() - t0;
    await queue.stop();
    const done = (db.sqlite.prepare("SELECT count(*) AS n FROM jobs WHERE status = 'done'").get() as { n: number }).n;
    db.close();
    if (done !== jobs) throw new Error(`queue bench: ${done} of ${jobs} jobs done`);

    // Baseline: the bare durable minimum on the same pragmas.
    const base = openDatabase(path.join(dir, 'base.db'), { migrationsDir: sourceMigrationsDir() });
    const s = base.sqlite;
    const add = s.prepare("INSERT INTO jobs (kind, idempotency_key, payload, status, run_after, created_at, updated_at) VALUES ('reembed', ?, '{}', 'queued', 0, 0, 0)");
    s.transaction(() => {
      for (let i = 0; i < jobs; i++) add.run(`j${i}`);
    })();
    const claim = s.prepare("UPDATE jobs SET status = 'running' WHERE id = (SELECT id FROM jobs WHERE status = 'queued' ORDER BY id LIMIT 1) RETURNING id");
    const finish = s.prepare("UPDATE jobs SET status = 'done' WHERE id = ?");
    const bwrite = s.prepare("INSERT INTO settings (key, value, updated_at) VALUES (?, '1', 0)");
    const t1 = performance.now();
    for (;;) {
      const row = claim.get() as { id: number } | undefined;
      if (!row) break;
      s.transaction(() => {
        bwrite.run(`job-${row.id}`);
        finish.run(row.id);
      })();
    }
    const baseMs = performance.now() - t1;
    base.close();

    return {
      suite: `Queue overhead per job (${jobs.toLocaleString('en')} jobs, instant handler)`,
      rows: [
        { variant: 'Mnemo JobQueue (lease, fencing, events)', 'total ms': fmt(mnemoMs), 'per job ms': fmt(mnemoMs / jobs), 'jobs/s': Math.round((jobs / mnemoMs) * 1000) },
        { variant: 'baseline: bare claim + done', 'total ms': fmt(baseMs), 'per job ms': fmt(baseMs / jobs), 'jobs/s': Math.round((jobs / baseMs) * 1000) },
      ],
      notes: [`ratio Mnemo / baseline: ${(mnemoMs / baseMs).toFixed(2)}x`, `queue.changed events emitted: ${events}`],
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
