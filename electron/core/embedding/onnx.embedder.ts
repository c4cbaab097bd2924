/**
 * The local embedder: a sentence-embedding model in ONNX format (default Xenova/multilingual-e5-small), run in-process
 * by @huggingface/transformers on onnxruntime-node's CPU backend.
 *
 * Offline by construction: unless the caller passes allowRemote (the user asked for a download), the model is loaded
 * from its absolute folder path, which transformers.js treats as a path rather than a Hub id and so never turns into
 * a request (https://github.com/huggingface/transformers.js/pull/1268), with env.allowRemoteModels off as a second
 * guard. A missing model fails before transformers.js or onnxruntime are even imported.
 *
 * A download (allowRemote) fetches from `remoteHost` (the Hub, or a mirror such as the one HF_ENDPOINT names) with the
 * URL layout {remoteHost}/{owner}/{name}/resolve/main/{file}, reports progress over all files, and stops when the
 * load's signal is aborted; files already complete stay, so the next attempt fetches only what is missing.
 */
import { statSync } from 'node:fs';
import path from 'node:path';

import { MnemoError } from '../../../shared/errors';
import { createDownloadProgress, type DownloadProgress } from './download-progress';
import type { Embedder, EmbeddingKind } from './embedder.port';

// Types only: the library itself (and with it onnxruntime's native binding) is imported when a model is loaded.
import type * as Transformers from '@huggingface/transformers';
import { taskPrefixes } from './model-prefixes';

type FeatureExtractionPipeline = Transformers.FeatureExtractionPipeline;

export type OnnxDtype = 'q8' | 'fp32';

export interface OnnxEmbedderOptions {
  /** The folder holding models as <modelsDir>/<owner>/<name>/ (MNEMO_MODELS_DIR in the app). */
  modelsDir: string;
  /** Hugging Face style id, e.g. 'Xenova/multilingual-e5-small'; also its sub-path under modelsDir. */
  modelName: string;
  /** 'q8' loads onnx/model_quantized.onnx (default), 'fp32' loads onnx/model.onnx. */
  dtype?: OnnxDtype;
  /** Text put before each input; E5 models are trained with these and score worse without them. */
  prefixes?: { query: string; passage: string };
  /** Download missing files from the Hugging Face Hub into modelsDir. Default false: only when the user asked. */
  allowRemote?: boolean;
  /** Where downloads come from (with allowRemote). Default DEFAULT_MODEL_HUB. */
  remoteHost?: string;
  /** Download progress over all of the model's files (with allowRemote). */
  onProgress?: (progress: DownloadProgress) => void;
  /** Texts per forward pass; bounds peak memory, and abort is checked between batches. Default 16. */
  batchSize?: number;
}

export const DEFAULT_ONNX_MODEL = 'Xenova/multilingual-e5-small';

export const DEFAULT_MODEL_HUB = 'https://huggingface.co/';

/** transformers.js's own default, set on every load because its env is process-wide. */
const HUB_PATH_TEMPLATE = '{model}/resolve/{revision}/';

const DEFAULT_BATCH_SIZE = 16;

/** Where transformers.js v4 looks for each dtype's weights (DEFAULT_DTYPE_SUFFIX_MAPPING in its utils/dtypes.js). */
const MODEL_FILES: Record<OnnxDtype, string> = {
  q8: 'onnx/model_quantized.onnx',
  fp32: 'onnx/model.onnx',
};

/**
 * The files the feature-extraction pipeline reads. tokenizer_config.json is not optional: transformers.js only loads
 * a tokenizer when that file exists, and a pipeline without one fails on the first text.
 */
export function requiredModelFiles(dtype: OnnxDtype = 'q8'): string[] {
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', MODEL_FILES[dtype]];
}

/**
 * "name" or "owner/name", Hub style. No segment is empty or starts with a dot (so none is "." or ".."), and there is
 * no leading slash: the folder always stays inside modelsDir.
 */
const MODEL_NAME = /^[\w-][\w.-]*(\/[\w-][\w.-]*)?$/;

export function isValidModelName(modelName: string): boolean {
  return MODEL_NAME.test(modelName);
}

