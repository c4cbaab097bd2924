/**
 * The local embedder on its real path: transformers.js reads a model folder from disk and onnxruntime-node runs it.
 * The model is the tiny one test/fakes/tiny-onnx-model.ts generates, laid out like Xenova/multilingual-e5-small.
 */
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { env as transformersEnv } from '@huggingface/transformers';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';

import {
  createOnnxEmbedder,
  findLocalModel,
  missingModelFiles,
} from '../../electron/core/embedding/onnx.embedder';
import type { Embedder } from '../../electron/core/embedding/embedder.port';
import { MnemoError } from '../../shared/errors';
import { writeTinyEmbeddingModel, type TinyEmbeddingModel } from '../fakes/tiny-onnx-model';

const DIMS = 48;

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}

function cosine(a: Float32Array, b: Float32Array): number {
  return a.reduce((s, x, i) => s + x * (b[i] ?? 0), 0) / (norm(a) * norm(b));
}

function expectClose(actual: Float32Array, expected: Float32Array): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((x, i) => expect(x).toBeCloseTo(expected[i] ?? NaN, 6));
}

async function loadError(embedder: Embedder): Promise<MnemoError> {
  const error: unknown = await embedder.load().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MnemoError);
  return error as MnemoError;
}

let tmp: string;
// transformers.js captures fetch when it is imported (env.fetch), so both are watched.
let fetchSpies: MockInstance[];

beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'mnemo-onnx-'));
  fetchSpies = [vi.spyOn(globalThis, 'fetch'), vi.spyOn(transformersEnv, 'fetch')];
});

afterEach(() => {
  for (const spy of fetchSpies) expect(spy).not.toHaveBeenCalled();
});

afterAll(async () => {
  vi.restoreAllMocks();
  await rm(tmp, { recursive: true, force: true });
});

