/**
 * Entry of the embedding worker thread (started by worker-thread.embedder.ts). It runs the ordinary local embedder
 * (onnx.embedder.ts) here, so tokenizing and onnxruntime's forward passes, which run synchronously on whichever thread
 * calls them, hold this thread and not the one that answers the user's calls. Same code, same vectors.
 *
 * Protocol (one request at a time or many, answered by id): {id, op: 'load'} → {id, ok, value: dimensions};
 * {id, op: 'embed', texts, kind} → {id, ok, value: Float32Array[]} (buffers transferred); {id: target, op: 'abort'}
 * stops that embed at its next batch; {id, op: 'dispose'} → {id, ok} after the session is released.
 * Failures answer {id, ok: false, error: ErrorInfo}; MnemoErrors keep their code, message and details.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MnemoError, type ErrorInfo } from '../../../shared/errors';
import { createOnnxEmbedder, type OnnxEmbedderOptions } from './onnx.embedder';
import type { EmbeddingKind } from './embedder.port';

export type WorkerRequest =
  | { id: number; op: 'load' }
  | { id: number; op: 'embed'; texts: string[]; kind: EmbeddingKind }
  | { id: number; op: 'abort' }
  | { id: number; op: 'dispose' };

export type WorkerReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorInfo };

/** What the parent passes as workerData: the in-process embedder's options that survive structured cloning. */
export type WorkerOptions = Pick<OnnxEmbedderOptions, 'modelsDir' | 'modelName' | 'dtype' | 'prefixes' | 'batchSize'>;

const port = parentPort;
if (!port) throw new Error('onnx-embedder.worker runs only as a worker thread.');

const embedder = createOnnxEmbedder(workerData as WorkerOptions);
const running = new Map<number, AbortController>();

function reply(message: WorkerReply, transfer: ArrayBuffer[] = []): void {
  port!.postMessage(message, transfer);
}

function failure(e: unknown): ErrorInfo {
  if (e instanceof MnemoError) return e.toInfo();
  return { code: 'INTERNAL', message: `The embedding worker failed: ${e instanceof Error ? e.message : String(e)}` };
}

port.on('message', (request: WorkerRequest) => {
  const { id } = request;
  switch (request.op) {
    case 'load':
      embedder.load().then(
        () => reply({ id, ok: true, value: embedder.dimensions }),
        (e: unknown) => reply({ id, ok: false, error: failure(e) }),
      );
      return;
    case 'embed': {
      const controller = new AbortController();
      running.set(id, controller);
      embedder
        .embed(request.texts, request.kind, controller.signal)
        .then(
          (vectors) => reply({ id, ok: true, value: vectors }, vectors.map((v) => v.buffer as ArrayBuffer)),
          (e: unknown) => reply({ id, ok: false, error: failure(e) }),
        )
        .finally(() => running.delete(id));
      return;
    }
    case 'abort':
      running.get(id)?.abort();
      return;
    case 'dispose':
      for (const controller of running.values()) controller.abort();
      embedder.dispose().then(
        () => reply({ id, ok: true, value: null }),
        (e: unknown) => reply({ id, ok: false, error: failure(e) }),
      );
      return;
  }
});
