/**
 * The Ollama embedder: an embedding model served by the chat's model server through the LLM port, for users who
 * prefer one there to the local ONNX model. That server is Ollama (/api/embed), or the OpenAI-compatible server when
 * settings choose one (/v1/embeddings): the embedding provider keeps its name "ollama", and the model id says which
 * API served the vectors ("ollama:nomic-embed-text:latest", "openai:text-embedding-nomic-embed-text-v1.5"), so
 * switching servers re-embeds. The API is read once, when the embedder is built; a server switch builds a new one.
 *
 * Invariants: vectors are L2-normalized Float32Arrays (Ollama normalizes today, but the cosine index must not depend
 * on that); every vector has the length the first response had; inputs go out in batches, in order, with the
 * signal checked between batches. Failures that mean "no semantic search for now" (Ollama not running, model not
 * pulled) become EMBEDDER_UNAVAILABLE with a reason, so the embedding service can fall back to keyword search.
 */
import { MnemoError } from '../../../shared/errors';
import type { LlmPort } from '../llm/llm.port';
import type { Embedder, EmbeddingKind } from './embedder.port';
import { taskPrefixes } from './model-prefixes';

export interface OllamaEmbedderOptions {
  /** The port, or a getter when the host can change (the composition root's LLM provider). */
  llm: LlmPort | (() => LlmPort);
  /** A model name as the server spells it, e.g. "nomic-embed-text" or "bge-m3:567m" in Ollama. */
  model: string;
  /** Texts per /api/embed request. Default 64. */
  batchSize?: number;
  /** Text put before each input. Default: the prefixes the model was trained with, when known (model-prefixes.ts). */
  prefixes?: { query: string; passage: string };
}

export const OLLAMA_EMBED_BATCH_SIZE = 64;

/** Ollama's own spelling of a name: without a tag it means ":latest", so both spellings are one model id. */
export function withDefaultTag(model: string): string {
  const lastSegment = model.slice(model.lastIndexOf('/') + 1);
  return lastSegment.includes(':') ? model : `${model}:latest`;
}

/** A copy scaled to unit length (a zero vector stays zero: there is no direction to keep). */
export function l2Normalize(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values);
  let sum = 0;
  for (const v of out) sum += v * v;
  const norm = Math.sqrt(sum);
  if (norm > 0 && Number.isFinite(norm)) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  return out;
}

export function createOllamaEmbedder(opts: OllamaEmbedderOptions): Embedder {
  if (!opts.model.trim()) throw new MnemoError('INVALID_INPUT', 'An Ollama embedding model needs a name.', { path: 'model' });
  const llm = typeof opts.llm === 'function' ? opts.llm : () => opts.llm as LlmPort;
  const api = llm().api;
  // Only Ollama reads a name without a tag as ":latest"; an OpenAI-compatible server's ids are taken as they are.
  const model = api === 'ollama' ? withDefaultTag(opts.model.trim()) : opts.model.trim();
  const server = api === 'ollama' ? 'Ollama' : 'The model server';
  const batchSize = opts.batchSize ?? OLLAMA_EMBED_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new MnemoError('INVALID_INPUT', `batchSize must be a positive integer, got ${batchSize}.`, { path: 'batchSize' });
  }
  const prefixes = opts.prefixes ?? taskPrefixes(model);
  let dimensions = 0;
  let loaded = false;
  let loading: Promise<void> | null = null;

  async function request(texts: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    let rows: number[][];
    try {
      rows = await llm().embed(model, texts, signal);
    } catch (e) {
      const mapped = unavailable(e, model, llm());
      // Ollama went away or the model was removed: the next load() checks again instead of claiming readiness.
      if (mapped instanceof MnemoError && mapped.code === 'EMBEDDER_UNAVAILABLE') loaded = false;
      throw mapped;
    }
    return rows.map((row) => {
      if (!Array.isArray(row) || row.length === 0 || !row.every((x) => typeof x === 'number' && Number.isFinite(x))) {
        throw new MnemoError('LLM_BAD_OUTPUT', `${server} returned an unusable embedding from "${model}".`, { details: { model } });
      }
      dimensions ||= row.length;
      if (row.length !== dimensions) {
        throw new MnemoError(
          'LLM_BAD_OUTPUT',
          `${server} returned a ${row.length}-dimensional vector from "${model}", which made ${dimensions}-dimensional ones before.`,
          { details: { model } },
        );
      }
      return l2Normalize(row);
    });
  }

  async function load(signal?: AbortSignal): Promise<void> {
    throwIfAborted(signal);
    let capabilities: string[];
    try {
      capabilities = (await llm().showModel(model, signal)).capabilities;
    } catch (e) {
      throw unavailable(e, model, llm());
    }
    // Older Ollama versions, and most OpenAI-compatible servers, report no capabilities; then only the probe below can tell.
    if (capabilities.length > 0 && !capabilities.includes('embedding')) {
      throw new MnemoError(
        'EMBEDDER_UNAVAILABLE',
        `"${model}" is not an embedding model (${server === 'Ollama' ? 'Ollama' : 'the model server'} lists it as ${capabilities.join(', ')}). ` +
          (api === 'ollama' ? 'Choose one such as nomic-embed-text or bge-m3, and install it with "ollama pull <name>".' : 'Choose an embedding model the server offers, such as nomic-embed-text.'),
        { details: { reason: 'not_embedding_model', model } },
      );
    }
    // The first response fixes the vector length (and makes Ollama load the model now rather than on first use).
    await request(['warm-up'], signal);
    loaded = true;
  }

  return {
    modelId: `${api}:${model}`,
    get dimensions() {
      return dimensions;
    },
    load(signal) {
      if (loaded) return Promise.resolve();
      loading ??= load(signal).finally(() => {
        loading = null;
      });
      return loading;
    },
    async embed(texts: string[], kind: EmbeddingKind, signal?: AbortSignal): Promise<Float32Array[]> {
      if (!loaded) {
        throw new MnemoError('EMBEDDER_UNAVAILABLE', `The embedding model "${model}" is not loaded.`, {
          details: { reason: 'not_loaded', model },
        });
      }
      const prefix = kind === 'query' ? prefixes.query : prefixes.passage;
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        throwIfAborted(signal);
        vectors.push(...(await request(texts.slice(start, start + batchSize).map((t) => prefix + t), signal)));
      }
      return vectors;
    },
    async dispose() {
      await loading?.catch(() => undefined);
      loaded = false;
      dimensions = 0;
    },
  };
}

/** The LLM port's failures, as the embedder port reports them. */
function unavailable(e: unknown, model: string, port: LlmPort): unknown {
  if (!(e instanceof MnemoError)) return e;
  if (e.code === 'MODEL_NOT_FOUND') {
    return new MnemoError(
      'EMBEDDER_UNAVAILABLE',
      port.api === 'ollama'
        ? `The embedding model "${model}" is not installed in Ollama. Install it with "ollama pull ${model}".`
        : `The embedding model "${model}" is not available from the model server at ${port.host}. Load it there (llama-server: start one with --embedding and that model), or choose one the server lists.`,
      { details: { reason: 'model_missing', model }, cause: e },
    );
  }
  if (e.code === 'OLLAMA_UNREACHABLE' || e.code === 'LLM_UNREACHABLE') {
    return new MnemoError('EMBEDDER_UNAVAILABLE', e.message, {
      details: { reason: e.code === 'OLLAMA_UNREACHABLE' ? 'ollama_unreachable' : 'server_unreachable', host: port.host, model },
      cause: e,
    });
  }
  return e;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new MnemoError('ABORTED', 'The embedder was cancelled.', { cause: signal.reason });
}
