/**
 * The embedder port: turns text into vectors. Providers: local ONNX through @huggingface/transformers (default)
 * and Ollama /api/embed. The core never knows which one it has.
 */
export type EmbeddingKind = 'query' | 'passage';

export interface Embedder {
  /** Stable id recorded with every vector, e.g. "onnx:Xenova/multilingual-e5-small" or "ollama:nomic-embed-text". */
  readonly modelId: string;
  /** Vector length; known after load(). */
  readonly dimensions: number;
  /** Loads the model (may take seconds); throws MnemoError EMBEDDER_UNAVAILABLE with a clear reason when it cannot. */
  load(signal?: AbortSignal): Promise<void>;
  /** Normalized vectors, one per input, in order. E5-style models get "query: " / "passage: " prefixes here. */
  embed(texts: string[], kind: EmbeddingKind, signal?: AbortSignal): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}
