/**
 * One synchronous task run in a worker thread of its own, so the thread that answers calls stays free (issue 11: long
 * work must not hold it): the caller's side (runWorkerTask) and the worker's (serveWorkerTask). The worker gets its
 * input as workerData, answers once and ends.
 *
 * A MnemoError thrown in the worker comes back as a MnemoError (code, message, path, details); any other error as an
 * Error with SQLite's or Node's `code` kept, so callers map it as they would the same error on their own thread.
 */
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { MnemoError, type ErrorInfo } from '../../../shared/errors';
import type { WorkerEntry } from './worker-entry';

/**
 * Work on fewer database bytes than this costs less than starting a thread (copying or rewriting a database and
 * checking its integrity: about 70 ms per MB on a busy laptop; a worker takes 50-100 ms to load better-sqlite3 from a
 * build, seconds through tsx from source), so it runs on the calling thread.
 */
export const OFF_THREAD_FROM_BYTES = 2 * 1024 * 1024;

type TaskReply = { ok: true; value: unknown } | { ok: false; mnemo?: ErrorInfo; code?: string; message: string };

export function runWorkerTask<T>(entry: WorkerEntry, input: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(entry.script, { workerData: input, eval: entry.eval });
    let settled = false;
    worker.once('message', (reply: TaskReply) => {
      settled = true;
      if (reply.ok) resolve(reply.value as T);
      else if (reply.mnemo) reject(MnemoError.fromInfo(reply.mnemo));
      else reject(Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {}));
    });
    worker.once('error', (e) => {
      settled = true;
      reject(e);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`a worker thread stopped before it answered (exit code ${code})`));
    });
  });
}

/** In a worker's entry file: runs `task` on the workerData and posts its answer (or its failure) to the caller. */
export function serveWorkerTask<I, O>(task: (input: I) => O): void {
  const port = parentPort;
  if (!port) throw new Error('A worker task runs only as a worker thread.');
  let reply: TaskReply;
  try {
    reply = { ok: true, value: task(workerData as I) };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    reply =
      e instanceof MnemoError
        ? { ok: false, mnemo: e.toInfo(), message: e.message }
        : { ok: false, message: e instanceof Error ? e.message : String(e), ...(typeof code === 'string' ? { code } : {}) };
  }
  port.postMessage(reply);
}
