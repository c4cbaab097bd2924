/**
 * The embedding service on real providers: the Ollama embedder against the fake Ollama server, the local ONNX one on
 * the generated tiny model, and the local model's download from a fake Hugging Face Hub on loopback (transformers.js's
 * real download path, file cache and progress callbacks). User-facing behaviour goes through the contract client.
 */
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { unwrap, type Client } from '../../shared/client';
import { EmbeddingStatus, type EmbeddingDownloadProgress } from '../../shared/contract';
import { MnemoError } from '../../shared/errors';
import type { Core, CoreOptions } from '../../electron/core/create-core';
import { createDefaultEmbedder, createEmbedderFactory } from '../../electron/core/embedding/embedder.factory';
import { createEmbeddingService, type EmbeddingService, type ModelChange } from '../../electron/core/embedding/embedding.service';
import type { Embedder } from '../../electron/core/embedding/embedder.port';
import { createOllamaEmbedder } from '../../electron/core/embedding/ollama.embedder';
import { createOnnxEmbedder, requiredModelFiles } from '../../electron/core/embedding/onnx.embedder';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import type { LlmPort } from '../../electron/core/llm/llm.port';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { startFakeHfHub, type FakeHfHub } from '../fakes/fake-hf-hub';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';
import { writeTinyEmbeddingModel } from '../fakes/tiny-onnx-model';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

const OLLAMA_DIMS = 16;
const TINY_DIMS = 24;
const ONNX_FILE = 'onnx/model_quantized.onnx';

let ollama: FakeOllama;
let llm: LlmPort;
const services: EmbeddingService[] = [];
const cores: Core[] = [];
const tempDir = useTempDirs();

beforeAll(async () => {
  ollama = await startFakeOllama({ embedDim: OLLAMA_DIMS });
  llm = createOllamaLlm({ host: ollama.url, metadataTimeoutMs: 2_000 });
});

afterEach(async () => {
  for (const s of services.splice(0)) await s.dispose();
  for (const c of cores.splice(0)) await c.dispose();
  ollama.setFault(null);
  await ollama.restart();
});

afterAll(async () => {
  await ollama.close();
});

function service(deps: Parameters<typeof createEmbeddingService>[0]): EmbeddingService {
  const made = createEmbeddingService(deps);
  services.push(made);
  return made;
}

function core(options: Partial<CoreOptions>): { core: Core; client: Client } {
  const made = createTestCore(path.join(tempDir(), 'data'), { llm: () => llm, startQueue: false, ...options });
  cores.push(made.core);
  return made;
}

/** Texts sent to /api/embed since request number `from`. */
function embedded(from: number): string[] {
  return ollama.requests
    .slice(from)
    .filter((r) => r.path === '/api/embed')
    .flatMap((r) => (r.body as { input: string[] }).input);
}

/** The next embedding.statusChanged payload that satisfies `accept` (subscribe before causing it). */
function statusWhere(client: Client, accept: (s: EmbeddingStatus) => boolean): Promise<EmbeddingStatus> {
  return new Promise((resolve) => {
    const off = client.on('embedding.statusChanged', ({ status }) => {
      if (!accept(status)) return;
      off();
      resolve(status);
    });
  });
}

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(path.join(dir, f)).isFile());
}

describe('the query cache', () => {
  it('embeds a repeated query once, and evicts the least recently used at capacity', async () => {
    const embedding = service({ embedder: createOllamaEmbedder({ llm, model: 'nomic-embed-text' }), logger: silentLogger, cacheSize: 2 });
    expect(await embedding.ensureReady()).toBe(true);
    const from = ollama.requests.length;

    const a = await embedding.embedQuery('alpha');
    expect(await embedding.embedQuery('alpha')).toBe(a);
    await embedding.embedQuery('beta');
    await embedding.embedQuery('alpha'); // alpha is now the most recent; beta the least
    await embedding.embedQuery('gamma'); // evicts beta
    await embedding.embedQuery('alpha');
    await embedding.embedQuery('beta');

    expect(embedded(from)).toEqual(['search_query: alpha', 'search_query: beta', 'search_query: gamma', 'search_query: beta']);
    expect(a).toHaveLength(OLLAMA_DIMS);
  });

  it('does not cache passages, and answers [] for none', async () => {
    const embedding = service({ embedder: createOllamaEmbedder({ llm, model: 'nomic-embed-text' }), logger: silentLogger });
    const from = ollama.requests.length;
    const [first] = (await embedding.embedPassages(['same']))!;
    const [second] = (await embedding.embedPassages(['same']))!;
    expect(second).toEqual(first);
    expect(embedded(from).filter((t) => t.endsWith('same'))).toHaveLength(2);
    expect(await embedding.embedPassages([])).toEqual([]);
  });
});

