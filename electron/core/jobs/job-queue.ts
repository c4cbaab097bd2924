/**
 * The durable background queue (thread summaries, titles, memory extraction, re-embedding), processed strictly one
 * job at a time.
 *
 * Invariants:
 * - A job is a row in `jobs`; enqueue is a plain INSERT usable inside the caller's transaction, with an
 *   idempotency key (a crash between two writes can neither lose nor double a job). Its payload is typed by its kind
 *   (job-payloads.ts) and checked again when it runs: a stored one that does not fit dead-letters that job with
 *   INVALID_INPUT, and the queue goes on.
 * - A claim increments the job's fencing token. A handler runs its slow part (LLM, embedder) outside any transaction
 *   and returns a commit function; the queue runs that commit and marks the job done in ONE transaction, and only if
 *   the row is still running with the same token. A cancelled, deleted (thread/message cascade) or re-claimed job
 *   therefore writes nothing.
 * - A commit (or onFailure) never emits: it registers its events with `tx.afterCommit`, and they leave once that
 *   transaction has committed; if it rolls back (the handler throws, the disk is full) or the result is discarded,
 *   they never leave (db/after-commit.ts).
 * - Several processes may run the queue on one database (the app, and `queue run` in a terminal). A claim is a lease
 *   held by its owner's heartbeat; every claim (in every host, the CLI included) first takes back the running jobs
 *   whose owner is gone, and never one whose owner lives: the rule is lease-owner.ts's. A job taken back keeps its
 *   attempt (a crash may be the job's own doing) and goes first, since its run_after is old.
 * - A kind may run in batches (handler.batch): the claim takes the due job and, with it, the other due jobs of its
 *   kind and thread, oldest first, each with its own attempt and fencing token; one commit completes every job of the
 *   batch still held, and a failure gives the others back with their attempts (the claimed job carries the failure).
 *   Learning from three exchanges in one model request costs the instructions once instead of three times.
 * - Failures: OLLAMA_UNREACHABLE / LLM_UNREACHABLE / MODEL_NOT_FOUND / UNAUTHORIZED pause the whole queue (no attempt is burned) and a probe resumes it;
 *   other retryable errors back off exponentially with jitter; after maxAttempts the job is dead-lettered with its
 *   error code. Only codes and ids are logged, never the user's text.
 *
 * Hand-written, not a queue library: the invariants above are Mnemo's cases (test/integration/job-queue.int.test.ts,
 * test/reliability/). A queue that keeps jobs in memory (p-queue) loses them on quit, one on Redis (BullMQ) needs a
 * server Mnemo does not run, and one that owns its job table marks a job done in its own write after the handler
 * returns, so a crash between the two repeats the handler's writes or loses them; here they commit together.
 */
import { MnemoError, type ErrorCode } from '../../../shared/errors';
import type { AfterCommit } from '../db/after-commit';
import { sqliteFailure } from '../db/sqlite-errors';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import { readPayload, type JobKind, type JobPayload } from './job-payloads';
import { formatLeaseOwner, judgeLease, newLeaseOwner, type LeaseHolder } from './lease-owner';
import type { JobRow, JobStatus, JobsStore, Patience, RunningLease } from './jobs.store';

export type { JobKind, JobPayload } from './job-payloads';
export type { JobRow, JobStatus } from './jobs.store';

/** A job handed to its handler: the payload is its kind's (job-payloads.ts). */
export type RunningJob<K extends JobKind> = Omit<JobRow, 'kind' | 'payload'> & { kind: K; payload: JobPayload<K> };

export interface JobContext<K extends JobKind = JobKind> {
  job: RunningJob<K>;
  /** The claimed job first, then the jobs of its kind and thread claimed with it (handler.batch; else just the job). */
  batch: RunningJob<K>[];
  signal: AbortSignal;
}

/**
 * A handler's write, applied in the transaction that marks its job done. Events about it go through
 * `tx.afterCommit`: they leave once that transaction commits, and not at all if it rolls back or the result is
 * discarded (cancelled, re-claimed).
 */
export type JobCommit = (tx: AfterCommit, held: ReadonlySet<number>) => void;

