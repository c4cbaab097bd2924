/**
 * `embedding status` and `embedding download` in the terminal host, as a user runs them: run.ts in this process, the data
 * and models folders from the environment, and HF_ENDPOINT pointing at a fake hub on loopback that serves the tiny
 * model under the default model's name.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_ONNX_MODEL } from '../../electron/core/embedding/onnx.embedder';
import { startFakeHfHub, type FakeHfHub } from '../fakes/fake-hf-hub';
import { writeTinyEmbeddingModel } from '../fakes/tiny-onnx-model';
import { runCliInProcess as cli } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';



describe('embedding commands', () => {
  const tempDir = useTempDirs();
  let hubRoot: string;
  let hub: FakeHfHub;

  beforeAll(async () => {
    hubRoot = await mkdtemp(path.join(os.tmpdir(), 'mnemo-hub-'));
    await writeTinyEmbeddingModel(hubRoot, { modelName: DEFAULT_ONNX_MODEL, dims: 20 });
    hub = await startFakeHfHub({ root: hubRoot });
  });

  afterAll(async () => {
    await hub.close();
    await rm(hubRoot, { recursive: true, force: true });
  });

  it('status says semantic search is off and how to fix it; download (no progress bar in a pipe), then it is on, offline', { timeout: 300_000 }, async () => {
    const dir = tempDir();
    const env = { MNEMO_DATA_DIR: path.join(dir, 'data'), MNEMO_MODELS_DIR: path.join(dir, 'models'), HF_ENDPOINT: hub.url };

    const before = await cli(['embedding', 'status'], env);
    expect(before.code, before.stderr).toBe(0);
    expect(before.stdout).toMatch(/semantic search\s+off/);
    expect(before.stdout).toMatch(/reason\s+model_missing/);
    expect(before.stdout).toContain(path.join(dir, 'models', ...DEFAULT_ONNX_MODEL.split('/')));
    expect(before.stdout).toContain('embedding download');
    expect(hub.requests).toHaveLength(0);

    const download = await cli(['embedding', 'download'], env);
    expect(download.code, download.stderr).toBe(0);
    // Not a terminal: no progress bar, in either stream (a pipe or a log gets the outcome only).
    expect(download.stdout).not.toMatch(/\d+%|\r/);
    expect(download.stderr).not.toMatch(/\d+%|\r/);
    expect(download.stdout).toMatch(/semantic search\s+on/);
    expect(download.stdout).toMatch(/dimensions\s+20/);

    // Offline from here on: the hub is gone and the model still loads.
    const requests = hub.requests.length;
    const after = await cli(['embedding', 'status', '--json'], { ...env, HF_ENDPOINT: 'http://127.0.0.1:9/' });
    expect(after.code, after.stderr).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual({
      state: 'ready',
      provider: 'onnx',
      modelId: `onnx:${DEFAULT_ONNX_MODEL}`,
      dimensions: 20,
      reason: null,
      reasonParams: {},
      message: null,
    });
    expect(hub.requests).toHaveLength(requests);

    const again = await cli(['embedding', 'download', '--json'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ state: 'ready' });
    expect(hub.requests).toHaveLength(requests);
  });

  it('download from a hub that lacks the model: exit 1 with one line saying so', { timeout: 300_000 }, async () => {
    const dir = tempDir();
    const empty = await startFakeHfHub({ root: tempDir() });
    try {
      const env = { MNEMO_DATA_DIR: path.join(dir, 'data'), MNEMO_MODELS_DIR: path.join(dir, 'models'), HF_ENDPOINT: empty.url };
      const r = await cli(['embedding', 'download', '--json'], env);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`not found locally or on ${empty.url}`);
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, error: { code: 'EMBEDDER_UNAVAILABLE' } });
    } finally {
      await empty.close();
    }
  });
});