/** An http(s) base URL with exactly one trailing slash, as transformers.js joins it with the model path. */
export function normalizeHubUrl(url: string): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') {
    throw new MnemoError('INVALID_INPUT', `"${url}" is not an http(s) address of a model hub.`, { path: 'remoteHost' });
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}/`;
}

/** The folder a model lives in: <modelsDir>/<owner>/<name>. */
export function modelFolder(modelsDir: string, modelName: string): string {
  if (!isValidModelName(modelName)) {
    throw new MnemoError('INVALID_INPUT', `"${modelName}" is not a model name like "owner/name".`, {
      path: 'modelName',
    });
  }
  return path.resolve(modelsDir, ...modelName.split('/'));
}

/** The required files that are absent or empty in the model's folder ([] when it looks complete). */
export function missingModelFiles(modelsDir: string, modelName: string, dtype: OnnxDtype = 'q8'): string[] {
  const dir = modelFolder(modelsDir, modelName);
  return requiredModelFiles(dtype).filter((file) => {
    const stat = statSync(path.join(dir, file), { throwIfNoEntry: false });
    return !(stat?.isFile() && stat.size > 0);
  });
}

/**
 * The model's folder when every file the pipeline needs is there, otherwise null. Reads only file metadata: cheap,
 * and does not load onnxruntime, so settings screens can call it.
 */
export function findLocalModel(modelsDir: string, modelName: string, dtype: OnnxDtype = 'q8'): string | null {
  if (!isValidModelName(modelName)) return null;
  return missingModelFiles(modelsDir, modelName, dtype).length === 0 ? modelFolder(modelsDir, modelName) : null;
}

/** The error of a load whose model files are not in the models folder (a cheap check: file existence only). */
export function modelMissing(modelsDir: string, modelName: string, dtype: OnnxDtype = 'q8'): MnemoError {
  const modelDir = modelFolder(path.resolve(modelsDir), modelName);
  const missing = missingModelFiles(modelsDir, modelName, dtype);
  return new MnemoError(
    'EMBEDDER_UNAVAILABLE',
    `The embedding model "${modelName}" is not installed: ${modelDir} is missing ${missing.join(', ')}. ` +
      `Download it from Mnemo's settings, or copy the model folder to ${modelDir} ` +
      `(the models folder is set by MNEMO_MODELS_DIR).`,
    { details: { reason: 'model_missing', modelsDir: path.resolve(modelsDir), modelDir, missing } },
  );
}

