/**
 * The embedding service: the one place the core asks for vectors. It wraps whichever Embedder the composition root
 * chose (or none), keeps an LRU cache of query embeddings, and reports whether semantic search is available and why
 * not. Invariant: when no embedder is available every method still answers (null), so memories are still saved and
 * found by keyword, and vectors are filled in later.
 *
 * With a factory it also switches model (memory/reembed-triggers.ts listens to onModelChanged and re-embeds in the
 * background) and downloads the local model, only when the user asks. Loads, downloads and switches never overlap:
 * transformers.js keeps its settings in one process-wide object, so two loads at once could read each other's.
 *
 * Invariant: a vector is returned only if the embedder that made it is still the current one when it is returned, so
 * callers can label it with status().modelId; a call that straddles a switch answers null (filled in later).
 */
import { EMBEDDING_OFF_REASONS, type EmbeddingOffReason, type EmbeddingReasonParams } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { Logger } from '../ports/logger.port';
import type { DownloadProgress } from './download-progress';
import type { EmbedderFactory, EmbeddingProvider } from './embedder.factory';
import type { Embedder } from './embedder.port';

export type { EmbeddingProvider } from './embedder.factory';

export type EmbeddingState = 'ready' | 'loading' | 'downloading' | 'unavailable';

export interface EmbeddingStatus {
  state: EmbeddingState;
  provider: EmbeddingProvider | null;
  modelId: string | null;
  dimensions: number | null;
  /** Why semantic search is off, for code (the UI says it in its own language from it and its params). */
  reason: EmbeddingOffReason | null;
  reasonParams: EmbeddingReasonParams;
  /** The same in English, for the CLI and the logs: what happened and what to do. */
  message: string | null;
}

export interface EmbeddingDownloadProgress extends DownloadProgress {
  modelId: string;
}

export interface ModelChange {
  previousModelId: string | null;
  /** The new model's status after its first load attempt. */
  status: EmbeddingStatus;
}

export interface EmbeddingService {
  status(): EmbeddingStatus;
  /** Loads the embedder if there is one; resolves true when vectors can be made. Never throws. */
  ensureReady(): Promise<boolean>;
  /** A query vector (cached), or null when semantic search is off. */
  embedQuery(text: string, signal?: AbortSignal): Promise<Float32Array | null>;
  /** Passage vectors in input order, or null when semantic search is off. */
  embedPassages(texts: string[], signal?: AbortSignal): Promise<Float32Array[] | null>;
  onStatusChange(listener: (status: EmbeddingStatus) => void): () => void;
  /**
   * Replaces the embedder (the old one is disposed) and tries to load the new one. Resolves with the new status;
   * throws only when the service has no factory. A switch to the current model does nothing.
   */
  switchModel(provider: EmbeddingProvider, model: string): Promise<EmbeddingStatus>;
  /** After every real switch: vectors of the previous model no longer match queries and need re-embedding. */
  onModelChanged(listener: (change: ModelChange) => void): () => void;
  /**
   * Fetches the local model's missing files from the model hub, then loads it from disk. Resolves with the final
   * status (ready, or unavailable with the reason); an abort leaves the files already complete for the next try.
   * Throws CONFLICT when the model is not a local one or a download is already running.
   */
  download(signal?: AbortSignal): Promise<EmbeddingStatus>;
  /** Starts download() in the background (the contract's `embedding.download`); started false when nothing to do. */
  startDownload(): { started: boolean; status: EmbeddingStatus };
  cancelDownload(): { cancelled: boolean };
  onDownloadProgress(listener: (progress: EmbeddingDownloadProgress) => void): () => void;
  dispose(): Promise<void>;
}

export interface EmbeddingServiceDeps {
  embedder: Embedder | null;
  logger: Logger;
  /** Query vectors kept. Default 512. */
  cacheSize?: number;
  /** Builds embedders for switchModel() and download(); without one, both refuse. */
  factory?: EmbedderFactory;
}

const NO_EMBEDDER: EmbeddingStatus = Object.freeze({
  state: 'unavailable',
  provider: null,
  modelId: null,
  dimensions: null,
  reason: 'no_embedder',
  reasonParams: Object.freeze({}),
  message: 'Semantic search is off: no embedding model is configured. Memories are still saved and found by keyword.',
});