interface HandlerOf<K extends JobKind> {
  kind: K;
  /**
   * The job asks the model (through the background-model gateway): while the model is unavailable for a while
   * (options.modelUnavailable: learning paused, waiting for the user to be away or for mains power) it is not claimed,
   * so jobs that do not need the model (re-embedding) still run.
   */
  usesModel?: boolean;
  /**
   * While the user is mid-conversation and learning falls behind (options.stretchLeftMs() > 0), a job of this kind
   * waits until this many of its thread wait, so they run as one batch; once the user pauses for longer than usual it
   * runs whatever waits. Default 1 (never waits).
   */
  patience?: number;
  /**
   * The patience applies to the thread the user is chatting in (options.chattingThreadId) even while learning keeps
   * up: for work the prompt does not need meanwhile (the working memory: the prompt carries the newest messages word for
   * word), so a fast machine, too, spends one request on a stretch instead of one per exchange. Other threads' jobs run.
   */
  patienceAtAnySpeed?: boolean;
  /**
   * With patienceAtAnySpeed: the stretch begins at the user's first keystroke (a reader's pause assumed until the
   * lane knows theirs, model-lane.ts), not only once their pauses are known. For work nobody looks for at once (the
   * working memory); memories are learned at once until then, so a new user sees what Mnemo learns from the start.
   */
  patientFromFirstKeystroke?: boolean;
  /**
   * With patienceAtAnySpeed, on a machine that keeps up: a thread's first job of this kind runs at once (a
   * conversation's first exchange is the user's first look at what Mnemo learns from it).
   */
  firstAtOnce?: boolean;
  /**
   * At most this many jobs of this kind and thread run together (the commit gets the ids of those still held: a job
   * cancelled or deleted meanwhile is not, and its part must not be written). Default 1.
   */
  batch?: number;
  /** The slow part, outside any transaction. Resolves to the write to apply atomically with "done" (or null). */
  run(ctx: JobContext<K>): Promise<JobCommit | null>;
  /**
   * Called inside a transaction when an attempt failed (e.g. to mark a summary as behind). Gets the job as stored:
   * the failure may be that its payload does not fit.
   */
  onFailure?(job: JobRow, error: MnemoError, final: boolean, tx: AfterCommit): void;
}

/** One handler per kind, typed by its kind's payload. */
export type JobHandler = { [K in JobKind]: HandlerOf<K> }[JobKind];

export interface QueueState {
  queued: number;
  /** The job this process runs. */
  running: { id: number; kind: JobKind } | null;
  /** Jobs other live processes run now (the app while a terminal asks, or the other way round). */
  runningElsewhere: number;
  /** Jobs left running by a runner that is gone (killed, crashed): the next claim, in any host, takes them back. */
  stalled: number;
  dead: number;
  paused: { code: ErrorCode; message: string; since?: number } | null;
  learning: { waitingFor: 'chat' | 'away' | 'paused' | 'battery' | null; behind: number };
  /** Only from a process whose queue does not run: its own probe of the model server failed (see status()). */
  unreachableHere?: { code: ErrorCode; message: string };
}

export type EnqueueInput = {
  [K in JobKind]: {
    kind: K;
    payload: JobPayload<K>;
    idempotencyKey: string;
    threadId?: number | null;
    messageId?: number | null;
    runAfter?: number;
    maxAttempts?: number;
  };
}[JobKind];

export interface JobQueueOptions {
  /** The jobs table (jobs.store.ts). */
  store: JobsStore;
  clock: Clock;
  logger: Logger;
  /** Called when the queue state changes (for the `queue.changed` event). */
  onChange?: (state: QueueState) => void;
  /** Called when a job is dead-lettered. */
  onDead?: (job: JobRow, code: string) => void;
  /** Why background model work may not start now (the model lane, model-lane.ts); absent: nothing holds it. */
  learningHold?: () => QueueState['learning']['waitingFor'];
  /** True while background model work may not start for a while (model-lane.ts waitsLong): usesModel jobs wait unclaimed. */
  modelUnavailable?: () => boolean;
  /** How long the user's conversation may still go on before they are likely away (model-lane.ts); 0: not in one. */
  stretchLeftMs?: () => number;
  /**
   * How long the user's conversation may still go on, whether or not learning keeps up (model-lane.ts); 0: not in one.
   * `assumed`: counting a typing user's assumed pause until theirs are known.
   */
  conversationLeftMs?: (assumed: boolean) => number;
  /** The thread the user is chatting in (model-lane.ts), while they are (`assumed`: as above); null: none. */
  chattingThreadId?: (assumed: boolean) => number | null;
  /** Checks whether the LLM is back; resolves true when it is, rejects (or false) when not. */
  probe?: (signal?: AbortSignal) => Promise<boolean>;
  /**
   * How long a claim holds without its owner's heartbeat (renewed every sixth of it). Short enough that a job whose
   * owner cannot be asked (another machine, a recycled pid) comes back within minutes; long enough that a live owner
   * whose event loop is busy for a while keeps its job.
   */
  leaseMs?: number;
  baseBackoffMs?: number;
  maxBackoffMs?: number;
  probeIntervalMs?: number;
  random?: () => number;
}

