/**
 * The local embedder run in a worker thread (onnx-embedder.worker.ts), behind the same Embedder port.
 *
 * Why: transformers.js tokenizes synchronously and onnxruntime-node runs each forward pass synchronously on the thread
 * that asks (its async run() only defers the call with setImmediate), so with a real model one batch of 16 texts
 * holds the calling thread for hundreds of milliseconds. In the web host and the desktop app's core process that
 * thread answers every call: during a 3,000-line import nothing answered for minutes (issue 11). Here the thread that
 * answers calls only posts texts and receives vectors.
 *
 * Invariants:
 * - The worker runs the very same createOnnxEmbedder with the same options, so the vectors are the same.
 * - The worker starts on load() (never at construction, so building an embedder stays free) and a failed load
 *   ends it, so the next load() starts afresh; a worker that dies fails what it had in flight with
 *   EMBEDDER_UNAVAILABLE (reason worker_failed) and the next load() starts a new one.
 * - An aborted embed rejects at once with ABORTED; the worker stops that request at its next batch.
 * - dispose() lets the worker release its session, then ends the thread; nothing of it outlives dispose().
 * - Downloads are not done here (embedder.factory.ts keeps them in-process): they are network-bound and report
 *   progress through callbacks.
 */
import { Worker } from 'node:worker_threads';
import { MnemoError } from '../../../shared/errors';
import { workerEntry, type WorkerEntry } from '../runtime/worker-entry';
import type { Embedder, EmbeddingKind } from './embedder.port';
import type { WorkerOptions, WorkerReply, WorkerRequest } from './onnx-embedder.worker';
import { taskPrefixes } from './model-prefixes';
import { findLocalModel, modelFolder, modelMissing } from './onnx.embedder';

export interface OnnxWorkerEmbedderOptions extends WorkerOptions {
  entry: WorkerEntry;
}

/**
 * The worker's entry beside this module (worker-entry.ts); null when a build does not have it. From a build, the
 * onnx-embedder.worker.js that electron.vite.config.ts emits beside the bundle.
 */
export function onnxWorkerEntry(): WorkerEntry | null {
  return workerEntry(import.meta.url, 'onnx-embedder.worker');
}

/** A request without its id (distributed over the union, so each op keeps its own fields). */
type RequestBody = WorkerRequest extends infer R ? (R extends WorkerRequest ? Omit<R, 'id'> : never) : never;

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export function createOnnxWorkerEmbedder(opts: OnnxWorkerEmbedderOptions): Embedder {
  const { entry, ...options } = opts;
  const workerData: WorkerOptions = { ...options, prefixes: options.prefixes ?? taskPrefixes(options.modelName) };
  modelFolder(options.modelsDir, options.modelName); // refuses a bad name now, as the in-process embedder does
  let worker: Worker | null = null;
  let dimensions = 0;
  let loading: Promise<void> | null = null;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  function start(): Worker {
    const w = new Worker(entry.script, { workerData, eval: entry.eval });
    w.on('message', (reply: WorkerReply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return; // an aborted request's late answer
      pending.delete(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(MnemoError.fromInfo(reply.error));
    });
    const fail = (why: string) => {
      if (worker !== w) return;
      worker = null;
      dimensions = 0;
      const error = new MnemoError('EMBEDDER_UNAVAILABLE', `The embedding worker stopped (${why}); semantic search resumes when it is loaded again.`, {
        details: { reason: 'worker_failed' },
      });
      for (const [id, waiting] of pending) {
        pending.delete(id);
        waiting.reject(error);
      }
    };
    w.on('error', (e) => fail(e.message));
    w.on('exit', (code) => fail(`exit code ${code}`));
    return w;
  }

  /**
   * Sends one request. The worker keeps the process alive only while something waits for it: idle between calls,
   * it must not keep a CLI command from exiting.
   */
  function request<T>(w: Worker, message: RequestBody, signal?: AbortSignal): Promise<T> {
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const settle = () => {
        signal?.removeEventListener('abort', onAbort);
        pending.delete(id);
        if (pending.size === 0) w.unref();
      };
      const onAbort = () => {
        settle();
        w.postMessage({ id, op: 'abort' } satisfies WorkerRequest);
        reject(new MnemoError('ABORTED', 'The embedder was cancelled.', { cause: signal?.reason }));
      };
      pending.set(id, {
        resolve: (v) => {
          settle();
          resolve(v as T);
        },
        reject: (e) => {
          settle();
          reject(e);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      w.ref();
      w.postMessage({ ...message, id } as WorkerRequest);
    });
  }

  async function load(): Promise<void> {
    // Checked here, before a thread is started for nothing: while the model is not installed, every search asks the
    // embedder to load again, and starting a worker costs hundreds of milliseconds (a keystroke took 450 ms).
    if (!findLocalModel(options.modelsDir, options.modelName, options.dtype)) throw modelMissing(options.modelsDir, options.modelName, options.dtype);
    const w = start();
    worker = w;
    try {
      dimensions = await request<number>(w, { op: 'load' });
    } catch (e) {
      worker = null;
      await w.terminate();
      throw e;
    }
  }

  return {
    modelId: `onnx:${options.modelName}`,
    get dimensions() {
      return dimensions;
    },

    load(signal) {
      if (signal?.aborted) return Promise.reject(new MnemoError('ABORTED', 'The embedder was cancelled.', { cause: signal.reason }));
      if (worker && !loading) return Promise.resolve();
      loading ??= load().finally(() => {
        loading = null;
      });
      return loading;
    },

    async embed(texts: string[], kind: EmbeddingKind, signal?: AbortSignal): Promise<Float32Array[]> {
      if (signal?.aborted) throw new MnemoError('ABORTED', 'The embedder was cancelled.', { cause: signal.reason });
      const w = worker;
      if (!w || loading) {
        throw new MnemoError('EMBEDDER_UNAVAILABLE', 'The local embedding model is not loaded.', {
          details: { reason: 'not_loaded', modelsDir: options.modelsDir },
        });
      }
      if (texts.length === 0) return [];
      return request<Float32Array[]>(w, { op: 'embed', texts, kind }, signal);
    },

    async dispose() {
      await loading?.catch(() => undefined);
      const w = worker;
      worker = null;
      dimensions = 0;
      if (!w) return;
      // Let the worker release the onnxruntime session, then end the thread whatever it answered.
      await request(w, { op: 'dispose' }).catch(() => undefined);
      await w.terminate();
    },
  };
}