describe('status', () => {
  it('without an embedder: everything answers null, and the status says why', async () => {
    const embedding = service({ embedder: null, logger: silentLogger });
    expect(await embedding.ensureReady()).toBe(false);
    expect(await embedding.embedQuery('x')).toBeNull();
    expect(await embedding.embedPassages(['x'])).toBeNull();
    expect(embedding.status()).toMatchObject({ state: 'unavailable', provider: null, reason: 'no_embedder' });
  });

  it('Ollama: model missing, then Ollama down mid-session (keyword search meanwhile), then back', async () => {
    const seen: EmbeddingStatus[] = [];
    const missing = service({ embedder: createOllamaEmbedder({ llm, model: 'bge-m3' }), logger: silentLogger });
    expect(await missing.embedQuery('x')).toBeNull();
    expect(missing.status()).toMatchObject({ state: 'unavailable', provider: 'ollama', reason: 'model_missing' });
    expect(missing.status().message).toContain('ollama pull bge-m3:latest');

    const embedding = service({ embedder: createOllamaEmbedder({ llm, model: 'nomic-embed-text' }), logger: silentLogger });
    embedding.onStatusChange((s) => seen.push(s));
    expect(await embedding.embedQuery('first')).toHaveLength(OLLAMA_DIMS);
    await ollama.stop();
    expect(await embedding.embedQuery('second')).toBeNull();
    expect(await embedding.embedPassages(['third'])).toBeNull();
    expect(embedding.status()).toMatchObject({ state: 'unavailable', reason: 'ollama_unreachable', dimensions: null });
    await ollama.restart();
    expect(await embedding.embedQuery('second')).toHaveLength(OLLAMA_DIMS);
    expect(seen.map((s) => `${s.state}:${s.reason ?? ''}`)).toEqual(['ready:', 'unavailable:ollama_unreachable', 'ready:']);
    expect(embedding.status()).toMatchObject({ state: 'ready', provider: 'ollama', modelId: 'ollama:nomic-embed-text:latest', dimensions: OLLAMA_DIMS });
  });

  it('a fresh core with the default local model missing: unavailable, model_missing, naming the folder', async () => {
    const modelsDir = path.join(tempDir(), 'models');
    const { client } = core({ paths: { modelsDir } });
    const status = unwrap(await client.call('embedding.status', {}));
    expect(status).toMatchObject({
      state: 'unavailable',
      provider: 'onnx',
      modelId: 'onnx:Xenova/multilingual-e5-small',
      dimensions: null,
      reason: 'model_missing',
    });
    expect(status.message).toContain(path.join(modelsDir, 'Xenova', 'multilingual-e5-small'));
    expect(status.message).toMatch(/^Semantic search is off: /);
    // The UI says it in its own language from the code and these, and folds the folder and the files away.
    expect(status.reasonParams).toEqual({
      model: 'Xenova/multilingual-e5-small',
      folder: path.join(modelsDir, 'Xenova', 'multilingual-e5-small'),
      missing: expect.arrayContaining(['config.json', 'tokenizer.json', 'onnx/model_quantized.onnx']),
    });
  });

  it('a reason the contract does not know is a load that failed (the status stays valid for every client)', async () => {
    const odd: Embedder = {
      modelId: 'onnx:mnemo-test/odd',
      dimensions: 0,
      load: () => Promise.reject(new MnemoError('EMBEDDER_UNAVAILABLE', 'Something new went wrong.', { details: { reason: 'brand_new_reason' } })),
      embed: () => Promise.reject(new Error('not loaded')),
      dispose: () => Promise.resolve(),
    };
    const embedding = service({ embedder: odd, logger: silentLogger });
    expect(await embedding.ensureReady()).toBe(false);
    expect(embedding.status()).toMatchObject({ state: 'unavailable', reason: 'load_failed', reasonParams: { model: 'mnemo-test/odd' }, message: 'Semantic search is off: Something new went wrong.' });
    expect(EmbeddingStatus.safeParse(embedding.status()).success).toBe(true);
  });

  it('`embedder: null` in a core means keyword search only', async () => {
    const { client } = core({ embedder: null });
    expect(unwrap(await client.call('embedding.status', {}))).toMatchObject({ state: 'unavailable', reason: 'no_embedder' });
    expect(await client.call('embedding.download', {})).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
  });
});

