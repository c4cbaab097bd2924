/**
 * The `jobs` table: typed rows in and out, every statement prepared once. The queue's rules (claims, leases, fencing,
 * backoff, pauses) are job-queue.ts's; this file only says how each of its reads and writes is spelled in SQL.
 *
 * Statements whose shape depends on a list (the kinds that may be claimed now, the statuses listed) are prepared once
 * per shape and kept (`shaped`): the shapes are few (subsets of the registered kinds and of five statuses), and the
 * claim, the queue's hot path, never prepares again after its first run.
 *
 * Transactions: `write` (BEGIN IMMEDIATE, db/write-transaction.ts) and `withEffects` (events after the commit,
 * db/after-commit.ts) run the queue's multi-statement steps; a handler's commit runs inside `withEffects` with the
 * job's completion, so both land in one transaction.
 */
import type Database from 'better-sqlite3';
import type { ErrorCode } from '../../../shared/errors';
import { transactionWithEffects, type AfterCommit } from '../db/after-commit';
import type { Sqlite } from '../db/open-database';
import { writeTransaction } from '../db/write-transaction';
import type { JobKind } from './job-payloads';

export type JobStatus = 'queued' | 'running' | 'done' | 'dead' | 'cancelled';

/** A job as stored. Its payload is whatever the row holds (undefined: not JSON), checked when the job runs. */
export interface JobRow {
  id: number;
  kind: JobKind;
  idempotencyKey: string;
  threadId: number | null;
  messageId: number | null;
  payload: unknown;
  status: JobStatus;
  attempts: number;
  maxAttempts: number;
  runAfter: number;
  fencingToken: number;
  lastErrorCode: string | null;
  createdAt: number;
}

/** A running job's lease, as lease-owner.ts judges it. */
export interface RunningLease {
  id: number;
  kind: JobKind;
  fencing_token: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
}

/**
 * A patient kind's rule now: its jobs wait until `threshold` of one thread wait; with `onlyThread`, only that thread's;
 * with `spareFirst`, a thread's first job of the kind never waits.
 */
export interface Patience {
  threshold: number;
  onlyThread?: number;
  spareFirst?: boolean;
}

export interface NewJob {
  kind: JobKind;
  idempotencyKey: string;
  threadId: number | null;
  messageId: number | null;
  payload: unknown;
  maxAttempts: number;
  runAfter: number;
}

interface RawJob {
  id: number;
  kind: JobKind;
  idempotency_key: string;
  thread_id: number | null;
  message_id: number | null;
  payload: string;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  run_after: number;
  fencing_token: number;
  last_error_code: string | null;
  created_at: number;
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // readPayload says so when the job runs
  }
}

function toJob(r: RawJob): JobRow {
  const payload = parsePayload(r.payload);
  return {
    id: r.id,
    kind: r.kind,
    idempotencyKey: r.idempotency_key,
    threadId: r.thread_id,
    messageId: r.message_id,
    payload,
    status: r.status,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    runAfter: r.run_after,
    fencingToken: r.fencing_token,
    lastErrorCode: r.last_error_code,
    createdAt: r.created_at,
  };
}

const marks = (n: number) => Array.from({ length: n }, () => '?').join(',');

