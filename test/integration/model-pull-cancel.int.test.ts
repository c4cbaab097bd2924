/**
 * Stopping one model download: models.cancelPull aborts that pull only, its last event says "cancelled" without an
 * error (the app then offers Download again), nothing is installed, and pulling again works. In the terminal, Ctrl-C
 * during `mnemo models pull` does the same and says that pulling again resumes.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { EventPayload } from '../../shared/contract';
import type { Core } from '../../electron/core/create-core';
import { startFakeOllama } from '../fakes/fake-ollama';
import { ROOT } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

type Pull = EventPayload<'model.pullProgressed'>;

describe('cancelling a model download', () => {
  const tempDir = useTempDirs();
  const open: Core[] = [];
  afterEach(async () => {
    for (const core of open.splice(0)) await core.dispose();
  });

  it('stops that pull only, says "cancelled" without an error, installs nothing; pulling again works', { timeout: 120_000 }, async () => {
    const fake = await startFakeOllama({ models: [] });
    try {
      const { core, client } = createTestCore(tempDir(), { startQueue: false });
      open.push(core);
      unwrap(await client.call('settings.update', { patch: { ollamaHost: fake.url } }));
      const ends: Pull[] = [];
      client.on('model.pullProgressed', (p) => {
        if (p.done) ends.push(p);
      });
      // Ollama is slow to answer the first pull: it is still under way when the user cancels.
      fake.setFault({ kind: 'slow-first-token', delayMs: 60_000, paths: ['/api/pull'] });
      expect(unwrap(await client.call('models.pull', { name: 'qwen2.5:3b' }))).toEqual({ started: true });
      await expect.poll(() => fake.requests.filter((r) => r.path === '/api/pull').length, { timeout: 30_000 }).toBe(1);

      expect(unwrap(await client.call('models.cancelPull', { name: 'llama3.2' }))).toEqual({ cancelled: false });
      expect(unwrap(await client.call('models.cancelPull', { name: 'qwen2.5:3b' }))).toEqual({ cancelled: true });
      await expect.poll(() => ends, { timeout: 30_000 }).toEqual([expect.objectContaining({ name: 'qwen2.5:3b', status: 'cancelled', done: true, error: null })]);
      expect(unwrap(await client.call('models.cancelPull', { name: 'qwen2.5:3b' }))).toEqual({ cancelled: false });
      expect(unwrap(await client.call('models.list', {})).models).toEqual([]);

      fake.setFault(null);
      expect(unwrap(await client.call('models.pull', { name: 'qwen2.5:3b' }))).toEqual({ started: true });
      await expect.poll(() => ends.length, { timeout: 30_000 }).toBe(2);
      expect(ends[1]).toMatchObject({ status: 'success', error: null });
      expect(unwrap(await client.call('models.list', {})).models.map((m) => m.name)).toEqual(['qwen2.5:3b']);
    } finally {
      await fake.close();
    }
  });

  it('Ctrl-C during `mnemo models pull` stops the download and says how to resume (exit 1)', { timeout: 180_000 }, async () => {
    const fake = await startFakeOllama({ models: [] });
    try {
      fake.setFault({ kind: 'slow-first-token', delayMs: 120_000, paths: ['/api/pull'], sticky: true });
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts'), 'models', 'pull', 'qwen2.5:3b'], {
        cwd: ROOT,
        env: { ...process.env, MNEMO_DATA_DIR: tempDir(), OLLAMA_HOST: fake.url },
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      await expect.poll(() => fake.requests.filter((r) => r.path === '/api/pull').length, { timeout: 120_000 }).toBe(1);
      child.kill('SIGINT');
      expect(await exited).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toContain('Stopped downloading qwen2.5:3b. Ollama keeps what it has: "mnemo models pull qwen2.5:3b" resumes.');
    } finally {
      await fake.close();
    }
  });
});
