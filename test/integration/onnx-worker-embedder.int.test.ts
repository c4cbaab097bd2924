/**
 * The local embedder in a worker thread (onnx-worker.embedder.ts) against the same embedder in-process, both on the
 * real path (transformers.js reads the generated tiny model from disk, onnxruntime-node runs it): the same vectors,
 * the same errors, cancellation, and no thread left behind after dispose() or a failed load.
 */
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../electron/core/embedding/embedder.port';
import { createOnnxEmbedder } from '../../electron/core/embedding/onnx.embedder';
import { createOnnxWorkerEmbedder, onnxWorkerEntry } from '../../electron/core/embedding/onnx-worker.embedder';
import { MnemoError } from '../../shared/errors';
import { writeTinyEmbeddingModel } from '../fakes/tiny-onnx-model';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';
import { until } from '../support/until';

const tempDir = useTempDirs();
const open: Embedder[] = [];
afterEach(async () => {
  for (const e of open.splice(0)) await e.dispose();
});

/** Worker threads started by this process (Node announces each one) and still running. */
const running = new Set<Worker>();
const track = (w: Worker) => {
  running.add(w);
  w.once('exit', () => running.delete(w));
};
beforeAll(() => void process.on('worker', track));
afterAll(() => void process.off('worker', track));
const liveWorkers = () => running.size;

async function setUp(dims = 48) {
  const modelsDir = path.join(tempDir(), 'models');
  const model = await writeTinyEmbeddingModel(modelsDir, { dims });
  const entry = onnxWorkerEntry();
  if (!entry) throw new Error('the worker entry must exist beside the source');
  const options = { modelsDir, modelName: model.modelName, dtype: 'fp32' as const };
  const inWorker = createOnnxWorkerEmbedder({ ...options, entry });
  const inProcess = createOnnxEmbedder(options);
  open.push(inWorker, inProcess);
  return { modelsDir, model, entry, inWorker, inProcess, options };
}

const TEXTS = [
  'I drink green tea every morning',
  '用户喜欢在周末去公园散步',
  'coffee',
  ...Array.from({ length: 37 }, (_, i) => `fact ${i}: works on project ${i * 7} with tool ${i % 5}`),
];