describe('switching model', () => {
  it('replaces the embedder, empties the query cache and tells listeners; the same model again is a no-op', async () => {
    const modelsDir = path.join(tempDir(), 'models');
    const tiny = await writeTinyEmbeddingModel(modelsDir, { dims: TINY_DIMS, modelName: 'mnemo-test/tiny-switch' });
    const factory = createEmbedderFactory({ modelsDir, llm });
    const embedding = service({ embedder: factory.create('onnx', tiny.modelName), logger: silentLogger, factory });
    const changes: ModelChange[] = [];
    embedding.onModelChanged((c) => changes.push(c));
    expect(await embedding.embedQuery('hello')).toHaveLength(TINY_DIMS);

    const status = await embedding.switchModel('ollama', 'nomic-embed-text');
    expect(status).toMatchObject({ state: 'ready', provider: 'ollama', modelId: 'ollama:nomic-embed-text:latest', dimensions: OLLAMA_DIMS });
    const from = ollama.requests.length;
    expect(await embedding.embedQuery('hello')).toHaveLength(OLLAMA_DIMS);
    expect(embedded(from)).toEqual(['search_query: hello']);
    expect(changes).toEqual([{ previousModelId: `onnx:${tiny.modelName}`, status }]);

    await embedding.switchModel('ollama', 'nomic-embed-text:latest');
    expect(changes).toHaveLength(1);

    // A model that cannot load is still a switch: old vectors no longer match, whatever the new model's state.
    const missing = await embedding.switchModel('onnx', 'mnemo-test/not-here');
    expect(missing).toMatchObject({ state: 'unavailable', reason: 'model_missing', modelId: 'onnx:mnemo-test/not-here' });
    expect(changes[1]).toMatchObject({ previousModelId: 'ollama:nomic-embed-text:latest', status: { reason: 'model_missing' } });
    expect(await embedding.embedQuery('hello')).toBeNull();
  });

  it('follows the embedding settings in a core', async () => {
    const { client } = core({ paths: { modelsDir: path.join(tempDir(), 'models') } });
    const switched = statusWhere(client, (s) => s.provider === 'ollama' && s.state === 'ready');
    unwrap(await client.call('settings.update', { patch: { embeddingProvider: 'ollama', embeddingModel: 'nomic-embed-text' } }));
    expect(await switched).toMatchObject({ modelId: 'ollama:nomic-embed-text:latest', dimensions: OLLAMA_DIMS });
    expect(await client.call('embedding.download', {})).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', message: expect.stringContaining('ollama pull nomic-embed-text:latest') },
    });
  });

  it('refuses a model name that would leave the models folder, saying so in the status', async () => {
    const embedder = createDefaultEmbedder({
      settings: { embeddingProvider: 'onnx', embeddingModel: '../../etc' },
      paths: { modelsDir: tempDir() },
      llm,
    });
    const embedding = service({ embedder, logger: silentLogger });
    expect(await embedding.ensureReady()).toBe(false);
    expect(embedding.status()).toMatchObject({ state: 'unavailable', reason: 'invalid_model' });
  });
});