describe('the ONNX embedder on the generated tiny model', () => {
  let modelsDir: string;
  let model: TinyEmbeddingModel;
  let embedder: Embedder;

  beforeAll(async () => {
    modelsDir = path.join(tmp, 'models');
    // Named as an E5 model, so it gets E5's task prefixes by default (model-prefixes.ts).
    model = await writeTinyEmbeddingModel(modelsDir, { dims: DIMS, modelName: 'mnemo-test/tiny-e5-small' });
    embedder = createOnnxEmbedder({ modelsDir, modelName: model.modelName });
    await embedder.load();
  });

  afterAll(async () => {
    await embedder.dispose();
  });

  it('finds the model folder without loading it', () => {
    expect(findLocalModel(modelsDir, model.modelName)).toBe(model.modelDir);
    expect(findLocalModel(modelsDir, model.modelName, 'fp32')).toBe(model.modelDir);
    expect(missingModelFiles(modelsDir, model.modelName)).toEqual([]);
  });

  it('reads the vector length from the model output', () => {
    expect(embedder.dimensions).toBe(DIMS);
    expect(embedder.modelId).toBe(`onnx:${model.modelName}`);
  });

  it('runs on the native onnxruntime-node backend, not the WebAssembly one', () => {
    expect(transformersEnv.backends.onnx.versions).toMatchObject({ node: expect.any(String) });
  });

  it('returns unit-length vectors, one per text, in order', async () => {
    const texts = ['hello world', 'I like coffee', 'x', '', 'The quick brown fox jumps over the lazy dog.'];
    const vectors = await embedder.embed(texts, 'passage');
    expect(vectors).toHaveLength(texts.length);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(DIMS);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    const [first] = await embedder.embed([texts[2] ?? ''], 'passage');
    expect(vectors[2]).toEqual(first);
  });

  it('gives identical vectors for identical texts and different ones for different texts', async () => {
    const [a1] = await embedder.embed(['I like coffee'], 'passage');
    const [a2] = await embedder.embed(['I like coffee'], 'passage');
    const [b] = await embedder.embed(['I like tea'], 'passage');
    expect(a1).toEqual(a2);
    expect(cosine(a1!, b!)).toBeLessThan(0.99);
  });

  it('gives the same vectors in one batch, across batches and one text at a time', async () => {
    const texts = ['short', 'a somewhat longer sentence about memory', '42', 'hello', 'tea and coffee and tea'];
    const together = await embedder.embed(texts, 'passage');
    const oneByOne: Float32Array[] = [];
    for (const t of texts) oneByOne.push(...(await embedder.embed([t], 'passage')));

    const smallBatches = createOnnxEmbedder({ modelsDir, modelName: model.modelName, batchSize: 2 });
    await smallBatches.load();
    const inPairs = await smallBatches.embed(texts, 'passage');
    await smallBatches.dispose();

    texts.forEach((_, i) => {
      expectClose(together[i]!, oneByOne[i]!);
      expectClose(inPairs[i]!, oneByOne[i]!);
    });
  });

  it('a model not known to want prefixes gets none: a query and a passage of the same text are one vector', async () => {
    const plainDir = path.join(tmp, 'plain-models');
    const plain = await writeTinyEmbeddingModel(plainDir, { dims: DIMS, modelName: 'mnemo-test/tiny-minilm' });
    const unprefixed = createOnnxEmbedder({ modelsDir: plainDir, modelName: plain.modelName });
    await unprefixed.load();
    const [q] = await unprefixed.embed(['where did I park'], 'query');
    const [p] = await unprefixed.embed(['where did I park'], 'passage');
    await unprefixed.dispose();
    expect(q).toEqual(p);
  });

  it('prefixes queries and passages differently (E5 "query: " / "passage: " for an E5 model)', async () => {
    const [query] = await embedder.embed(['where did I park'], 'query');
    const [passage] = await embedder.embed(['where did I park'], 'passage');
    expect(cosine(query!, passage!)).toBeLessThan(0.99);

    const unprefixed = createOnnxEmbedder({
      modelsDir,
      modelName: model.modelName,
      prefixes: { query: '', passage: '' },
    });
    await unprefixed.load();
    const [q] = await unprefixed.embed(['where did I park'], 'query');
    const [p] = await unprefixed.embed(['where did I park'], 'passage');
    await unprefixed.dispose();
    expect(q).toEqual(p);
    expect(cosine(q!, passage!)).toBeLessThan(0.99);
  });

  it('embeds Chinese text character by character', async () => {
    // Same length, one character apart: equal vectors would mean the characters fell back to [UNK].
    const [a, b] = await embedder.embed(['我喜欢茶', '他喜欢茶'], 'passage');
    expect(norm(a!)).toBeCloseTo(1, 5);
    expect(cosine(a!, b!)).toBeLessThan(0.99);
    const [mixed] = await embedder.embed(['今天 I had 咖啡 at 3pm'], 'passage');
    expect(norm(mixed!)).toBeCloseTo(1, 5);
  });

  it('stops between batches when the signal is aborted', async () => {
    const batched = createOnnxEmbedder({ modelsDir, modelName: model.modelName, batchSize: 1 });
    await batched.load();
    const controller = new AbortController();
    // embed() checks the signal synchronously before the first batch, then awaits it; the abort lands in between.
    const pending = batched.embed(['one', 'two', 'three'], 'passage', controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
    await expect(batched.embed(['one'], 'passage', controller.signal)).rejects.toMatchObject({ code: 'ABORTED' });
    await batched.dispose();
  });

  it("loads the 'fp32' file too, close to the 8-bit one", async () => {
    const fp32 = createOnnxEmbedder({ modelsDir, modelName: model.modelName, dtype: 'fp32' });
    await fp32.load();
    expect(fp32.dimensions).toBe(DIMS);
    const [full] = await fp32.embed(['hello world'], 'passage');
    await fp32.dispose();
    const [quantized] = await embedder.embed(['hello world'], 'passage');
    expect(full).not.toEqual(quantized);
    expect(cosine(full!, quantized!)).toBeGreaterThan(0.99);
  });

  it('loads once however often asked, and refuses to embed after dispose', async () => {
    const short = createOnnxEmbedder({ modelsDir, modelName: model.modelName });
    await Promise.all([short.load(), short.load()]);
    await short.load();
    expect(short.dimensions).toBe(DIMS);
    // A forward pass already running finishes before the session is released.
    const inFlight = short.embed(['hello', 'world'], 'passage');
    await short.dispose();
    await expect(inFlight).resolves.toHaveLength(2);
    await short.dispose();
    expect(short.dimensions).toBe(0);
    await expect(short.embed(['hello'], 'passage')).rejects.toMatchObject({
      code: 'EMBEDDER_UNAVAILABLE',
      details: { reason: 'not_loaded' },
    });
  });
});

describe('the ONNX embedder without a usable model', () => {
  it('reports a missing model as EMBEDDER_UNAVAILABLE without touching the network', async () => {
    const modelsDir = path.join(tmp, 'empty');
    await mkdir(modelsDir);
    const embedder = createOnnxEmbedder({ modelsDir, modelName: 'Xenova/multilingual-e5-small' });

    const error = await loadError(embedder);
    expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
    expect(error.details).toMatchObject({ reason: 'model_missing', modelsDir });
    expect(error.message).toContain(path.join(modelsDir, 'Xenova', 'multilingual-e5-small'));
    expect(error.message).toContain('MNEMO_MODELS_DIR');
    expect(embedder.dimensions).toBe(0);
    expect(findLocalModel(modelsDir, 'Xenova/multilingual-e5-small')).toBeNull();
  });

  it('names the files an incomplete model folder lacks', async () => {
    const modelsDir = path.join(tmp, 'incomplete');
    const model = await writeTinyEmbeddingModel(modelsDir);
    await unlink(path.join(model.modelDir, 'onnx', 'model_quantized.onnx'));

    expect(findLocalModel(modelsDir, model.modelName)).toBeNull();
    expect(findLocalModel(modelsDir, model.modelName, 'fp32')).toBe(model.modelDir);
    const error = await loadError(createOnnxEmbedder({ modelsDir, modelName: model.modelName }));
    expect(error.details).toMatchObject({ reason: 'model_missing', missing: ['onnx/model_quantized.onnx'] });
  });

  it('reports a corrupt model file as load_failed', async () => {
    const modelsDir = path.join(tmp, 'corrupt');
    const model = await writeTinyEmbeddingModel(modelsDir);
    await writeFile(path.join(model.modelDir, 'onnx', 'model_quantized.onnx'), 'not an onnx model');

    const error = await loadError(createOnnxEmbedder({ modelsDir, modelName: model.modelName }));
    expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
    expect(error.details).toMatchObject({ reason: 'load_failed' });
  });

  it('asks the Hub only when allowRemote is set (so the offline checks above can fail)', async () => {
    const modelsDir = path.join(tmp, 'remote');
    await mkdir(modelsDir);
    const hubFetch = fetchSpies[1]!;
    hubFetch.mockImplementation(async () => new Response(null, { status: 404 }));
    try {
      const embedder = createOnnxEmbedder({ modelsDir, modelName: 'Xenova/multilingual-e5-small', allowRemote: true });
      const error = await loadError(embedder);
      expect(error.code).toBe('EMBEDDER_UNAVAILABLE');
      expect(error.details).toMatchObject({ reason: 'model_missing' });
      expect(hubFetch.mock.calls.map(([url]) => String(url))).toContain(
        'https://huggingface.co/Xenova/multilingual-e5-small/resolve/main/config.json',
      );
    } finally {
      hubFetch.mockRestore();
      fetchSpies[1] = vi.spyOn(transformersEnv, 'fetch');
    }
  });

  it('rejects model names that would leave the models folder', () => {
    expect(findLocalModel(tmp, '../outside')).toBeNull();
    expect(() => createOnnxEmbedder({ modelsDir: tmp, modelName: 'a/../../b' })).toThrow(MnemoError);
    expect(() => createOnnxEmbedder({ modelsDir: tmp, modelName: '/etc/passwd' })).toThrow(MnemoError);
  });
});