/**
 * Failures of the machine rather than of the job: the queue pauses without burning an attempt. Ollama's are resumed
 * by the probe; a full disk or a held database by trying again after the probe interval (nothing to ask: the next
 * write is the test).
 */
const PAUSING_CODES = new Set<string>(['OLLAMA_UNREACHABLE', 'LLM_UNREACHABLE', 'MODEL_NOT_FOUND', 'UNAUTHORIZED', 'STORAGE_FULL', 'DB_BUSY']);
/** The model server not answering: what the probe asks about, so a record of it is history once the probe succeeds. */
const UNREACHABLE_CODES = ['OLLAMA_UNREACHABLE', 'LLM_UNREACHABLE'];
const RETRY_AFTER_PAUSE = new Set<string>(['STORAGE_FULL', 'DB_BUSY']);
const PERMANENT_CODES = new Set<string>(['INVALID_INPUT', 'NOT_FOUND', 'UNKNOWN_OPERATION']);
/** `queue.status` in a host whose queue does not run asks the model server, but a status must answer promptly. */
const STATUS_PROBE_TIMEOUT_MS = 3_000;

export class JobQueue {
  private readonly handlers = new Map<JobKind, JobHandler>();
  private readonly store: JobsStore;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly leaseMs: number;
  private readonly baseBackoffMs: number;
  private readonly maxBackoffMs: number;
  private readonly probeIntervalMs: number;
  private readonly random: () => number;
  private readonly owner = newLeaseOwner();
  private readonly ownerText = formatLeaseOwner(this.owner);
  private running: { job: JobRow; controller: AbortController } | null = null;
  private paused: QueueState['paused'] = null;
  /** Jobs whose failure could not be written (see process); released when the queue resumes. */
  private unreleased: JobRow[] = [];
  private started = false;
  /** runUntilIdle is at work: jobs run whatever their patience. */
  private draining = false;
  private stopping = false;
  private loop: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private wake: (() => void) | null = null;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: JobQueueOptions) {
    this.store = options.store;
    this.clock = options.clock;
    this.logger = options.logger;
    this.leaseMs = options.leaseMs ?? 2 * 60_000;
    this.baseBackoffMs = options.baseBackoffMs ?? 5_000;
    this.maxBackoffMs = options.maxBackoffMs ?? 30 * 60_000;
    this.probeIntervalMs = options.probeIntervalMs ?? 15_000;
    this.random = options.random ?? Math.random;
  }

  register(handler: JobHandler): void {
    this.handlers.set(handler.kind, handler);
  }

  /** Inserts a job unless one with the same idempotency key exists. Safe inside a caller's transaction. Returns the job id. */
  enqueue(input: EnqueueInput): number {
    const now = this.clock.now();
    const id = this.store.insert(
      {
        kind: input.kind,
        idempotencyKey: input.idempotencyKey,
        threadId: input.threadId ?? null,
        messageId: input.messageId ?? null,
        payload: input.payload,
        maxAttempts: input.maxAttempts ?? 5,
        runAfter: input.runAfter ?? now,
      },
      now,
    );
    // After the caller's transaction (enqueue runs inside it): the new job shows in "queued" and "behind" at once.
    queueMicrotask(() => {
      this.poke();
      try {
        this.emitChange();
      } catch {
        // The database closed in between (the host is shutting down): nobody is left to tell.
      }
    });
    return id;
  }

  /**
   * Makes the job with this key due at `runAfter` (a debounce: each new activity pushes it back). Inserts it; or moves
   * a queued one; or queues a finished one (done, dead, cancelled) again with fresh attempts and this payload. A
   * running one is left as it is (its fencing token keeps it consistent); its status is returned so the caller can
   * act once it has committed. Safe inside a caller's transaction.
   */
  schedule(input: EnqueueInput & { runAfter: number }): { id: number; status: JobStatus } {
    const id = this.enqueue(input);
    const status = this.store.reschedule(id, input.runAfter, input.payload, this.clock.now());
    return { id, status };
  }

  /**
   * Processes jobs in the background until stop(). Jobs a dead runner left running are taken back by the first claim
   * (synchronously, before this returns), not by a blanket reset: another process may be running them right now.
   */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.loop = this.runLoop();
  }

  /**
   * Processes every job due now, one at a time, then returns (without starting the background loop): the CLI's
   * `queue run --until-idle`. Stops early when the queue pauses (Ollama unreachable). With the loop running, it just
   * waits for idle.
   */
  async runUntilIdle(): Promise<void> {
    if (this.started) return this.waitForIdle();
    // Asked to run what waits now: patience (waiting for a stretch of exchanges) is the running app's economy, not this.
    this.draining = true;
    try {
      for (;;) {
        if (this.paused || this.stopping) return;
        const job = this.claim();
        if (!job) return;
        await this.process(job);
      }
    } finally {
      this.draining = false;
    }
  }

  /** Stops taking jobs; the running one is aborted and its lease released (it will run again next start). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.running?.controller.abort();
    this.poke();
    await this.loop;
    this.flushIdleWaiters();
  }

  /**
   * The state changed for a reason outside the queue (the model lane's hold, the learning schedule): listeners are told,
   * and the worker looks again for work (what may be claimed may have changed).
   */
  notifyChange(): void {
    this.emitChange();
    this.poke();
  }

  /** Wakes the worker (new job, clock moved, probe wanted). */
  poke(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.wake?.();
  }

  /** This process's view: its own running job and pause, and what the database says about everyone's jobs. */
  state(): QueueState {
    // Queued is work pending: due jobs and retries. A job scheduled for later that has not been tried (a profile
    // rewrite at the end of its debounce window, an episode waiting for its thread to go quiet) is not work yet: the
    // status bar would say "1 queued" for half an hour after every exchange.
    const now = this.clock.now();
    // Exchanges waiting for their stretch in the thread chatted in, on a machine that keeps up, are not learning behind.
    const counts = this.store.counts(now, this.patientNow()?.get('extract')?.onlyThread ?? null);
    const holders = this.runningLeases().map((lease) => this.holderOf(lease, now));
    return {
      queued: counts.queued,
      running: this.running ? { id: this.running.job.id, kind: this.running.job.kind } : null,
      runningElsewhere: holders.filter((h) => h === 'live').length,
      stalled: holders.filter((h) => h === 'gone').length,
      dead: counts.dead,
      paused: this.paused,
      learning: { waitingFor: this.options.learningHold?.() ?? null, behind: counts.behind },
    };
  }

  /**
   * What `queue.status` answers, truthful in every host. A host whose queue runs (app, web host) knows first-hand:
   * its own pause, which its probe lifts. A host whose queue does not run (the CLI's `queue status`, a fresh process)
   * has no pause in memory; when jobs wait it reports (1) the pause the last runner saw: a job given back on a pause
   * records that pause's code, message and time in its row (Ollama unreachable, model missing, disk full, database
   * held), and the record goes when the job runs. The pause lives in the rows it holds up, so it cannot outlive them
   * or disagree with them; no separate flag has to be set and cleared by every runner that may be killed. (2) Its own
   * probe of the model server, bounded by a short timeout, as `unreachableHere`, never as `paused`: this process asks
   * at the address its settings give, else its own OLLAMA_HOST, while the process that runs the queue (the app,
   * started with another OLLAMA_HOST) may reach a server this one cannot. Should the server answer here, an
   * "unreachable" on record is history (the server is back) and is left out; other recorded causes still stand.
   */
  async status(): Promise<QueueState> {
    const state = this.state();
    if (this.started || state.paused || state.queued + state.stalled === 0) return state;
    const unreachable = await this.probeFailure(STATUS_PROBE_TIMEOUT_MS);
    const answered = this.options.probe !== undefined && unreachable === null;
    return { ...state, paused: this.lastRunnerPause(answered ? UNREACHABLE_CODES : []), ...(unreachable ? { unreachableHere: unreachable } : {}) };
  }

  list(filter: { status?: JobStatus[]; limit: number }): JobRow[] {
    const statuses = filter.status ?? ['queued', 'running', 'dead'];
    return this.store.list(statuses, filter.limit);
  }

  get(id: number): JobRow | null {
    return this.store.get(id);
  }

  /** A dead or cancelled job back to the queue with fresh attempts. */
  retry(id: number): JobRow {
    const changed = this.store.retry(id, this.clock.now());
    const job = this.get(id);
    if (!job) throw new MnemoError('NOT_FOUND', `Job ${id} does not exist.`);
    if (!changed && job.status !== 'queued') throw new MnemoError('CONFLICT', `Job ${id} is ${job.status}; only dead or cancelled jobs can be retried.`);
    this.emitChange();
    this.poke();
    return job;
  }

  /** Cancels a queued or running job; a running one is aborted and its late result is discarded by the fencing check. */
  cancel(id: number): JobRow {
    const changed = this.store.cancel(id, this.clock.now());
    if (this.running?.job.id === id) this.running.controller.abort();
    const job = this.get(id);
    if (!job) throw new MnemoError('NOT_FOUND', `Job ${id} does not exist.`);
    if (changed) this.emitChange();
    return job;
  }

  /** Aborts the running job when its thread or message went away (the cascade already removed the rows). */
  abortIfGone(): void {
    if (!this.running) return;
    if (!this.store.exists(this.running.job.id)) this.running.controller.abort();
  }

  /** Resolves when no job is running and none is due now (jobs waiting for a retry time or a pause do not count). */
  waitForIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    if (this.running) return false;
    if (this.paused || this.stopping || !this.started) return true;
    // A job waiting for its thread's stretch (handler.patience) is work still to do, due when the stretch ends.
    return this.nextDue() === null && this.stretchWait() === null;
  }

  /** The patient kinds and their thresholds, while the user is mid-conversation; null otherwise. */
  private patientNow(): Map<JobKind, Patience> | null {
    if (this.draining) return null;
    const behind = (this.options.stretchLeftMs?.() ?? 0) > 0;
    // Asked of the lane once for each way of counting (it may read the shared file), not once per kind.
    const threads = new Map<boolean, number | null>();
    const threadOf = (assumed: boolean): number | null => {
      if (!threads.has(assumed)) threads.set(assumed, behind || (this.options.conversationLeftMs?.(assumed) ?? 0) <= 0 ? null : (this.options.chattingThreadId?.(assumed) ?? null));
      return threads.get(assumed)!;
    };
    const patient = new Map<JobKind, Patience>();
    for (const h of this.handlers.values()) {
      if ((h.patience ?? 1) <= 1) continue;
      const thread = h.patienceAtAnySpeed ? threadOf(h.patientFromFirstKeystroke === true) : null;
      if (behind) patient.set(h.kind, { threshold: h.patience! });
      else if (thread !== null) patient.set(h.kind, { threshold: h.patience!, onlyThread: thread, ...(h.firstAtOnce ? { spareFirst: true } : {}) });
    }
    return patient.size > 0 ? patient : null;
  }

  /** How long the stretch a patient job waits for may still go on (the two lane signals agree whenever both are on). */
  private stretchLeft(): number {
    // With a typing user's assumed pause: the stretch of a kind held from the first keystroke (once the user's pauses
    // are known, the two are the same).
    return Math.max(this.options.stretchLeftMs?.() ?? 0, this.options.conversationLeftMs?.(true) ?? 0);
  }

  /** When a due job held back by its kind's patience may run (the stretch's end); null when none is held back. */
  private stretchWait(): number | null {
    const patient = this.patientNow();
    if (!patient) return null;
    const now = this.clock.now();
    const claimable = this.claimableKinds();
    const kinds = [...patient.keys()].filter((k) => claimable.includes(k));
    if (kinds.length === 0) return null;
    return this.store.anyDue(kinds, now) ? now + this.stretchLeft() : null;
  }

  /** The kinds that may be claimed now: all, except those that need the model while it is unavailable for a while. */
  private claimableKinds(): JobKind[] {
    const held = this.options.modelUnavailable?.() ?? false;
    return [...this.handlers.values()].filter((h) => !(held && h.usesModel)).map((h) => h.kind);
  }

  /** The next job to claim: due, of a claimable kind, and not a patient kind's held back while the stretch goes on. */
  private nextDue(): JobRow | null {
    const kinds = this.claimableKinds();
    if (kinds.length === 0) return null;
    return this.store.nextDue(kinds, this.patientNow(), this.clock.now());
  }

  private runningLeases(): RunningLease[] {
    return this.store.runningLeases();
  }

  private holderOf(lease: RunningLease, now: number): LeaseHolder {
    return judgeLease({ owner: lease.lease_owner, expiresAt: lease.lease_expires_at }, this.owner, now);
  }

  /**
   * Takes back the running jobs whose owner is gone: queued again with the same attempt count and run_after, so they
   * run next. Guarded by the fencing token: a job re-claimed or finished meanwhile is left alone.
   */
  private reclaimAbandoned(): void {
    const now = this.clock.now();
    for (const lease of this.runningLeases()) {
      if (this.holderOf(lease, now) !== 'gone') continue;
      if (this.store.requeueAbandoned(lease, now)) {
        const expired = lease.lease_expires_at === null || lease.lease_expires_at <= now;
        this.logger.info('took back a job whose runner is gone', { job: lease.id, kind: lease.kind, reason: expired ? 'lease expired' : 'process ended' });
      }
    }
  }

  /**
   * When an idle queue looks again at the jobs other processes hold: every heartbeat period, since another runner
   * (a `queue run` in a terminal) may claim a job and die while this one sleeps, and a dead runner on this machine
   * shows at once; or at a live owner's lease expiry, if sooner.
   */
  private nextLeaseCheckAt(): number {
    const now = this.clock.now();
    let at = now + this.heartbeatMs();
    for (const lease of this.runningLeases()) {
      if (this.holderOf(lease, now) === 'live') at = Math.min(at, lease.lease_expires_at!);
    }
    return at;
  }

  /** Something to claim: a due job, or one to take back. Reads only, so an idle look never takes the write lock. */
  private hasWork(): boolean {
    const now = this.clock.now();
    return this.nextDue() !== null || this.runningLeases().some((lease) => this.holderOf(lease, now) === 'gone');
  }

  private heartbeatMs(): number {
    return Math.max(1_000, Math.floor(this.leaseMs / 6));
  }

  /** The next time a job becomes claimable: the soonest not yet due, or the end of a stretch that holds due ones back. */
  private nextWakeAt(): number | null {
    const kinds = this.claimableKinds();
    if (kinds.length === 0) return null;
    const now = this.clock.now();
    const at = this.store.nextRunAfter(kinds, now);
    const stretch = this.stretchWait();
    if (at === null) return stretch;
    return stretch === null ? at : Math.min(at, stretch);
  }

  private async runLoop(): Promise<void> {
    while (!this.stopping) {
      if (this.paused) {
        this.flushIdleWaiters(); // paused counts as idle: nothing will run until the probe succeeds
        await this.sleep(this.probeIntervalMs);
        if (this.stopping) break;
        if (RETRY_AFTER_PAUSE.has(this.paused.code) || (await this.probeOk())) {
          if (!this.unreleased.every((job) => this.release(job))) continue;
          this.unreleased = [];
          this.logger.info('queue resumed', { reason: this.paused?.code });
          this.paused = null;
          this.emitChange();
        }
        continue;
      }
      let job: JobRow[] | null;
      try {
        job = this.hasWork() ? this.claim() : null;
      } catch (e) {
        if (this.pauseFor(e)) continue;
        throw e;
      }
      if (!job) {
        this.flushIdleWaiters();
        const at = Math.min(this.nextWakeAt() ?? Infinity, this.nextLeaseCheckAt());
        await this.sleep(Math.max(0, at - this.clock.now()));
        continue;
      }
      await this.process(job);
    }
  }

  private async probeOk(): Promise<boolean> {
    if (!this.options.probe) return true;
    try {
      return await this.options.probe();
    } catch {
      return false;
    }
  }

  /** Why the model server cannot take jobs now (null if it can, or if there is no probe), within `timeoutMs`. */
  private async probeFailure(timeoutMs: number): Promise<NonNullable<QueueState['paused']> | null> {
    if (!this.options.probe) return null;
    const signal = AbortSignal.timeout(timeoutMs);
    const silent = () => ({ code: 'OLLAMA_UNREACHABLE' as const, message: `The model server did not answer within ${timeoutMs / 1000} s. Is it running and responsive?` });
    try {
      return (await this.options.probe(signal)) ? null : silent();
    } catch (e) {
      if (signal.aborted || !(e instanceof MnemoError)) return silent();
      return { code: e.code, message: e.message };
    }
  }

  /** The newest pause a runner recorded on a job it gave back (see giveBack), leaving out `ignore`d codes. */
  private lastRunnerPause(ignore: string[]): QueueState['paused'] {
    const codes = [...PAUSING_CODES].filter((c) => !ignore.includes(c));
    const row = this.store.lastErrorOf(codes);
    if (!row) return null;
    return { code: row.code, message: row.message ?? `The last run stopped on ${row.code}.`, since: row.since };
  }

  /**
   * Takes the next due job, and with it the other due jobs of its kind and thread its handler may batch. A pause
   * recorded on a job (see giveBack) ends here: a runner got past it, or records it again.
   */
  private claim(): JobRow[] | null {
    const now = this.clock.now();
    const pausing = [...PAUSING_CODES];
    return this.store.write(() => {
      this.reclaimAbandoned();
      const next = this.nextDue();
      if (!next) return null;
      const more = Math.max(1, this.handlers.get(next.kind)?.batch ?? 1) - 1;
      const companions = more > 0 && next.threadId !== null ? this.store.companionsOf(next, more, now) : [];
      const lease = { owner: this.ownerText, expiresAt: now + this.leaseMs };
      return [next.id, ...companions].map((id) => this.store.take(id, lease, pausing, now));
    });
  }

  private async process(claimed: JobRow[]): Promise<void> {
    const [job] = claimed;
    const handler = job ? this.handlers.get(job.kind) : undefined;
    if (!job || !handler) return;
    // A companion whose stored payload does not fit goes back, to fail on its own (runHandler says why).
    const { batch, unfit } = checkedBatch(handler, claimed);
    for (const other of unfit) this.giveBack(other, null);
    const controller = new AbortController();
    this.running = { job, controller };
    this.emitChange();
    const heartbeat = setInterval(() => batch.forEach((b) => this.renewLease(b)), this.heartbeatMs());
    try {
      const commit = await runHandler(handler, job, batch, controller.signal);
      const applied = this.transaction(job, (tx) => {
        const held = batch.filter((b) => this.holdsLease(b));
        if (!held.includes(job)) return false;
        commit?.(tx, new Set(held.map((b) => b.id)));
        for (const b of held) this.store.markDone(b.id, this.clock.now());
        return true;
      });
      if (!applied) this.logger.info('discarded the result of a job that was cancelled or re-claimed', { job: job.id, kind: job.kind });
    } catch (e) {
      try {
        this.fail(job, handler, toMnemoError(e, controller.signal));
        // The batch failed as a whole; the claimed job carries the failure, the others go back with their attempts.
        for (const other of batch.slice(1)) this.giveBack(other, null);
      } catch (writeError) {
        // Not even the failure could be written (the disk filled up): pause, and give the jobs back on resume.
        if (!this.pauseFor(writeError)) throw writeError;
        this.unreleased = batch;
      }
    } finally {
      clearInterval(heartbeat);
      this.running = null;
      this.emitChange();
    }
  }

  private pause(error: MnemoError): void {
    this.paused = { code: error.code, message: error.message, since: this.clock.now() };
    this.logger.warn('queue paused', { code: error.code });
  }

  /** Pauses for a failure of the machine (a full disk, a held database); false for anything else. */
  private pauseFor(e: unknown): boolean {
    const known = sqliteFailure(e);
    if (!known || !PAUSING_CODES.has(known.code)) return false;
    this.pause(known);
    this.emitChange();
    return true;
  }

  /**
   * Queued again with its attempt returned and its lease released, if we still hold it; `error` is recorded as the
   * last error (null keeps the one there). A pause given back this way is what `status()` reports in other processes.
   */
  private giveBack(job: JobRow, error: MnemoError | null): void {
    this.store.giveBack(job, error ? { code: error.code, message: safeErrorMessage(error) } : null, this.clock.now());
  }

  /** Gives back a job whose failure could not be recorded. False if that is still impossible. */
  private release(job: JobRow): boolean {
    try {
      this.giveBack(job, null);
      return true;
    } catch (e) {
      if (this.pauseFor(e)) return false;
      throw e;
    }
  }

  private fail(job: JobRow, handler: JobHandler, error: MnemoError): void {
    const now = this.clock.now();
    if (error.code === 'ABORTED' && this.stopping) {
      // Shutting down: release the lease and give the attempt back; the job runs again at next start.
      this.giveBack(job, null);
      return;
    }
    if (error.code === 'PREEMPTED') {
      // The chat needed the model (model-lane.ts): not the job's failure. It runs again, first, once the lane is free.
      this.giveBack(job, null);
      this.logger.info('job gave the model to the chat', { job: job.id, kind: job.kind });
      return;
    }
    if (PAUSING_CODES.has(error.code)) {
      this.giveBack(job, error);
      this.pause(error);
      return;
    }
    const final = PERMANENT_CODES.has(error.code) || job.attempts >= job.maxAttempts;
    const delay = Math.min(this.maxBackoffMs, this.baseBackoffMs * 2 ** Math.max(0, job.attempts - 1)) * (0.5 + this.random());
    const written = this.transaction(job, (tx) => {
      const changed = this.store.recordFailure(
        job,
        { status: final ? 'dead' : 'queued', runAfter: final ? job.runAfter : now + Math.round(delay), code: error.code, message: safeErrorMessage(error), finishedAt: final ? now : null },
        now,
      );
      if (changed) handler.onFailure?.(job, error, final, tx);
      return changed;
    });
    this.logger.warn(final ? 'job dead-lettered' : 'job failed, will retry', { job: job.id, kind: job.kind, code: error.code, attempt: job.attempts });
    if (written && final) this.options.onDead?.(job, error.code);
  }

  /** A write transaction for `job` whose after-commit effects run once it commits (see after-commit.ts). */
  private transaction<T>(job: JobRow, body: (tx: AfterCommit) => T): T {
    return this.store.withEffects(body, (e) =>
      // The job's write is committed: an effect that failed (an event listener) is reported, not retried.
      this.logger.error('an effect after a job committed failed', { job: job.id, kind: job.kind, error: e instanceof MnemoError ? e.code : 'INTERNAL' }),
    );
  }

  private holdsLease(job: JobRow): boolean {
    return this.store.holdsLease(job);
  }

  private renewLease(job: JobRow): void {
    try {
      this.store.renewLease(job, this.clock.now() + this.leaseMs);
    } catch (e) {
      // A held database or a full disk: the next beat tries again. Losing the lease would cost a re-run, not data.
      this.logger.warn('could not renew a job lease', { job: job.id, code: sqliteFailure(e)?.code ?? 'INTERNAL' });
    }
  }

  private sleep(ms: number | null): Promise<void> {
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = null;
        resolve();
      };
      if (ms !== null) this.timer = setTimeout(() => this.wake?.(), Math.min(ms, 2_147_000_000));
    });
  }

  private flushIdleWaiters(): void {
    if (!this.isIdle()) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private emitChange(): void {
    this.options.onChange?.(this.state());
  }
}