describe('the ONNX embedder in a worker thread', () => {
  it('makes the same vectors as in-process, for passages and queries, across batches', async () => {
    const { inWorker, inProcess } = await setUp();
    await Promise.all([inWorker.load(), inProcess.load()]);
    expect(inWorker.dimensions).toBe(48);
    expect(inWorker.modelId).toBe(inProcess.modelId);
    for (const kind of ['passage', 'query'] as const) {
      const [a, b] = await Promise.all([inWorker.embed(TEXTS, kind), inProcess.embed(TEXTS, kind)]);
      expect(a).toHaveLength(TEXTS.length);
      a.forEach((v, i) => {
        expect(v).toBeInstanceOf(Float32Array);
        expect(Array.from(v)).toEqual(Array.from(b[i]!));
      });
    }
    expect(await inWorker.embed([], 'passage')).toEqual([]);
  });

  it('answers concurrent calls each with its own vectors', async () => {
    const { inWorker, inProcess } = await setUp();
    await Promise.all([inWorker.load(), inProcess.load()]);
    const parts = [TEXTS.slice(0, 5), TEXTS.slice(5, 20), TEXTS.slice(20)];
    const together = await Promise.all(parts.map((p) => inWorker.embed(p, 'passage')));
    const expected = await inProcess.embed(TEXTS, 'passage');
    expect(together.flat().map((v) => Array.from(v))).toEqual(expected.map((v) => Array.from(v)));
  });

  it('reports a missing model exactly as in-process, and leaves no thread behind', async () => {
    const modelsDir = path.join(tempDir(), 'models');
    const entry = onnxWorkerEntry()!;
    const before = liveWorkers();
    const inWorker = createOnnxWorkerEmbedder({ modelsDir, modelName: 'nobody/nothing', entry });
    open.push(inWorker);
    const [a, b] = await Promise.all(
      [inWorker, createOnnxEmbedder({ modelsDir, modelName: 'nobody/nothing' })].map((e) => e.load().then(() => null, (err: unknown) => err)),
    );
    expect(a).toBeInstanceOf(MnemoError);
    expect((a as MnemoError).toInfo()).toEqual((b as MnemoError).toInfo());
    expect((a as MnemoError).details?.reason).toBe('model_missing');
    await expect(inWorker.embed(['x'], 'passage')).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
    await until(() => liveWorkers() <= before, 'the worker thread to exit');
  });

  it('starts no thread at all while the model is not installed (every search asks it to load again)', async () => {
    const modelsDir = path.join(tempDir(), 'models');
    const inWorker = createOnnxWorkerEmbedder({ modelsDir, modelName: 'nobody/nothing', entry: onnxWorkerEntry()! });
    open.push(inWorker);
    let started = 0;
    const count = () => void started++;
    process.on('worker', count);
    try {
      for (let i = 0; i < 3; i++) await expect(inWorker.load()).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE', details: { reason: 'model_missing' } });
    } finally {
      process.off('worker', count);
    }
    expect(started).toBe(0);
  });

  it('rejects an aborted call at once and stays usable', async () => {
    const { inWorker, inProcess } = await setUp();
    await Promise.all([inWorker.load(), inProcess.load()]);
    const controller = new AbortController();
    const call = inWorker.embed(TEXTS, 'passage', controller.signal);
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'ABORTED' });
    const [again] = await inWorker.embed([TEXTS[0]!], 'passage');
    const [expected] = await inProcess.embed([TEXTS[0]!], 'passage');
    expect(Array.from(again!)).toEqual(Array.from(expected!));
  });

  it('ends its thread on dispose(), and loads again afterwards', async () => {
    const { inWorker } = await setUp();
    const before = liveWorkers();
    await inWorker.load();
    expect(liveWorkers()).toBeGreaterThan(before);
    await inWorker.dispose();
    await until(() => liveWorkers() <= before, 'the worker thread to exit');
    await expect(inWorker.embed(['x'], 'passage')).rejects.toMatchObject({ code: 'EMBEDDER_UNAVAILABLE' });
    await inWorker.load();
    expect(await inWorker.embed(['x'], 'passage')).toHaveLength(1);
  });

  it('is what the core uses by default, and the core stores the same vectors as with the model in-process', async () => {
    const modelsDir = path.join(tempDir(), 'models');
    const model = await writeTinyEmbeddingModel(modelsDir, { dims: 48 });
    const stored: number[][] = [];
    for (const embeddingThread of [undefined, 'in-process'] as const) {
      const before = liveWorkers();
      const { core, client } = createTestCore(tempDir(), { paths: { modelsDir }, startQueue: false, ...(embeddingThread ? { embeddingThread } : {}) });
      try {
        await client.call('settings.update', { patch: { embeddingProvider: 'onnx', embeddingModel: model.modelName } });
        const status = await client.call('embedding.status', {});
        expect(status.ok && status.value.state).toBe('ready');
        // The default runs the model in a worker thread; in-process starts none.
        if (embeddingThread === undefined) expect(liveWorkers()).toBeGreaterThan(before);
        else expect(liveWorkers()).toBe(before);
        const created = await client.call('memory.create', { content: 'I drink green tea every morning', category: 'preference' });
        if (!created.ok) throw new Error(created.error.message);
        const hits = await client.call('memory.search', { query: 'green tea', limit: 1 });
        if (!hits.ok) throw new Error(hits.error.message);
        expect(hits.value.mode).toBe('hybrid');
        const db = (core as unknown as { paths: { dbFile: string } }).paths.dbFile;
        stored.push(await vectorOf(db, created.value.id));
      } finally {
        await core.dispose();
      }
      await until(() => liveWorkers() <= before, 'the worker thread to exit');
    }
    expect(stored[0]).toEqual(stored[1]);
  });
});

async function vectorOf(dbFile: string, memoryId: number): Promise<number[]> {
  const { openDatabase, sourceMigrationsDir } = await import('../../electron/core/db/open-database');
  const db = openDatabase(dbFile, { migrationsDir: sourceMigrationsDir() });
  try {
    const row = db.sqlite.prepare('SELECT embedding FROM memory_vectors WHERE memory_id = ?').get(BigInt(memoryId)) as { embedding: Buffer };
    return Array.from(new Float32Array(row.embedding.buffer.slice(row.embedding.byteOffset, row.embedding.byteOffset + row.embedding.byteLength)));
  } finally {
    db.close();
  }
}
