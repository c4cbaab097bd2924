import { z } from 'zod';
import { Empty, Id, Timestamp, operation } from './define';

export const JobKind = z.enum(['extract', 'summarize', 'title', 'reembed', 'profile', 'consolidate', 'episode', 'focus']);

/**
 * Background model work and the one model it shares with the chat (electron/core/llm/model-lane.ts).
 * `waitingFor`: why no background request may start now. 'chat': an answer is being written, or the user is typing;
 * 'away': the schedule says "only when I am away" and the user was active lately; 'paused': the user paused learning;
 * 'battery': the user asked to wait for mains power. Null: background work may use the model.
 */
export const LearningState = z.object({
  waitingFor: z.enum(['chat', 'away', 'paused', 'battery']).nullable(),
  /** Exchanges not yet learned from (queued or running extraction jobs). */
  behind: z.number().int().nonnegative(),
});

/** What background model work cost, per purpose, since this process started (the model-lane gateway's count). */
export const ModelUsage = z.object({
  purposes: z.array(
    z.object({
      purpose: z.enum(['extract', 'focus', 'summary', 'title', 'episode', 'profile', 'consolidate']),
      requests: z.number().int().nonnegative(),
      promptTokens: z.number().int().nonnegative(),
      outputTokens: z.number().int().nonnegative(),
      /** Time the model spent on these requests, as the server reported it (else as measured). */
      modelMs: z.number().nonnegative(),
      /** Requests stopped because the chat needed the model; their jobs went back to the queue. */
      preempted: z.number().int().nonnegative(),
    }),
  ),
  /** The model server's measured speed (tokens per second), null until measured. */
  speed: z.object({ promptPerSecond: z.number().positive(), outputPerSecond: z.number().positive() }).nullable(),
});

export type ModelUsage = z.output<typeof ModelUsage>;

export const QueueState = z.object({
  /** Jobs due now or waiting for a retry; not those scheduled for later and not yet tried (a debounced profile rewrite, an episode waiting for quiet). */
  queued: z.number().int().nonnegative(),
  /** The job the answering process runs. */
  running: z.object({ id: Id, kind: JobKind }).nullable(),
  /** Jobs other live Mnemo processes run now (the app while a terminal asks, or a `queue run` while the app does). */
  runningElsewhere: z.number().int().nonnegative(),
  /** Jobs left running by a runner that is gone (killed, crashed); the next run in any host takes them back. */
  stalled: z.number().int().nonnegative(),
  dead: z.number().int().nonnegative(),
  /**
   * Set while Ollama is unreachable, the model is missing, the disk is full or the database is held: jobs wait (no
   * attempt burned) until it is fixed. `since` when known: the moment a runner paused, here or in another process.
   */
  paused: z.object({ code: z.string(), message: z.string(), since: Timestamp.optional() }).nullable(),
  learning: LearningState,
  /**
   * Only from a process whose queue does not run (`mnemo queue status` while jobs wait): its own look at the model
   * server, at the address its settings give (else its own OLLAMA_HOST), found it unreachable. That process's view,
   * not a pause: the one running the queue (the app, started with another OLLAMA_HOST) may reach its server.
   */
  unreachableHere: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const Job = z.object({
  id: Id,
  kind: JobKind,
  threadId: z.number().int().nullable(),
  messageId: z.number().int().nullable(),
  status: z.enum(['queued', 'running', 'done', 'dead', 'cancelled']),
  attempts: z.number().int(),
  maxAttempts: z.number().int(),
  runAfter: Timestamp,
  lastErrorCode: z.string().nullable(),
  createdAt: Timestamp,
});

export const queueOperations = {
  'queue.status': operation('Queue length, the running job, dead-lettered jobs, and whether it is paused.', Empty, QueueState),
  'queue.list': operation(
    'Jobs by status, newest first.',
    z.object({ status: z.array(Job.shape.status).optional(), limit: z.number().int().min(1).max(500).default(50) }).strict(),
    z.object({ jobs: z.array(Job) }),
  ),
  'queue.retry': operation('Puts a dead or cancelled job back in the queue.', z.object({ jobId: Id }).strict(), Job),
  'queue.usage': operation('What background model work cost per purpose since Mnemo started, and the model server\'s measured speed.', Empty, ModelUsage),
  'queue.cancel': operation('Cancels a queued or running job; a late result writes nothing.', z.object({ jobId: Id }).strict(), Job),
};

export const queueEvents = {
  'queue.changed': QueueState,
  'job.failed': z.object({ jobId: Id, kind: JobKind, code: z.string(), final: z.boolean() }),
};