export function createEmbeddingService(deps: EmbeddingServiceDeps): EmbeddingService {
  const { logger, factory } = deps;
  const cacheSize = deps.cacheSize ?? 512;
  if (!Number.isInteger(cacheSize) || cacheSize < 1) {
    throw new MnemoError('INVALID_INPUT', `cacheSize must be a positive integer, got ${cacheSize}.`, { path: 'cacheSize' });
  }
  let embedder = deps.embedder;
  /** Map order is the LRU order: the first key is the least recently used. */
  const cache = new Map<string, Float32Array>();
  const statusListeners = new Set<(s: EmbeddingStatus) => void>();
  const changeListeners = new Set<(c: ModelChange) => void>();
  const progressListeners = new Set<(p: EmbeddingDownloadProgress) => void>();
  /** Bumped when the embedder is replaced; work started under an older generation is discarded. */
  let generation = 0;
  let loading: Promise<boolean> | null = null;
  let downloading: { controller: AbortController; done: Promise<EmbeddingStatus> } | null = null;
  let switching: Promise<unknown> = Promise.resolve();
  let disposed = false;
  let current: EmbeddingStatus = embedder ? pending(embedder) : NO_EMBEDDER;

  function setStatus(next: EmbeddingStatus): void {
    if (sameStatus(current, next)) return;
    current = next;
    notify(statusListeners, next);
  }

  function notify<T>(listeners: Set<(value: T) => void>, value: T): void {
    for (const listener of [...listeners]) {
      try {
        listener(value);
      } catch (e) {
        logger.error('embedding listener failed', { error: (e as Error).message });
      }
    }
  }

  function markUnavailable(e: unknown, of: Embedder): void {
    const reason = offReason(e);
    const message = e instanceof MnemoError ? e.message : 'The embedding model failed to load.';
    logger.warn('embedder unavailable', { reason, modelId: of.modelId });
    setStatus({ ...base(of), state: 'unavailable', reason, reasonParams: reasonParams(e, of), message: `Semantic search is off: ${message}` });
  }

  function ensureReady(): Promise<boolean> {
    const target = embedder;
    if (!target || disposed || current.state === 'downloading') return Promise.resolve(false);
    if (current.state === 'ready') return Promise.resolve(true);
    const gen = generation;
    loading ??= target.load().then(
      () => {
        loading = null;
        if (gen !== generation) return false;
        if (current.state !== 'downloading') setStatus({ ...base(target), state: 'ready', dimensions: target.dimensions, reason: null, reasonParams: {}, message: null });
        return true;
      },
      (e: unknown) => {
        loading = null; // a later call may retry (e.g. after the model was downloaded or Ollama started)
        if (gen === generation && current.state !== 'downloading') markUnavailable(e, target);
        return false;
      },
    );
    return loading;
  }

  /** Runs one embed call on the current embedder; null when it is unavailable or was replaced meanwhile. */
  async function embedWith(texts: string[], kind: 'query' | 'passage', signal?: AbortSignal): Promise<Float32Array[] | null> {
    if (!(await ensureReady())) return null;
    const target = embedder;
    const gen = generation;
    if (!target) return null;
    try {
      const vectors = await target.embed(texts, kind, signal);
      return gen === generation ? vectors : null;
    } catch (e) {
      // Ollama stopped, or the model was removed: fall back to keyword search until it is back.
      if (e instanceof MnemoError && e.code === 'EMBEDDER_UNAVAILABLE' && gen === generation) {
        markUnavailable(e, target);
        return null;
      }
      throw e;
    }
  }

  function requireFactory(what: string): EmbedderFactory {
    if (!factory) throw new MnemoError('CONFLICT', `This Mnemo was started without embedding providers, so it cannot ${what}.`);
    return factory;
  }

  function localModelName(): string {
    const modelId = embedder?.modelId ?? '';
    if (!modelId.startsWith('onnx:')) {
      throw new MnemoError(
        'CONFLICT',
        embedder && modelId.startsWith('openai:')
          ? `The embedding model "${modelId}" is served by your model server; download it there instead.`
          : embedder
          ? `The embedding model "${modelId}" is served by Ollama; install it with "ollama pull ${modelId.replace(/^ollama:/, '')}" instead.`
          : 'No local embedding model is configured; choose the "onnx" embedding provider first.',
      );
    }
    return modelId.slice('onnx:'.length);
  }

  /** Waits until no download and no load is running (each may have started while waiting for the other). */
  async function settle(): Promise<void> {
    for (;;) {
      if (downloading) {
        downloading.controller.abort();
        await downloading.done.catch(() => undefined);
      } else if (loading) {
        await loading;
      } else {
        return;
      }
    }
  }

  async function runDownload(model: string, make: EmbedderFactory, controller: AbortController): Promise<EmbeddingStatus> {
    const target = embedder as Embedder;
    const gen = generation;
    // Said before anything else, so every download a caller starts is seen to begin, then to end (ready or
    // unavailable); loads that finish meanwhile leave this state alone (see ensureReady).
    setStatus({ ...base(target), state: 'downloading', reason: null, reasonParams: {}, message: `Downloading the embedding model "${model}".` });
    let present: boolean;
    let failure: unknown = null;
    try {
      // A load already running must finish before the download changes transformers' process-wide settings.
      await loading;
      // The files may be there already (copied by hand, shipped with the app): then nothing is fetched.
      present = !controller.signal.aborted && (await target.load().then(() => true, () => false));
      if (!present && !controller.signal.aborted && gen === generation) {
        const downloader = make.createDownloader(model, (p) => notify(progressListeners, { modelId: target.modelId, ...p }));
        try {
          await downloader.load(controller.signal);
        } catch (e) {
          failure = e;
        } finally {
          await downloader.dispose().catch((e: unknown) => logger.warn('releasing the downloaded model failed', { error: (e as Error).message }));
        }
      }
    } finally {
      downloading = null;
    }
    if (gen !== generation) return current;
    if (present) {
      setStatus({ ...base(target), state: 'ready', dimensions: target.dimensions, reason: null, reasonParams: {}, message: null });
      return current;
    }
    if (failure && !(failure instanceof MnemoError && failure.code === 'ABORTED')) {
      logger.warn('model download failed', { modelId: target.modelId, reason: (failure as MnemoError).details?.reason ?? null });
      markUnavailable(failure, target);
      return current;
    }
    // Done or cancelled: load from disk only, which is also what tells whether every file is there.
    setStatus(pending(target));
    await ensureReady();
    return current;
  }

  const service: EmbeddingService = {
    status: () => current,
    ensureReady,

    async embedQuery(text, signal) {
      // The cache only ever holds vectors of the current model (it is emptied on a switch).
      const hit = cache.get(text);
      if (hit) {
        cache.delete(text);
        cache.set(text, hit);
        return hit;
      }
      const gen = generation;
      const vector = (await embedWith([text], 'query', signal))?.[0] ?? null;
      if (!vector || gen !== generation) return null;
      cache.set(text, vector);
      if (cache.size > cacheSize) cache.delete(cache.keys().next().value as string);
      return vector;
    },

    async embedPassages(texts, signal) {
      if (texts.length === 0) return (await ensureReady()) ? [] : null;
      return embedWith(texts, 'passage', signal);
    },

    onStatusChange(listener) {
      statusListeners.add(listener);
      return () => statusListeners.delete(listener);
    },

    switchModel(provider, model) {
      const make = requireFactory('switch models');
      const run = async (): Promise<EmbeddingStatus> => {
        if (disposed) throw new MnemoError('SHUTTING_DOWN', 'Mnemo is shutting down; the model was not switched.');
        const next = make.create(provider, model);
        if (embedder && next.modelId === embedder.modelId) {
          await next.dispose();
          await ensureReady();
          return current;
        }
        await settle();
        // No await from here to the swap: nothing can start on the old embedder in between.
        const previous = embedder;
        generation++;
        cache.clear();
        embedder = next;
        setStatus(pending(next));
        await previous?.dispose().catch((e: unknown) => logger.warn('disposing the previous embedder failed', { error: (e as Error).message }));
        await ensureReady();
        notify(changeListeners, { previousModelId: previous?.modelId ?? null, status: current });
        return current;
      };
      // One switch at a time, in the order asked; a failed one does not block the next.
      const result = switching.then(run, run);
      switching = result.catch(() => undefined);
      return result;
    },

    onModelChanged(listener) {
      changeListeners.add(listener);
      return () => changeListeners.delete(listener);
    },

    download(signal) {
      let model: string;
      let make: EmbedderFactory;
      try {
        make = requireFactory('download models');
        if (disposed) throw new MnemoError('SHUTTING_DOWN', 'Mnemo is shutting down; nothing was downloaded.');
        if (downloading) throw new MnemoError('CONFLICT', 'The embedding model is already being downloaded.');
        model = localModelName();
      } catch (e) {
        return Promise.reject(e);
      }
      if (current.state === 'ready') return Promise.resolve(current);
      const controller = new AbortController();
      if (signal) {
        if (signal.aborted) controller.abort(signal.reason);
        else signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true, signal: controller.signal });
      }
      // Aborting our own controller once done also detaches the listener from the caller's signal.
      const done = runDownload(model, make, controller).finally(() => controller.abort());
      downloading = { controller, done };
      return done;
    },

    startDownload() {
      requireFactory('download models');
      if (downloading) return { started: false, status: current };
      localModelName();
      if (current.state === 'ready') return { started: false, status: current };
      service.download().catch((e: unknown) => logger.error('model download failed unexpectedly', { error: (e as Error).message }));
      return { started: true, status: current };
    },

    cancelDownload() {
      if (!downloading) return { cancelled: false };
      downloading.controller.abort();
      return { cancelled: true };
    },

    onDownloadProgress(listener) {
      progressListeners.add(listener);
      return () => progressListeners.delete(listener);
    },

    async dispose() {
      if (disposed) return;
      disposed = true;
      downloading?.controller.abort();
      await downloading?.done.catch(() => undefined);
      await switching;
      await loading;
      cache.clear();
      statusListeners.clear();
      changeListeners.clear();
      progressListeners.clear();
      await embedder?.dispose();
    },
  };
  return service;
}

