/**
 * `mnemo models pull NAME` as a user runs it: the terminal host (in this process, run.ts) against the fake Ollama (its real pull protocol, with
 * progress lines and faults), and against an OpenAI-compatible server, which cannot download models.
 */
import { describe, expect, it } from 'vitest';
import { startFakeOllama } from '../fakes/fake-ollama';
import { startFakeOpenAi } from '../fakes/fake-openai';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

describe('models pull in the terminal host', () => {
  const tempDir = useTempDirs();

  it('pulls into Ollama (no bar in a pipe), then the model is installed; --json prints the outcome', { timeout: 300_000 }, async () => {
    const fake = await startFakeOllama({ models: [] });
    try {
      const env = { MNEMO_DATA_DIR: tempDir(), OLLAMA_HOST: fake.url };
      const pulled = await runCliInProcess(['models', 'pull', 'qwen2.5:3b'], env);
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(pulled.stdout.trim()).toBe('Pulled qwen2.5:3b. To chat with it: mnemo settings set chatModel qwen2.5:3b');
      // Not a terminal: no progress bar in either stream (a pipe or a log gets the outcome only).
      expect(pulled.stdout).not.toMatch(/\d+%|\r/);
      expect(pulled.stderr).toBe('');
      expect(fake.requests.filter((r) => r.path === '/api/pull')).toHaveLength(1);

      const models = await runCliInProcess(['models', '--json'], env);
      expect(models.code, models.stderr).toBe(0);
      expect(JSON.parse(models.stdout).models.map((m: { name: string }) => m.name)).toContain('qwen2.5:3b');

      const json = await runCliInProcess(['models', 'pull', 'llama3.2', '--json'], env);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({ name: 'llama3.2', started: true, status: 'success' });
    } finally {
      await fake.close();
    }
  });

  it('a pull Ollama breaks off, Ollama not running, no name: exit 1 with one line saying so', { timeout: 300_000 }, async () => {
    const fake = await startFakeOllama({ models: [] });
    try {
      const env = { MNEMO_DATA_DIR: tempDir(), OLLAMA_HOST: fake.url };
      fake.setFault({ kind: 'error-mid-stream', afterChunks: 3, message: 'max retries exceeded: connection reset', paths: ['/api/pull'] });
      const broken = await runCliInProcess(['models', 'pull', 'qwen2.5:3b'], env);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toBe('');
      expect(broken.stderr.trim().split('\n')).toHaveLength(1);
      expect(broken.stderr).toContain('max retries exceeded');
      const listed = await runCliInProcess(['models', '--json'], env);
      expect(JSON.parse(listed.stdout).models).toEqual([]);

      const json = await runCliInProcess(['models', 'pull', 'qwen2.5:3b', '--json'], { ...env, OLLAMA_HOST: 'http://127.0.0.1:9' });
      expect(json.code).toBe(1);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'OLLAMA_UNREACHABLE' } });
      expect(json.stderr).toContain('http://127.0.0.1:9');

      const nameless = await runCliInProcess(['models', 'pull'], env);
      expect(nameless.code).toBe(1);
      expect(nameless.stderr).toContain('Say which model to download: mnemo models pull NAME');

      // A misspelt "pull" is a wrong command line, not a listing that looks like success.
      const misspelt = await runCliInProcess(['models', 'pul', 'qwen2.5:3b'], env);
      expect(misspelt.code).toBe(2);
      expect(misspelt.stderr).toContain('Unknown command "models pul qwen2.5:3b". Did you mean "mnemo models pull"?');
      expect(misspelt.stderr).toContain('See "mnemo models --help".');
    } finally {
      await fake.close();
    }
  });

  it('with an OpenAI-compatible server: refused, saying where to download it instead', { timeout: 300_000 }, async () => {
    const fake = await startFakeOpenAi();
    try {
      const env = { MNEMO_DATA_DIR: tempDir(), OLLAMA_HOST: 'http://127.0.0.1:9' };
      expect((await runCliInProcess(['settings', 'set', 'llmProvider', 'openai'], env)).code).toBe(0);
      expect((await runCliInProcess(['settings', 'set', 'openaiBaseUrl', fake.baseUrl], env)).code).toBe(0);
      const refused = await runCliInProcess(['models', 'pull', 'qwen2.5:3b'], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stderr).toContain('Mnemo downloads models only from Ollama. Download "qwen2.5:3b" in your model server (LM Studio: the Discover tab');
      expect(fake.requests.some((r) => r.path.includes('pull'))).toBe(false);
    } finally {
      await fake.close();
    }
  });
});
