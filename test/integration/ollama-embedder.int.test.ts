/**
 * The Ollama embedder through the real LLM adapter, against the fake Ollama server (the wire is real, the model fake).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { createOllamaEmbedder } from '../../electron/core/embedding/ollama.embedder';
import type { Embedder } from '../../electron/core/embedding/embedder.port';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import type { LlmPort } from '../../electron/core/llm/llm.port';
import { MnemoError } from '../../shared/errors';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';

const DIMS = 12;

let fake: FakeOllama;
let llm: LlmPort;

beforeAll(async () => {
  fake = await startFakeOllama({ embedDim: DIMS });
  llm = createOllamaLlm({ host: fake.url, metadataTimeoutMs: 2_000 });
});

afterEach(async () => {
  fake.setFault(null);
  await fake.restart();
});

afterAll(async () => {
  await fake.close();
});

function embedRequests(from: number): Array<{ model: string; input: string[] }> {
  return fake.requests
    .slice(from)
    .filter((r) => r.path === '/api/embed')
    .map((r) => r.body as { model: string; input: string[] });
}

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}

async function loadError(embedder: Embedder): Promise<MnemoError> {
  const error: unknown = await embedder.load().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MnemoError);
  return error as MnemoError;
}

describe('the Ollama embedder', () => {
  it('names the model with its tag, and learns the vector length from the first response', async () => {
    const embedder = createOllamaEmbedder({ llm, model: 'nomic-embed-text' });
    expect(embedder.modelId).toBe('ollama:nomic-embed-text:latest');
    expect(embedder.dimensions).toBe(0);
    await embedder.load();
    expect(embedder.dimensions).toBe(DIMS);
    await embedder.dispose();
  });

  it('sends N > 64 texts in ceil(N/64) requests and returns the vectors in input order', async () => {
    const embedder = createOllamaEmbedder({ llm, model: 'nomic-embed-text', prefixes: { query: '', passage: '' } });
    await embedder.load();
    const texts = Array.from({ length: 150 }, (_, i) => `memory number ${i}`);
    const from = fake.requests.length;

    const vectors = await embedder.embed(texts, 'passage');

    const requests = embedRequests(from);
    expect(requests.map((r) => r.input.length)).toEqual([64, 64, 22]);
    expect(requests.flatMap((r) => r.input)).toEqual(texts);
    expect(vectors).toHaveLength(150);
    // Each vector is the one the server makes for that text alone: order survived the batching.
    const singles = await Promise.all([0, 63, 64, 149].map(async (i) => (await embedder.embed([texts[i]!], 'passage'))[0]));
    expect(singles).toEqual([vectors[0], vectors[63], vectors[64], vectors[149]]);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(DIMS);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    await embedder.dispose();
  });

  it("puts the model's task prefixes before queries and passages", async () => {
    const embedder = createOllamaEmbedder({ llm, model: 'nomic-embed-text', batchSize: 2 });
    await embedder.load();
    const from = fake.requests.length;
    await embedder.embed(['where did I park'], 'query');
    await embedder.embed(['I parked on level 3', 'the car is blue', 'tea'], 'passage');
    expect(embedRequests(from).map((r) => r.input)).toEqual([
      ['search_query: where did I park'],
      ['search_document: I parked on level 3', 'search_document: the car is blue'],
      ['search_document: tea'],
    ]);
    await embedder.dispose();
  });

  it('reports a model that is not pulled as model_missing, with the command that installs it', async () => {
    const error = await loadError(createOllamaEmbedder({ llm, model: 'bge-m3' }));
    expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
    expect(error.details).toMatchObject({ reason: 'model_missing', model: 'bge-m3:latest' });
    expect(error.message).toContain('ollama pull bge-m3:latest');
  });

  it('refuses a chat model, which Ollama does not list as an embedding model', async () => {
    const error = await loadError(createOllamaEmbedder({ llm, model: 'llama3.2' }));
    expect(error.details).toMatchObject({ reason: 'not_embedding_model' });
    expect(error.message).toContain('not an embedding model');
  });

  it('reports Ollama not running as ollama_unreachable, and works once it is back', async () => {
    const embedder = createOllamaEmbedder({ llm, model: 'nomic-embed-text' });
    await fake.stop();
    const error = await loadError(embedder);
    expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
    expect(error.details).toMatchObject({ reason: 'ollama_unreachable', host: fake.url });
    expect(error.message).toContain(fake.url);

    await fake.restart();
    await embedder.load();
    expect(embedder.dimensions).toBe(DIMS);
    await embedder.dispose();
  });

  it('says unavailable (not loaded) when Ollama stops after loading, and checks again on the next load', async () => {
    const embedder = createOllamaEmbedder({ llm, model: 'nomic-embed-text' });
    await embedder.load();
    await fake.stop();
    await expect(embedder.embed(['hello'], 'query')).rejects.toMatchObject({
      code: 'EMBEDDER_UNAVAILABLE',
      details: { reason: 'ollama_unreachable' },
    });
    await expect(embedder.load()).rejects.toMatchObject({ details: { reason: 'ollama_unreachable' } });
    await fake.restart();
    await embedder.load();
    await expect(embedder.embed(['hello'], 'query')).resolves.toHaveLength(1);
    await embedder.dispose();
  });

  it('stops between batches when the signal is aborted', async () => {
    const embedder = createOllamaEmbedder({ llm, model: 'nomic-embed-text', batchSize: 1 });
    await embedder.load();
    const controller = new AbortController();
    const from = fake.requests.length;
    const pending = embedder.embed(['one', 'two', 'three'], 'passage', controller.signal);
    await fake.nextRequest('/api/embed');
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    expect(embedRequests(from).length).toBeLessThan(3);
    await embedder.dispose();
  });

  it('refuses to embed before load', async () => {
    const embedder = createOllamaEmbedder({ llm, model: 'nomic-embed-text' });
    await expect(embedder.embed(['x'], 'query')).rejects.toMatchObject({ details: { reason: 'not_loaded' } });
  });
});
