/**
 * OLLAMA_HOST as users set it for `ollama serve`, read by the real core with the real Ollama adapter against a fake
 * Ollama on loopback: an unspecified address (0.0.0.0, ::) reaches this computer, a quoted value works, and a value
 * that is no address is said plainly in models.list and by a chat, instead of leaving the app checking forever.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

describe('OLLAMA_HOST in the forms Ollama accepts', () => {
  const tempDir = useTempDirs();
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });

  async function fakeOllama(): Promise<FakeOllama> {
    const fake = await startFakeOllama({ models: [{ name: 'llama3.2', family: 'llama', parameterSize: '3.2B', capabilities: ['completion'] }] });
    open.push(() => fake.close());
    return fake;
  }

  function core(env: NodeJS.ProcessEnv) {
    const built = createTestCore(tempDir(), { env });
    open.push(() => built.core.dispose());
    return built.client;
  }

  it.each([['0.0.0.0:{port}'], ['"0.0.0.0:{port}"'], ['[::]:{port}'], [':{port}']])('%s reaches the Ollama on this computer', async (form) => {
    const fake = await fakeOllama();
    const client = core({ OLLAMA_HOST: form.replace('{port}', String(fake.port)) });
    // "::" is the IPv6 loopback, where the fake (on 127.0.0.1) does not listen: the address is what is checked there.
    const expected = form.startsWith('[::]') ? `http://[::1]:${fake.port}` : `http://127.0.0.1:${fake.port}`;
    const models = unwrap(await client.call('models.list', {}));
    expect(models).toMatchObject({ api: 'ollama', host: expected, hostSource: 'environment' });
    if (!form.startsWith('[::]')) expect(models).toMatchObject({ reachable: true, chatModel: { name: 'llama3.2', installed: true } });
  });

  it('a value that is no address: models.list and a chat say what is wrong and where to fix it', async () => {
    const client = core({ OLLAMA_HOST: 'my ollama box' });
    const models = unwrap(await client.call('models.list', {}));
    expect(models).toMatchObject({ api: 'ollama', reachable: false, hostSource: 'environment', error: { code: 'INVALID_INPUT' } });
    expect(models.error?.message).toBe(
      '"my ollama box" is not an Ollama address (it does not parse as a host name or IP address). Set OLLAMA_HOST or the Ollama host in Settings to host, host:port or http://host:port, e.g. 127.0.0.1:11434.',
    );
    const chat = await client.call('chat.send', { text: 'Hello' });
    expect(chat.ok).toBe(false);
    if (!chat.ok) expect(chat.error.message).toContain('is not an Ollama address');
  });
});
