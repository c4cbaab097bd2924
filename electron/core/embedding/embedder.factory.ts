/**
 * Which embedder the user chose (settings: embeddingProvider, embeddingModel), built for the composition root and for
 * the embedding service when the user switches model or downloads the local one. Building never loads anything
 * and never throws: a choice that cannot work becomes an embedder whose load() says why.
 */
import type { Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { LlmPort } from '../llm/llm.port';
import type { Paths } from '../ports/paths.port';
import type { DownloadProgress } from './download-progress';
import type { Embedder } from './embedder.port';
import { createOllamaEmbedder } from './ollama.embedder';
import { createOnnxEmbedder, DEFAULT_MODEL_HUB, modelFolder, normalizeHubUrl } from './onnx.embedder';
import { createOnnxWorkerEmbedder, onnxWorkerEntry } from './onnx-worker.embedder';

/** Where the local model runs: a worker thread (default), or the thread that asks (the benchmarks' "before"). */
export type LocalEmbeddingThread = 'worker' | 'in-process';

export type EmbeddingProvider = Settings['embeddingProvider'];

export interface EmbedderFactoryDeps {
  /** Where local models live: MNEMO_MODELS_DIR, else <data folder>/models (paths.modelsDir). */
  modelsDir: string;
  /** For the Ollama provider; a getter follows the Ollama host in settings. */
  llm: LlmPort | (() => LlmPort);
  /** Where downloads of the local model come from. Default: the Hugging Face Hub. */
  modelHub?: string;
  /** Default 'worker'; a build without the worker's file runs the model in-process (slower to answer, same vectors). */
  localThread?: LocalEmbeddingThread;
}

export interface EmbedderFactory {
  create(provider: EmbeddingProvider, model: string): Embedder;
  /** The local model, allowed to fetch its missing files from the hub (only when the user asked for a download). */
  createDownloader(model: string, onProgress: (progress: DownloadProgress) => void): Embedder;
}

/** The hub for local model downloads: HF_ENDPOINT (the variable Hugging Face's own tools read for mirrors), else the Hub. */
export function resolveModelHub(env: NodeJS.ProcessEnv = process.env): string {
  return env.HF_ENDPOINT?.trim() || DEFAULT_MODEL_HUB;
}

export function createEmbedderFactory(deps: EmbedderFactoryDeps): EmbedderFactory {
  const { modelsDir, llm } = deps;
  const hub = deps.modelHub ?? DEFAULT_MODEL_HUB;

  function guarded(modelId: string, build: () => Embedder): Embedder {
    try {
      return build();
    } catch (e) {
      return unusableEmbedder(modelId, e);
    }
  }

  return {
    create(provider, model) {
      if (provider === 'ollama') return guarded(`ollama:${model}`, () => createOllamaEmbedder({ llm, model }));
      return guarded(`onnx:${model}`, () => {
        const entry = deps.localThread === 'in-process' ? null : onnxWorkerEntry();
        return entry ? createOnnxWorkerEmbedder({ modelsDir, modelName: model, entry }) : createOnnxEmbedder({ modelsDir, modelName: model });
      });
    },
    createDownloader(model, onProgress) {
      return guarded(`onnx:${model}`, () => {
        modelFolder(modelsDir, model); // refuses a name that would leave the models folder, before any request
        return createOnnxEmbedder({ modelsDir, modelName: model, allowRemote: true, remoteHost: normalizeHubUrl(hub), onProgress });
      });
    },
  };
}

/** The embedder the settings ask for; the composition root calls this once, the service's switchModel later. */
export function createDefaultEmbedder(deps: {
  settings: Pick<Settings, 'embeddingProvider' | 'embeddingModel'>;
  paths: Pick<Paths, 'modelsDir'>;
  llm: LlmPort | (() => LlmPort);
  modelHub?: string;
  localThread?: LocalEmbeddingThread;
}): Embedder {
  const factory = createEmbedderFactory({
    modelsDir: deps.paths.modelsDir,
    llm: deps.llm,
    ...(deps.modelHub === undefined ? {} : { modelHub: deps.modelHub }),
    ...(deps.localThread === undefined ? {} : { localThread: deps.localThread }),
  });
  return factory.create(deps.settings.embeddingProvider, deps.settings.embeddingModel);
}

/** Stands in for a choice that cannot be built (e.g. a model name that is not a name): load() says why. */
function unusableEmbedder(modelId: string, cause: unknown): Embedder {
  const why = cause instanceof Error ? cause.message : String(cause);
  const hubProblem = cause instanceof MnemoError && cause.path === 'remoteHost';
  return {
    modelId,
    dimensions: 0,
    load: () =>
      Promise.reject(
        new MnemoError(
          'EMBEDDER_UNAVAILABLE',
          hubProblem
            ? `The model hub address cannot be used: ${why} Fix or unset HF_ENDPOINT.`
            : `The embedding model "${modelId}" cannot be used: ${why} Choose another one in the settings.`,
          { details: { reason: hubProblem ? 'invalid_hub' : 'invalid_model' }, cause },
        ),
      ),
    embed: () =>
      Promise.reject(
        new MnemoError('EMBEDDER_UNAVAILABLE', 'The embedding model is not loaded.', { details: { reason: 'not_loaded' } }),
      ),
    dispose: () => Promise.resolve(),
  };
}