describe('downloading the local model (from a fake hub on loopback)', () => {
  let hubRoot: string;
  let hub: FakeHfHub;

  beforeAll(async () => {
    // Not tempDir(): those are removed after each test, and the hub serves this folder to all of them.
    hubRoot = await mkdtemp(path.join(os.tmpdir(), 'mnemo-hub-'));
    for (const name of ['mnemo-test/tiny-download', 'mnemo-test/tiny-cancel', 'mnemo-test/tiny-there']) {
      await writeTinyEmbeddingModel(hubRoot, { dims: TINY_DIMS, modelName: name });
    }
    hub = await startFakeHfHub({ root: hubRoot });
  });

  afterAll(async () => {
    await hub.close();
    await rm(hubRoot, { recursive: true, force: true });
  });

  /** A core whose settings name `model`, once the switch to it has settled (unavailable: not downloaded yet). */
  async function coreFor(model: string, modelsDir: string, modelHub = hub.url): Promise<Client> {
    const { client } = core({ paths: { modelsDir }, modelHub });
    const settled = statusWhere(client, (s) => s.modelId === `onnx:${model}` && s.state !== 'loading');
    unwrap(await client.call('settings.update', { patch: { embeddingModel: model } }));
    expect(await settled).toMatchObject({ state: 'unavailable', reason: 'model_missing' });
    return client;
  }

  it('reports progress up to 100% over all files, ends ready, and the model then loads offline', async () => {
    const model = 'mnemo-test/tiny-download';
    const modelsDir = path.join(tempDir(), 'models');
    const client = await coreFor(model, modelsDir);
    const totalBytes = requiredModelFiles().reduce((n, f) => n + statSync(path.join(hubRoot, model, f)).size, 0);

    const progress: EmbeddingDownloadProgress[] = [];
    let sawHalf!: () => void;
    const halfway = new Promise<void>((resolve) => (sawHalf = resolve));
    client.on('embedding.downloadProgressed', (p) => {
      progress.push(p);
      if (p.file === ONNX_FILE && p.percent < 100) sawHalf();
    });
    const states: string[] = [];
    client.on('embedding.statusChanged', ({ status }) => states.push(status.state));
    const ready = statusWhere(client, (s) => s.state === 'ready');
    const hold = hub.hold(ONNX_FILE);

    const started = unwrap(await client.call('embedding.download', {}));
    expect(started).toMatchObject({ started: true, status: { state: 'downloading' } });
    await hold.reached;
    await halfway;
    expect(unwrap(await client.call('embedding.status', {})).state).toBe('downloading');
    expect(unwrap(await client.call('embedding.download', {})).started).toBe(false);
    hold.release();

    expect(await ready).toMatchObject({ modelId: `onnx:${model}`, dimensions: TINY_DIMS, reason: null });
    expect(states).toEqual(['downloading', 'loading', 'ready']);
    expect(progress.length).toBeGreaterThan(1);
    for (const [i, p] of progress.entries()) {
      expect(p).toMatchObject({ modelId: `onnx:${model}`, totalBytes });
      if (i > 0) {
        expect(p.loadedBytes).toBeGreaterThanOrEqual(progress[i - 1]!.loadedBytes);
        expect(p.percent).toBeGreaterThanOrEqual(progress[i - 1]!.percent);
      }
    }
    expect(progress.at(-1)).toMatchObject({ percent: 100, loadedBytes: totalBytes });
    expect(progress.filter((p) => p.percent === 100)).toHaveLength(1);
    expect(new Set(progress.map((p) => p.file))).toEqual(new Set(requiredModelFiles()));
    expect(filesBelow(modelsDir).sort()).toEqual(requiredModelFiles().map((f) => path.join(...model.split('/'), f)).sort());

    // Offline: a second core that may not download finds the files, and asks nothing of the hub.
    const requestsBefore = hub.requests.length;
    const offline = core({
      paths: { modelsDir },
      embedder: createDefaultEmbedder({ settings: { embeddingProvider: 'onnx', embeddingModel: model }, paths: { modelsDir }, llm }),
    });
    expect(unwrap(await offline.client.call('embedding.status', {}))).toMatchObject({ state: 'ready', dimensions: TINY_DIMS });
    expect(hub.requests.length).toBe(requestsBefore);
  });

  it('cancel stops mid-file, and the next download fetches only what is missing', async () => {
    const model = 'mnemo-test/tiny-cancel';
    const modelsDir = path.join(tempDir(), 'models');
    const client = await coreFor(model, modelsDir);
    const hold = hub.hold(ONNX_FILE);
    let streaming!: () => void;
    const onnxStreaming = new Promise<void>((resolve) => (streaming = resolve));
    client.on('embedding.downloadProgressed', (p) => {
      if (p.file === ONNX_FILE) streaming();
    });
    const stopped = statusWhere(client, (s) => s.state === 'unavailable');

    unwrap(await client.call('embedding.download', {}));
    await hold.reached;
    await onnxStreaming; // half of the weights are in the file cache's temp file, the rest never comes
    expect(unwrap(await client.call('embedding.cancelDownload', {}))).toEqual({ cancelled: true });

    const status = await stopped;
    expect(status).toMatchObject({ reason: 'model_missing', modelId: `onnx:${model}` });
    expect(status.message).toContain(ONNX_FILE);
    expect(filesBelow(modelsDir)).not.toContain(path.join(...model.split('/'), ONNX_FILE));
    expect(unwrap(await client.call('embedding.cancelDownload', {}))).toEqual({ cancelled: false });

    const ready = statusWhere(client, (s) => s.state === 'ready');
    unwrap(await client.call('embedding.download', {}));
    expect(await ready).toMatchObject({ modelId: `onnx:${model}`, dimensions: TINY_DIMS });
    const downloads = (file: string) => hub.downloads(file).filter((r) => r.path.includes(`/${model}/`)).length;
    expect(downloads(ONNX_FILE)).toBe(2);
    // config.json is fetched (and cached) before anything else starts, so the cancel always found it complete.
    expect(downloads('config.json')).toBe(1);
    // No temp file of the cancelled attempt is left behind, and nothing but the model's files.
    expect(filesBelow(modelsDir).sort()).toEqual(requiredModelFiles().map((f) => path.join(...model.split('/'), f)).sort());
  });

  it('a model already in the folder is not fetched again', async () => {
    const model = 'mnemo-test/tiny-there';
    const modelsDir = path.join(tempDir(), 'models');
    await writeTinyEmbeddingModel(modelsDir, { dims: TINY_DIMS, modelName: model });
    const embedding = service({
      embedder: createOnnxEmbedder({ modelsDir, modelName: model }),
      logger: silentLogger,
      factory: createEmbedderFactory({ modelsDir, llm, modelHub: hub.url }),
    });
    const requestsBefore = hub.requests.length;
    expect(await embedding.download()).toMatchObject({ state: 'ready', dimensions: TINY_DIMS });
    expect(hub.requests.length).toBe(requestsBefore);
  });

  it('a model the hub does not have: unavailable, model_missing, naming the hub', async () => {
    const modelsDir = path.join(tempDir(), 'models');
    const factory = createEmbedderFactory({ modelsDir, llm, modelHub: hub.url });
    const embedding = service({ embedder: factory.create('onnx', 'mnemo-test/not-on-hub'), logger: silentLogger, factory });
    const status = await embedding.download();
    expect(status).toMatchObject({ state: 'unavailable', reason: 'model_missing' });
    expect(status.message).toContain(hub.url);
  });

  it('a hub that does not answer: unavailable, download_failed', async () => {
    const down = await startFakeHfHub({ root: hubRoot });
    await down.close();
    const modelsDir = path.join(tempDir(), 'models');
    const factory = createEmbedderFactory({ modelsDir, llm, modelHub: down.url });
    const embedding = service({ embedder: factory.create('onnx', 'mnemo-test/tiny-unreachable'), logger: silentLogger, factory });
    const status = await embedding.download();
    expect(status).toMatchObject({ state: 'unavailable', reason: 'download_failed' });
    expect(status.message).toContain(down.url);
  });
});
