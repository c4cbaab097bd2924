/**
 * The OpenAI-compatible server from the terminal: choosing it with `settings set` (keys derived from the contract),
 * the refusal of an unconfirmed remote address, the API key read from stdin, `models` and a chat through it.
 */
import { describe, expect, it } from 'vitest';
import { startFakeOpenAi } from '../fakes/fake-openai';
import { runCli } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

describe('the OpenAI-compatible server from the terminal', () => {
  const tempDir = useTempDirs();

  it('is chosen with settings set, keeps its key from stdin, lists its models and answers a chat', { timeout: 300_000 }, async () => {
    const key = 'sk-terminal-91e3';
    const fake = await startFakeOpenAi({ apiKey: key });
    try {
      const env = { MNEMO_DATA_DIR: tempDir(), OLLAMA_HOST: 'http://127.0.0.1:9' };
      const run = (args: string[], stdin?: string) => runCli(args, env, stdin === undefined ? {} : { stdin });

      expect((await run(['settings', 'set', 'llmProvider', 'openai'])).stdout).toContain('llmProvider = openai');
      const remote = await run(['settings', 'set', 'openaiBaseUrl', 'http://192.168.1.20:1234/v1']);
      expect(remote.code).toBe(1);
      expect(remote.stderr).toContain('is not on this computer');
      expect((await run(['settings', 'set', 'openaiBaseUrl', fake.baseUrl])).code).toBe(0);

      const locked = await run(['models']);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toContain(`The model server at ${fake.baseUrl} refused the request (HTTP 401`);
      expect(locked.stderr).not.toContain(key);

      expect((await run(['settings', 'api-key', 'set', key])).code).toBe(2);
      const saved = await run(['settings', 'api-key', 'set'], `${key}\n`);
      expect(saved.code, saved.stderr).toBe(0);
      expect(saved.stdout).not.toContain(key);
      expect((await run(['settings', 'get'])).stdout).toMatch(/API key\s+set/);

      const models = await run(['models']);
      expect(models.code, models.stderr).toBe(0);
      expect(models.stdout).toContain(`Model server (OpenAI-compatible) at ${fake.baseUrl}`);
      expect(models.stdout).toMatch(/text-embedding-nomic-embed-text-v1\.5\s+\(not a chat model\)/);

      const chat = await run(['chat', 'hello there']);
      expect(chat.code, chat.stderr).toBe(0);
      expect(chat.stdout).toContain('You said: hello there');
      expect(fake.requests.filter((r) => r.path === '/v1/chat/completions').at(-1)?.headers.authorization).toBe(`Bearer ${key}`);

      expect((await run(['settings', 'api-key', 'clear'])).code).toBe(0);
      expect((await run(['settings', 'get'])).stdout).toMatch(/API key\s+not set/);
    } finally {
      await fake.close();
    }
  });
});
