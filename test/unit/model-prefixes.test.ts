import { describe, expect, it } from 'vitest';
import { E5_PREFIXES, taskPrefixes } from '../../electron/core/embedding/model-prefixes';

describe('taskPrefixes: what an embedding model was trained to see before a query and a passage', () => {
  it('E5 models, local or through Ollama, get "query: " / "passage: "', () => {
    for (const name of ['Xenova/multilingual-e5-small', 'intfloat/e5-base-v2', 'jeffh/intfloat-multilingual-e5-large:f16', 'multilingual-e5-small']) {
      expect(taskPrefixes(name), name).toEqual(E5_PREFIXES);
    }
  });

  it("Ollama's nomic and mxbai models get their own, with or without a tag", () => {
    expect(taskPrefixes('nomic-embed-text')).toEqual({ query: 'search_query: ', passage: 'search_document: ' });
    expect(taskPrefixes('nomic-embed-text:latest')).toEqual({ query: 'search_query: ', passage: 'search_document: ' });
    expect(taskPrefixes('mxbai-embed-large:335m').passage).toBe('');
  });

  it('any other model gets none (a prefix it never saw in training would move its vectors)', () => {
    for (const name of ['sentence-transformers/all-MiniLM-L6-v2', 'Xenova/bge-small-en-v1.5', 'all-minilm:l6-v2', 'my-e5ish-model']) {
      expect(taskPrefixes(name), name).toEqual({ query: '', passage: '' });
    }
  });
});
