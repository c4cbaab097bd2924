/**
 * The task prefixes an embedding model was trained with, from the models' cards: the one rule for every embedder
 * (local ONNX, in a worker or not, and Ollama). A model not known gets none: a prefix a model never saw in training
 * moves its vectors (all-MiniLM-L6-v2, for one, expects plain text).
 *
 * Matched on the model's own name: the last path segment, without an Ollama tag ("Xenova/multilingual-e5-small",
 * "intfloat/e5-base-v2", "nomic-embed-text:latest").
 */
export interface TaskPrefixes {
  query: string;
  passage: string;
}

export const E5_PREFIXES: TaskPrefixes = Object.freeze({ query: 'query: ', passage: 'passage: ' });
const NO_PREFIXES: TaskPrefixes = Object.freeze({ query: '', passage: '' });

const KNOWN: ReadonlyArray<readonly [RegExp, TaskPrefixes]> = [
  [/(^|-)e5-(small|base|large)/i, E5_PREFIXES],
  [/^nomic-embed-text/i, Object.freeze({ query: 'search_query: ', passage: 'search_document: ' })],
  [/^mxbai-embed-large/i, Object.freeze({ query: 'Represent this sentence for searching relevant passages: ', passage: '' })],
];

export function taskPrefixes(model: string): TaskPrefixes {
  const name = model.slice(model.lastIndexOf('/') + 1).replace(/:[^:]*$/, '');
  return KNOWN.find(([pattern]) => pattern.test(name))?.[1] ?? NO_PREFIXES;
}