export function createOnnxEmbedder(opts: OnnxEmbedderOptions): Embedder {
  const dtype = opts.dtype ?? 'q8';
  const prefixes = opts.prefixes ?? taskPrefixes(opts.modelName);
  const allowRemote = opts.allowRemote ?? false;
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  const modelsDir = path.resolve(opts.modelsDir);
  const remoteHost = normalizeHubUrl(opts.remoteHost ?? DEFAULT_MODEL_HUB);
  const { modelName, onProgress } = opts;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new MnemoError('INVALID_INPUT', `batchSize must be a positive integer, got ${batchSize}.`, {
      path: 'batchSize',
    });
  }
  const modelDir = modelFolder(modelsDir, modelName);

  let extractor: FeatureExtractionPipeline | null = null;
  let loading: Promise<void> | null = null;
  let dimensions = 0;
  /** Forward passes in flight: dispose() lets them finish before it releases the session they run on. */
  const running = new Set<Promise<unknown>>();

  async function run(pipe: FeatureExtractionPipeline, texts: string[]): Promise<Float32Array[]> {
    const pending = pipe(texts, { pooling: 'mean', normalize: true });
    running.add(pending);
    const output = await pending.finally(() => running.delete(pending));
    try {
      const [rows, dims] = output.dims;
      const data = output.data;
      if (rows !== texts.length || dims === undefined || !(data instanceof Float32Array)) {
        throw new MnemoError('INTERNAL', `Unexpected embedding output of shape [${output.dims.join(', ')}].`);
      }
      // Copies: the rows must outlive the output tensor.
      return Array.from({ length: rows }, (_, i) => data.slice(i * dims, (i + 1) * dims));
    } finally {
      output.dispose();
    }
  }

  async function load(signal?: AbortSignal): Promise<void> {
    throwIfAborted(signal);
    const local = findLocalModel(modelsDir, modelName, dtype);
    if (!local && !allowRemote) throw modelMissing(modelsDir, modelName, dtype);

    let transformers: typeof Transformers;
    try {
      transformers = await import('@huggingface/transformers');
    } catch (cause) {
      throw new MnemoError(
        'EMBEDDER_UNAVAILABLE',
        `The local embedding runtime (onnxruntime) could not be loaded: ${errorText(cause)}`,
        { details: { reason: 'runtime_unavailable', modelsDir }, cause },
      );
    }

    // transformers.js keeps these settings in one process-wide object, read during loading. Mnemo builds one local
    // embedder per core, so setting them here, right before the pipeline reads them, is the whole story.
    const { env } = transformers;
    env.allowLocalModels = true;
    env.allowRemoteModels = allowRemote;
    env.localModelPath = modelsDir;
    // Downloads (only with allowRemote) are written by the file cache under cacheDir, with the same <owner>/<name>
    // layout as local models, so a downloaded model is found by findLocalModel next time. Nothing else on disk.
    env.cacheDir = modelsDir;
    env.useFSCache = allowRemote;
    env.useBrowserCache = false;
    env.remoteHost = remoteHost;
    env.remotePathTemplate = HUB_PATH_TEMPLATE;

    // transformers.js takes no AbortSignal, but it fetches through env.fetch: binding the signal there for the
    // duration of a download makes abort stop every request of it, and the file cache then removes its temp files.
    const unbindFetch = allowRemote && signal ? bindFetch(env, signal) : () => undefined;
    let pipe: FeatureExtractionPipeline;
    try {
      pipe = await transformers.pipeline('feature-extraction', local ?? modelName, {
        dtype,
        device: 'cpu',
        local_files_only: !allowRemote,
        cache_dir: modelsDir,
        ...(allowRemote && onProgress ? { progress_callback: createDownloadProgress(onProgress) } : {}),
      });
    } catch (cause) {
      throwIfAborted(signal);
      const notFound = cause instanceof transformers.ModelFileNotFoundError;
      // A download that failed for another reason (no network, hub error) leaves files missing; a model that
      // is all there but does not load is a different problem with a different fix.
      const downloadFailed = allowRemote && !notFound && missingModelFiles(modelsDir, modelName, dtype).length > 0;
      throw new MnemoError(
        'EMBEDDER_UNAVAILABLE',
        notFound
          ? `Files of the embedding model "${modelName}" were not found ` +
              `${allowRemote ? `locally or on ${remoteHost}` : `in ${modelDir}`}: ${errorText(cause)}`
          : downloadFailed
            ? `The embedding model "${modelName}" could not be downloaded from ${remoteHost}: ${errorText(cause)}. ` +
              'Check the internet connection (or the HF_ENDPOINT mirror) and try again; files already fetched are kept.'
            : `The embedding model "${modelName}" could not be loaded from ${modelDir}: ${errorText(cause)}`,
        {
          details: { reason: notFound ? 'model_missing' : downloadFailed ? 'download_failed' : 'load_failed', modelsDir, modelDir },
          cause,
        },
      );
    } finally {
      unbindFetch();
    }

    try {
      throwIfAborted(signal);
      // The vector length is whatever the model produces; reading it from a real output means config files that
      // disagree with the weights cannot mislead us. The run also fails here, not on the first memory, when the
      // graph does not take BERT's inputs.
      const [probe] = await run(pipe, ['warm-up']);
      if (!probe?.length) throw new Error('the model produced an empty vector');
      dimensions = probe.length;
      extractor = pipe;
    } catch (e) {
      await pipe.dispose();
      if (e instanceof MnemoError) throw e;
      throw new MnemoError(
        'EMBEDDER_UNAVAILABLE',
        `The embedding model "${modelName}" loaded but could not embed: ${errorText(e)}`,
        { details: { reason: 'load_failed', modelsDir, modelDir }, cause: e },
      );
    }
  }

  return {
    modelId: `onnx:${modelName}`,
    get dimensions() {
      return dimensions;
    },

    load(signal) {
      if (extractor) return Promise.resolve();
      // Concurrent callers share one load; a failed load can be retried.
      loading ??= load(signal).finally(() => {
        loading = null;
      });
      return loading;
    },

    async embed(texts: string[], kind: EmbeddingKind, signal?: AbortSignal): Promise<Float32Array[]> {
      const prefix = kind === 'query' ? prefixes.query : prefixes.passage;
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        throwIfAborted(signal);
        if (!extractor) {
          throw new MnemoError('EMBEDDER_UNAVAILABLE', 'The local embedding model is not loaded.', {
            details: { reason: 'not_loaded', modelsDir },
          });
        }
        const batch = texts.slice(start, start + batchSize).map((t) => prefix + t);
        vectors.push(...(await run(extractor, batch)));
      }
      return vectors;
    },

    async dispose() {
      await loading?.catch(() => undefined);
      const pipe = extractor;
      extractor = null;
      dimensions = 0;
      await Promise.allSettled(running);
      await pipe?.dispose();
    },
  };
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new MnemoError('ABORTED', 'The embedder was cancelled.', { cause: signal.reason });
  }
}

/** Makes every env.fetch call also stop on `signal`; returns the undo. */
function bindFetch(env: typeof Transformers.env, signal: AbortSignal): () => void {
  const original = env.fetch;
  const bound: typeof env.fetch = (input, init?: RequestInit) =>
    original(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
  env.fetch = bound;
  return () => {
    // Only undo our own binding: a load that started later may have put its own in place since.
    if (env.fetch === bound) env.fetch = original;
  };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
