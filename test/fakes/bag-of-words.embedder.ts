/**
 * A deterministic Embedder for tests: a hashed bag of words. Each search term of a text (words, CJK bigrams: the same
 * terms FTS sees, from fts-text.ts) adds 1 to one of `dimensions` buckets, and the vector is L2-normalized, so texts
 * sharing terms are similar and texts sharing none have similarity 0 (up to bucket collisions).
 *
 * `concepts` maps words to a shared concept before hashing ("espresso" and "coffee" -> "coffee"): what makes a
 * semantic match that keyword search cannot find, the one thing a real model adds that tests need.
 */
import { MnemoError } from '../../shared/errors';
import type { EmbeddingKind, Embedder } from '../../electron/core/embedding/embedder.port';
import { searchTerms } from '../../electron/core/text/fts-text';

export interface BagOfWordsOptions {
  modelId?: string;
  dimensions?: number;
  concepts?: Record<string, string>;
  /** load() fails with EMBEDDER_UNAVAILABLE and this reason. */
  unavailable?: string;
  /**
   * A slow embedding model: query embeddings wait for this before answering (passages do not), so a test decides when
   * a question's vector arrives (never, or after a check) without a timer.
   */
  queryGate?: () => Promise<void>;
}

export interface BagOfWordsEmbedder extends Embedder {
  /** Texts embedded so far, per kind (the fake's only observable state). */
  readonly embedded: { query: number; passage: number };
}

function bucket(term: string, dimensions: number): number {
  let h = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < term.length; i++) {
    h ^= term.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % dimensions;
}

export function bagOfWordsVector(text: string, dimensions: number, concepts: Record<string, string> = {}): Float32Array {
  const v = new Float32Array(dimensions);
  for (const term of searchTerms(text)) v[bucket(concepts[term] ?? term, dimensions)]! += 1;
  let norm = 0;
  for (const x of v) norm += x * x;
  if (norm === 0) {
    v[dimensions - 1] = 1; // nothing searchable: a fixed unit vector, so cosine stays defined
    return v;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < v.length; i++) v[i]! *= inv;
  return v;
}

export function createBagOfWordsEmbedder(options: BagOfWordsOptions = {}): BagOfWordsEmbedder {
  const dims = options.dimensions ?? 384;
  const embedded = { query: 0, passage: 0 };
  let loaded = false;
  return {
    modelId: options.modelId ?? `test:bag-of-words-${dims}`,
    get dimensions() {
      return dims;
    },
    embedded,
    load() {
      if (options.unavailable) {
        return Promise.reject(
          new MnemoError('EMBEDDER_UNAVAILABLE', 'The test embedder is switched off.', { details: { reason: options.unavailable } }),
        );
      }
      loaded = true;
      return Promise.resolve();
    },
    embed(texts: string[], kind: EmbeddingKind) {
      if (!loaded) return Promise.reject(new Error('embed() before load()'));
      embedded[kind] += texts.length;
      const vectors = texts.map((t) => bagOfWordsVector(t, dims, options.concepts));
      return kind === 'query' && options.queryGate ? options.queryGate().then(() => vectors) : Promise.resolve(vectors);
    },
    dispose: () => Promise.resolve(),
  };
}