export function providerOf(modelId: string | null): EmbeddingProvider | null {
  if (modelId?.startsWith('onnx:')) return 'onnx';
  // The "ollama" provider is the chat's model server, Ollama's API or the OpenAI-compatible one (ollama.embedder.ts).
  if (modelId?.startsWith('ollama:') || modelId?.startsWith('openai:')) return 'ollama';
  return null;
}

function base(embedder: Embedder): Pick<EmbeddingStatus, 'provider' | 'modelId' | 'dimensions'> {
  return { provider: providerOf(embedder.modelId), modelId: embedder.modelId, dimensions: null };
}

/** Before the first load attempt of an embedder. */
function pending(embedder: Embedder): EmbeddingStatus {
  return { ...base(embedder), state: 'loading', reason: null, reasonParams: {}, message: null };
}

const KNOWN_REASONS: ReadonlySet<string> = new Set(EMBEDDING_OFF_REASONS);

/** The embedder's reason (details.reason), as the contract knows it: anything else is a load that failed. */
function offReason(e: unknown): EmbeddingOffReason {
  // The consent rule (shared/model-server-address.ts) refuses before anything is sent.
  if (e instanceof MnemoError && e.code === 'FORBIDDEN') return 'remote_unconfirmed';
  const reason = e instanceof MnemoError ? e.details?.reason : undefined;
  return typeof reason === 'string' && KNOWN_REASONS.has(reason) ? (reason as EmbeddingOffReason) : 'load_failed';
}

/** What the reason is about, from the embedder's error details (the model's name always, from its id). */
function reasonParams(e: unknown, of: Embedder): EmbeddingReasonParams {
  const details = e instanceof MnemoError ? (e.details ?? {}) : {};
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const params: EmbeddingReasonParams = { model: of.modelId.replace(/^(?:onnx|ollama|openai):/, '') };
  const host = text(details.host);
  const folder = text(details.modelDir);
  if (host) params.host = host;
  if (folder) params.folder = folder;
  if (Array.isArray(details.missing) && details.missing.length > 0) params.missing = details.missing.map(String);
  return params;
}

function sameStatus(a: EmbeddingStatus, b: EmbeddingStatus): boolean {
  return (
    a.state === b.state &&
    a.provider === b.provider &&
    a.modelId === b.modelId &&
    a.dimensions === b.dimensions &&
    a.reason === b.reason &&
    JSON.stringify(a.reasonParams) === JSON.stringify(b.reasonParams) &&
    a.message === b.message
  );
}