export function createJobsStore(sqlite: Sqlite) {
  const q = {
    insert: sqlite.prepare(
      `INSERT INTO jobs (kind, idempotency_key, thread_id, message_id, payload, status, attempts, max_attempts, run_after, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, 'queued', 0, ?, ?, ?, ?) ON CONFLICT(idempotency_key) DO NOTHING`,
    ),
    idByKey: sqlite.prepare('SELECT id FROM jobs WHERE idempotency_key = ?'),
    reschedule: sqlite.prepare(
      `UPDATE jobs SET run_after = ?, payload = ?, updated_at = ?,
         attempts = CASE WHEN status = 'queued' THEN attempts ELSE 0 END,
         status = 'queued', finished_at = NULL, last_error_code = NULL, last_error_message = NULL
       WHERE id = ? AND status != 'running'`,
    ),
    statusOf: sqlite.prepare('SELECT status FROM jobs WHERE id = ?'),
    // Two index counts (status is the leading column of jobs_ready_idx), not a scan of every job ever run.
    counts: sqlite.prepare(
      `SELECT (SELECT count(*) FROM jobs WHERE status = 'queued' AND (run_after <= ? OR attempts > 0)) AS queued,
         (SELECT count(*) FROM jobs WHERE status = 'dead') AS dead,
         (SELECT count(*) FROM jobs WHERE status IN ('queued', 'running') AND kind = 'extract' AND thread_id IS NOT coalesce(?, -1)) AS behind`,
    ),
    byId: sqlite.prepare('SELECT * FROM jobs WHERE id = ?'),
    exists: sqlite.prepare('SELECT 1 FROM jobs WHERE id = ?'),
    retry: sqlite.prepare(
      `UPDATE jobs SET status = 'queued', attempts = 0, run_after = ?, last_error_code = NULL, last_error_message = NULL, updated_at = ?
       WHERE id = ? AND status IN ('dead', 'cancelled')`,
    ),
    cancel: sqlite.prepare(`UPDATE jobs SET status = 'cancelled', finished_at = ?, updated_at = ? WHERE id = ? AND status IN ('queued', 'running')`),
    runningLeases: sqlite.prepare(`SELECT id, kind, fencing_token, lease_owner, lease_expires_at FROM jobs WHERE status = 'running'`),
    requeueAbandoned: sqlite.prepare(
      `UPDATE jobs SET status = 'queued', lease_owner = NULL, lease_expires_at = NULL, updated_at = ? WHERE id = ? AND fencing_token = ? AND status = 'running'`,
    ),
    companions: sqlite.prepare(`SELECT id FROM jobs WHERE status = 'queued' AND run_after <= ? AND kind = ? AND thread_id = ? AND id != ? ORDER BY id LIMIT ?`),
    done: sqlite.prepare(
      `UPDATE jobs SET status = 'done', finished_at = ?, updated_at = ?, lease_owner = NULL, lease_expires_at = NULL, last_error_code = NULL, last_error_message = NULL WHERE id = ?`,
    ),
    giveBack: sqlite.prepare(
      `UPDATE jobs SET status = 'queued', attempts = max(0, attempts - 1), last_error_code = coalesce(?, last_error_code),
       last_error_message = coalesce(?, last_error_message), lease_owner = NULL, lease_expires_at = NULL, updated_at = ?
       WHERE id = ? AND fencing_token = ? AND status = 'running'`,
    ),
    fail: sqlite.prepare(
      `UPDATE jobs SET status = ?, run_after = ?, last_error_code = ?, last_error_message = ?, lease_owner = NULL, lease_expires_at = NULL,
       finished_at = ?, updated_at = ? WHERE id = ? AND fencing_token = ? AND status = 'running'`,
    ),
    holdsLease: sqlite.prepare(`SELECT 1 FROM jobs WHERE id = ? AND status = 'running' AND fencing_token = ?`),
    renewLease: sqlite.prepare(`UPDATE jobs SET lease_expires_at = ? WHERE id = ? AND fencing_token = ? AND status = 'running'`),
  };

  // Statements whose text depends on a list, prepared once per text (see the header).
  const byText = new Map<string, Database.Statement<unknown[]>>();
  function shaped(sql: string): Database.Statement<unknown[]> {
    let statement = byText.get(sql);
    if (!statement) byText.set(sql, (statement = sqlite.prepare<unknown[]>(sql)));
    return statement;
  }

  /**
   * The SQL that keeps a patient job unclaimed while fewer than its kind's threshold of its kind and thread wait (of
   * the one thread it names, if it names one), with its parameters; '' when no kind is patient now.
   */
  function patienceFilter(patient: ReadonlyMap<JobKind, Patience> | null, now: number): { sql: string; params: unknown[] } {
    if (!patient || patient.size === 0) return { sql: '', params: [] };
    const kinds = [...patient.keys()];
    const threshold = `CASE j.kind ${kinds.map(() => 'WHEN ? THEN ?').join(' ')} END`;
    // A kind patient for one thread only: its jobs of other threads compare that thread with their own and pass.
    const waitingThread = `CASE j.kind ${kinds.map(() => 'WHEN ? THEN ?').join(' ')} END`;
    const spareFirst = `CASE j.kind ${kinds.map(() => 'WHEN ? THEN ?').join(' ')} END`;
    return {
      sql:
        ` AND (j.kind NOT IN (${marks(kinds.length)}) OR j.thread_id IS NOT coalesce(${waitingThread}, j.thread_id)` +
        ` OR (SELECT count(*) FROM jobs k WHERE k.status = 'queued' AND k.run_after <= ? AND k.kind = j.kind AND k.thread_id IS j.thread_id) >= ${threshold}` +
        ` OR (${spareFirst} = 1 AND NOT EXISTS (SELECT 1 FROM jobs f WHERE f.kind = j.kind AND f.thread_id IS j.thread_id AND f.id < j.id)))`,
      params: [
        ...kinds,
        ...kinds.flatMap((k) => [k, patient.get(k)!.onlyThread ?? null]),
        now,
        ...kinds.flatMap((k) => [k, patient.get(k)!.threshold]),
        ...kinds.flatMap((k) => [k, patient.get(k)!.spareFirst ? 1 : 0]),
      ],
    };
  }

  return {
    /** One BEGIN IMMEDIATE transaction (db/write-transaction.ts). */
    write<T>(fn: () => T): T {
      return writeTransaction(sqlite, fn);
    },
    /** One transaction whose after-commit effects run once it commits (db/after-commit.ts). */
    withEffects<T>(body: (tx: AfterCommit) => T, onEffectError: (error: unknown) => void): T {
      return transactionWithEffects(sqlite, body, onEffectError);
    },
    /** Inserts the job unless one with its idempotency key exists; the id of the one stored either way. */
    insert(job: NewJob, now: number): number {
      q.insert.run(job.kind, job.idempotencyKey, job.threadId, job.messageId, JSON.stringify(job.payload), job.maxAttempts, job.runAfter, now, now);
      return (q.idByKey.get(job.idempotencyKey) as { id: number }).id;
    },
    /** Queued again at `runAfter` with this payload (fresh attempts unless it was queued); a running job is left alone. */
    reschedule(id: number, runAfter: number, payload: unknown, now: number): JobStatus {
      q.reschedule.run(runAfter, JSON.stringify(payload), now, id);
      return (q.statusOf.get(id) as { status: JobStatus }).status;
    },
    /**
     * `stretchThread`: the thread whose exchanges wait for their stretch while learning keeps up (job-queue.ts
     * patienceAtAnySpeed): they are learned with it, not behind.
     */
    counts(now: number, stretchThread: number | null = null): { queued: number; dead: number; behind: number } {
      const c = q.counts.get(now, stretchThread) as { queued: number | null; dead: number | null; behind: number | null };
      return { queued: c.queued ?? 0, dead: c.dead ?? 0, behind: c.behind ?? 0 };
    },
    list(statuses: readonly JobStatus[], limit: number): JobRow[] {
      return (shaped(`SELECT * FROM jobs WHERE status IN (${marks(statuses.length)}) ORDER BY id DESC LIMIT ?`).all(...statuses, limit) as RawJob[]).map(toJob);
    },
    get(id: number): JobRow | null {
      const row = q.byId.get(id) as RawJob | undefined;
      return row ? toJob(row) : null;
    },
    exists(id: number): boolean {
      return q.exists.get(id) !== undefined;
    },
    /** Whether a job with this idempotency key was ever queued (whatever became of it). */
    hasKey(idempotencyKey: string): boolean {
      return q.idByKey.get(idempotencyKey) !== undefined;
    },
    /** The payloads of the jobs of this kind in these statuses, each as toJob reads it (undefined: not JSON). */
    payloadsOf(kind: JobKind, statuses: readonly JobStatus[]): unknown[] {
      const rows = shaped(`SELECT payload FROM jobs WHERE kind = ? AND status IN (${marks(statuses.length)})`).all(kind, ...statuses) as Array<{ payload: string }>;
      return rows.map((r) => parsePayload(r.payload));
    },
    /** A dead or cancelled job queued again with fresh attempts; false when it was neither. */
    retry(id: number, now: number): boolean {
      return q.retry.run(now, now, id).changes > 0;
    },
    /** A queued or running job cancelled; false when it was neither. */
    cancel(id: number, now: number): boolean {
      return q.cancel.run(now, now, id).changes > 0;
    },
    runningLeases(): RunningLease[] {
      return q.runningLeases.all() as RunningLease[];
    },
    /** A running job whose owner is gone, queued again as it was (attempts, run_after); false when it moved meanwhile. */
    requeueAbandoned(lease: RunningLease, now: number): boolean {
      return q.requeueAbandoned.run(now, lease.id, lease.fencing_token).changes > 0;
    },
    /** Whether a due job of these kinds waits (patience aside). */
    anyDue(kinds: readonly JobKind[], now: number): boolean {
      return shaped(`SELECT 1 FROM jobs WHERE status = 'queued' AND run_after <= ? AND kind IN (${marks(kinds.length)}) LIMIT 1`).get(now, ...kinds) !== undefined;
    },
    /** The next due job of these kinds, oldest run_after first, leaving out patient kinds still below their threshold. */
    nextDue(kinds: readonly JobKind[], patient: ReadonlyMap<JobKind, Patience> | null, now: number): JobRow | null {
      const patience = patienceFilter(patient, now);
      const row = shaped(`SELECT * FROM jobs j WHERE j.status = 'queued' AND j.run_after <= ? AND j.kind IN (${marks(kinds.length)})${patience.sql} ORDER BY j.run_after, j.id LIMIT 1`).get(
        now,
        ...kinds,
        ...patience.params,
      ) as RawJob | undefined;
      return row ? toJob(row) : null;
    },
    /** The soonest run_after of a queued job of these kinds not yet due; null when none. */
    nextRunAfter(kinds: readonly JobKind[], now: number): number | null {
      const row = shaped(`SELECT min(run_after) AS at FROM jobs WHERE status = 'queued' AND run_after > ? AND kind IN (${marks(kinds.length)})`).get(now, ...kinds) as { at: number | null };
      return row.at;
    },
    /** The newest error with one of these codes recorded on a queued job (a pause a runner gave back). */
    lastErrorOf(codes: readonly string[]): { code: ErrorCode; message: string | null; since: number } | null {
      const row = shaped(
        `SELECT last_error_code AS code, last_error_message AS message, updated_at AS since FROM jobs
         WHERE status = 'queued' AND last_error_code IN (${marks(codes.length)}) ORDER BY updated_at DESC LIMIT 1`,
      ).get(...codes) as { code: ErrorCode; message: string | null; since: number } | undefined;
      return row ?? null;
    },
    /** Up to `limit` other due jobs of the job's kind and thread, oldest first (a batch's companions). */
    companionsOf(job: Pick<JobRow, 'id' | 'kind' | 'threadId'>, limit: number, now: number): number[] {
      return (q.companions.all(now, job.kind, job.threadId, job.id, limit) as Array<{ id: number }>).map((c) => c.id);
    },
    /**
     * Claims the job: running, one more attempt, a new fencing token, the lease; a recorded error whose code is in
     * `clearedCodes` (a pause) is cleared. Returns the job as claimed.
     */
    take(id: number, lease: { owner: string; expiresAt: number }, clearedCodes: readonly string[], now: number): JobRow {
      const held = `last_error_code IN (${marks(clearedCodes.length)})`;
      shaped(
        `UPDATE jobs SET status = 'running', attempts = attempts + 1, fencing_token = fencing_token + 1,
         lease_owner = ?, lease_expires_at = ?, updated_at = ?,
         last_error_message = CASE WHEN ${held} THEN NULL ELSE last_error_message END, last_error_code = CASE WHEN ${held} THEN NULL ELSE last_error_code END
         WHERE id = ?`,
      ).run(lease.owner, lease.expiresAt, now, ...clearedCodes, ...clearedCodes, id);
      return toJob(q.byId.get(id) as RawJob);
    },
    markDone(id: number, now: number): void {
      q.done.run(now, now, id);
    },
    /** Queued again with its attempt returned, if still held with this token; `error` null keeps the last one recorded. */
    giveBack(job: Pick<JobRow, 'id' | 'fencingToken'>, error: { code: string; message: string } | null, now: number): void {
      q.giveBack.run(error?.code ?? null, error?.message ?? null, now, job.id, job.fencingToken);
    },
    /** A failed attempt recorded (queued for `runAfter`, or dead), if still held with this token. */
    recordFailure(
      job: Pick<JobRow, 'id' | 'fencingToken'>,
      failure: { status: 'queued' | 'dead'; runAfter: number; code: string; message: string; finishedAt: number | null },
      now: number,
    ): boolean {
      return q.fail.run(failure.status, failure.runAfter, failure.code, failure.message, failure.finishedAt, now, job.id, job.fencingToken).changes > 0;
    },
    holdsLease(job: Pick<JobRow, 'id' | 'fencingToken'>): boolean {
      return !!q.holdsLease.get(job.id, job.fencingToken);
    },
    renewLease(job: Pick<JobRow, 'id' | 'fencingToken'>, expiresAt: number): void {
      q.renewLease.run(expiresAt, job.id, job.fencingToken);
    },
  };
}

export type JobsStore = ReturnType<typeof createJobsStore>;