/** The claimed job and the companions whose payload fits their kind (a misfit runs alone later, and fails there). */
function checkedBatch(handler: JobHandler, claimed: JobRow[]): { batch: JobRow[]; unfit: JobRow[] } {
  const [job, ...others] = claimed;
  const unfit = others.filter((other) => !readPayload(handler.kind, other.payload).ok);
  return { batch: [job!, ...others.filter((other) => !unfit.includes(other))], unfit };
}

/**
 * Runs the handler on the job with its payload checked against its kind: a payload that does not fit (a row from
 * another version, or edited by hand) fails the job with INVALID_INPUT, which dead-letters it at once.
 */
async function runHandler(handler: JobHandler, job: JobRow, batch: JobRow[], signal: AbortSignal): Promise<JobCommit | null> {
  const read = readPayload(handler.kind, job.payload);
  if (!read.ok) {
    throw new MnemoError(
      'INVALID_INPUT',
      `Job ${job.id} (${job.kind}) cannot run: what it stored does not fit this version of Mnemo (${read.problem}). It was set aside; the other jobs go on.`,
    );
  }
  const running = (row: JobRow) => {
    const payload = readPayload(handler.kind, row.payload);
    return { ...row, kind: handler.kind, payload: payload.ok ? payload.payload : read.payload };
  };
  // Each handler is typed by its own kind; every payload was just checked against that kind.
  const run = handler.run as (ctx: JobContext) => Promise<JobCommit | null>;
  return run.call(handler, { job: { ...job, kind: handler.kind, payload: read.payload }, batch: batch.map(running) as JobContext['batch'], signal });
}

function toMnemoError(e: unknown, signal: AbortSignal): MnemoError {
  if (e instanceof MnemoError) return e;
  if (signal.aborted) return new MnemoError('ABORTED', 'The job was stopped.');
  const known = sqliteFailure(e);
  if (known) return known;
  return new MnemoError('INTERNAL', 'The job failed unexpectedly.', { cause: e });
}

/** Error messages may quote model output; keep only our own generic text for storage. */
function safeErrorMessage(e: MnemoError): string {
  return e.code === 'INTERNAL' ? 'The job failed unexpectedly.' : e.message.slice(0, 300);
}
