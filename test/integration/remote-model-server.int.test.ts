/**
 * Consent before anything leaves the machine, through the real core on real SQLite (issue 26 item 6): an Ollama on
 * another machine, from settings or from OLLAMA_HOST, gets nothing until its address is confirmed, as an
 * OpenAI-compatible one (openai-provider.int.test.ts); a stored address with a password is refused where it is used,
 * without blocking other settings, and replaced by saving one without it; the terminal names the command that confirms.
 *
 * "Another machine" is a documentation address (192.0.2.x, RFC 5737) that nothing answers: the core's Ollama port is
 * built through the `llm` override, which records the host the core chose and talks to a fake Ollama on loopback, so
 * a confirmed remote is exercised end to end without leaving this computer, and an unconfirmed one proves that no
 * port was even built.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import type { Logger } from '../../electron/core/ports/logger.port';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';
import { startFakeOpenAi } from '../fakes/fake-openai';
import { runCliInProcess } from '../support/run-cli';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

const REMOTE = 'http://192.0.2.20:11434';

describe('an Ollama on another machine', () => {
  const tempDir = useTempDirs();
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });

  async function harness(env: NodeJS.ProcessEnv) {
    const fake: FakeOllama = await startFakeOllama({ models: [{ name: 'llama3.2', family: 'llama', parameterSize: '3.2B', capabilities: ['completion'] }] });
    open.push(() => fake.close());
    const built: string[] = [];
    const warnings: Array<{ message: string; fields: unknown }> = [];
    const logger: Logger = { debug() {}, info() {}, error() {}, warn: (message, fields) => void warnings.push({ message, fields }) };
    const { core, client } = createTestCore(tempDir(), {
      env,
      logger,
      startQueue: false,
      llm: (host) => {
        built.push(host);
        return createOllamaLlm({ host: `http://127.0.0.1:${fake.port}`, logger });
      },
    });
    open.push(() => core.dispose());
    return { client, fake, built, warnings };
  }

  it('in settings: refused until its address is confirmed, then used; the confirmation cannot be withdrawn while it is', async () => {
    const { client, built } = await harness({});
    const refused = await client.call('settings.update', { patch: { ollamaHost: REMOTE } });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error).toMatchObject({ code: 'INVALID_INPUT', path: 'patch.ollamaHost' });
    expect(refused.error.message).toContain(`${REMOTE} is not on this computer`);
    expect(refused.error.message).toContain(`ollamaRemoteConfirmed = "${REMOTE}"`);

    unwrap(await client.call('settings.update', { patch: { ollamaHost: REMOTE, ollamaRemoteConfirmed: REMOTE } }));
    const models = unwrap(await client.call('models.list', {}));
    expect(models).toMatchObject({ hostSource: 'settings', remote: { address: REMOTE, confirmed: true }, reachable: true });
    expect(built).toEqual([REMOTE]);
    expect((await client.call('chat.send', { text: 'Hello' })).ok).toBe(true);

    expect((await client.call('settings.update', { patch: { ollamaRemoteConfirmed: '' } })).ok).toBe(false);
    // Back on this computer: no remote left to name.
    unwrap(await client.call('settings.update', { patch: { ollamaHost: '' } }));
    expect(unwrap(await client.call('models.list', {})).remote).toBeNull();
  });

  it('from OLLAMA_HOST: sends nothing, says so once with what to do, and asks; confirmed, it is used', async () => {
    const { client, built, warnings, fake } = await harness({ OLLAMA_HOST: '192.0.2.20' });
    const models = unwrap(await client.call('models.list', {}));
    expect(models).toMatchObject({ host: REMOTE, hostSource: 'environment', remote: { address: REMOTE, confirmed: false }, reachable: false, error: { code: 'FORBIDDEN' } });
    expect(models.error?.message).toBe(
      `Mnemo sent nothing. OLLAMA_HOST in the environment points at ${REMOTE}, which is not on this computer: your conversations and memories would be sent to ${REMOTE}. ` +
        `If you run the model server there and trust that machine, confirm its address first (setting ollamaRemoteConfirmed = "${REMOTE}"); otherwise use a server on this computer, such as http://127.0.0.1:11434.`,
    );
    const chat = await client.call('chat.send', { text: 'My salary is 4,200 a month' });
    expect(chat.ok).toBe(false);
    if (!chat.ok) expect(chat.error).toMatchObject({ code: 'FORBIDDEN', details: { confirm: { setting: 'ollamaRemoteConfirmed', address: REMOTE } } });
    unwrap(await client.call('models.list', {}));
    // No port was built for it, and so nothing sent; the refusal was logged once, not at every request.
    expect(built).toEqual([]);
    expect(fake.requests).toEqual([]);
    expect(warnings.filter((w) => w.message === 'refused to send to a model server')).toHaveLength(1);

    unwrap(await client.call('settings.update', { patch: { ollamaRemoteConfirmed: REMOTE } }));
    expect(unwrap(await client.call('models.list', {}))).toMatchObject({ remote: { address: REMOTE, confirmed: true }, reachable: true });
    expect(built).toEqual([REMOTE]);
  });

  it('the embedder asks through the same port: refused as well, before anything is sent', async () => {
    const { client, built } = await harness({ OLLAMA_HOST: REMOTE });
    // The settings change itself is allowed: OLLAMA_HOST is not a setting, and the refusal stands where it is used.
    unwrap(await client.call('settings.update', { patch: { embeddingProvider: 'ollama', embeddingModel: 'nomic-embed-text' } }));
    await expect.poll(async () => unwrap(await client.call('embedding.status', {})).state, { timeout: 60_000 }).toBe('unavailable');
    expect(unwrap(await client.call('embedding.status', {}))).toMatchObject({ reason: 'remote_unconfirmed', message: expect.stringContaining('Mnemo sent nothing. OLLAMA_HOST') });
    expect(built).toEqual([]);
  });
});

describe('credentials in a stored address', () => {
  const tempDir = useTempDirs();

  it('an address stored with a password by an older version is refused where it is used, blocks nothing else, and goes when replaced', async () => {
    const fake = await startFakeOpenAi();
    const dataDir = tempDir();
    try {
      const first = createTestCore(dataDir, { env: {}, startQueue: false });
      unwrap(await first.client.call('settings.update', { patch: { llmProvider: 'openai', openaiBaseUrl: fake.baseUrl } }));
      await first.core.dispose();
      // What an older Mnemo accepted: the password in the URL, in the settings table (and so in every backup).
      const withPassword = fake.baseUrl.replace('http://', 'http://me:hunter2@');
      const sqlite = new Database(path.join(dataDir, 'mnemo.db'));
      sqlite.prepare("UPDATE settings SET value = ? WHERE key = 'openaiBaseUrl'").run(JSON.stringify(withPassword));
      sqlite.close();

      const { core, client } = createTestCore(dataDir, { env: {}, startQueue: false });
      try {
        const models = unwrap(await client.call('models.list', {}));
        expect(models).toMatchObject({ reachable: false, error: { code: 'FORBIDDEN' } });
        expect(models.error?.message).toContain('holds a user name or password');
        expect(models.error?.message).toContain('API key field');
        expect(models.error?.message).not.toContain('hunter2');
        expect((await client.call('chat.send', { text: 'Hello' })).ok).toBe(false);
        expect(fake.requests).toEqual([]);

        // Other settings still save; a new address with a password is refused at the contract.
        unwrap(await client.call('settings.update', { patch: { theme: 'dark' } }));
        const again = await client.call('settings.update', { patch: { openaiBaseUrl: withPassword } });
        expect(again.ok).toBe(false);
        if (!again.ok) expect(again.error).toMatchObject({ code: 'INVALID_INPUT', path: 'patch.openaiBaseUrl' });
        expect((await client.call('settings.update', { patch: { openaiBaseUrl: `${fake.baseUrl}?key=1` } })).ok).toBe(false);

        // Saved without it, the password leaves the settings table and requests go.
        unwrap(await client.call('settings.update', { patch: { openaiBaseUrl: fake.baseUrl } }));
        expect(unwrap(await client.call('models.list', {})).reachable).toBe(true);
      } finally {
        await core.dispose();
      }
      const after = new Database(path.join(dataDir, 'mnemo.db'), { readonly: true });
      expect(JSON.stringify(after.prepare('SELECT value FROM settings').all())).not.toContain('hunter2');
      after.close();
    } finally {
      await fake.close();
    }
  });
});

describe('from the terminal', () => {
  const tempDir = useTempDirs();

  it('an OLLAMA_HOST on another machine: the error names the command that confirms it; --confirm-remote confirms a host set', { timeout: 300_000 }, async () => {
    const dataDir = tempDir();
    const run = (args: string[], env: Record<string, string> = {}) => runCliInProcess(args, { MNEMO_DATA_DIR: dataDir, OLLAMA_HOST: '', ...env });

    const models = await run(['models'], { OLLAMA_HOST: '192.0.2.20:11434' });
    expect(models.code).toBe(1);
    expect(models.stderr).toContain('Mnemo sent nothing. OLLAMA_HOST in the environment points at http://192.0.2.20:11434');
    expect(models.stderr).toContain('To send to it: mnemo settings set ollamaRemoteConfirmed http://192.0.2.20:11434');
    const chat = await run(['chat', 'Hello'], { OLLAMA_HOST: '192.0.2.20:11434' });
    expect(chat.code).toBe(1);
    expect(chat.stderr).toContain('To send to it: mnemo settings set ollamaRemoteConfirmed http://192.0.2.20:11434');

    const refused = await run(['settings', 'set', 'ollamaHost', 'http://192.0.2.21:11434']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not on this computer');
    expect(refused.stderr).toContain('run it again with --confirm-remote');
    const confirmed = await run(['settings', 'set', 'ollamaHost', 'http://192.0.2.21:11434', '--confirm-remote']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stdout).toBe('ollamaHost = http://192.0.2.21:11434\nollamaRemoteConfirmed = http://192.0.2.21:11434\n');
    expect((await run(['settings', 'set', 'theme', 'dark', '--confirm-remote'])).code).toBe(2);
    const password = await run(['settings', 'set', 'openaiBaseUrl', 'http://me:hunter2@127.0.0.1:1234/v1']);
    expect(password.code).toBe(1);
    expect(password.stderr).toContain('API key field');
  });
});
