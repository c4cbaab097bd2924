/**
 * A chat model that just works: a user who never chose models and has not installed the default (llama3.2) gets an
 * installed chat model for chat and background work, told once and stored; an embedding-only model is never it, a
 * model the user chose is never replaced. The real core on real SQLite, the real Ollama adapter, a fake Ollama on
 * loopback; the terminal host in this process (run.ts).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { EventMessage, EventPayload } from '../../shared/contract';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { startFakeOllama, type FakeModel, type FakeOllama, type FakeOllamaOptions } from '../fakes/fake-ollama';
import { runCliInProcess } from '../support/run-cli';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

const QWEN: FakeModel = { name: 'qwen3:4b', family: 'qwen3', parameterSize: '4.0B', capabilities: ['completion', 'tools', 'thinking'] };
const NOMIC: FakeModel = { name: 'nomic-embed-text', family: 'nomic-bert', parameterSize: '137M', capabilities: ['embedding'] };
/** Runs a few command lines, each opening a core: seconds on a loaded machine. */
const CLI_TEST_TIMEOUT_MS = 120_000;

describe('choosing a chat model when the user has not', () => {
  const tempDir = useTempDirs();
  const open: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of open.splice(0).reverse()) await close();
  });

  async function fakeOllama(options: FakeOllamaOptions): Promise<FakeOllama> {
    const fake = await startFakeOllama(options);
    open.push(() => fake.close());
    // Learning finds nothing worth keeping; a title is a title; a chat answer echoes.
    fake.setDefaultReply((req) => {
      if (req.purpose === 'extract') return { content: '{"memories": []}' };
      return { content: req.purpose === 'title' ? 'Greetings' : `You said: ${req.messages.at(-1)?.content ?? ''}` };
    });
    return fake;
  }

  function core(dataDir: string, fake: FakeOllama) {
    const built = createTestCore(dataDir, { llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url }, startQueue: false });
    open.push(() => built.core.dispose());
    const chosen: Array<EventPayload<'model.autoSelected'>> = [];
    built.core.subscribe((m: EventMessage) => {
      if (m.event === 'model.autoSelected') chosen.push(m.payload);
    });
    return { ...built, chosen };
  }

  const chatModels = (fake: FakeOllama) => fake.requests.filter((r) => r.path === '/api/chat').map((r) => (r.body as { model: string }).model);

  it('qwen3:4b and an embedding model installed, no llama3.2: chat answers with qwen3:4b, background work uses it too, the choice is stored', async () => {
    const fake = await fakeOllama({ models: [NOMIC, QWEN] });
    const dataDir = tempDir();
    const { core: mnemo, client, chosen } = core(dataDir, fake);

    const text = 'Hi! I moved to Porto last year and I go sailing every weekend.';
    const r = unwrap(await client.call('chat.send', { text }));
    expect(r.assistantMessage).toMatchObject({ status: 'complete', content: `You said: ${text}`, model: 'qwen3:4b' });
    expect(chosen).toEqual([{ name: 'qwen3:4b', keys: ['chatModel', 'backgroundModel'], instead: 'llama3.2' }]);
    expect(unwrap(await client.call('settings.get', {}))).toMatchObject({ chatModel: 'qwen3:4b', backgroundModel: 'qwen3:4b' });

    // The title, the learning and the working memory that followed ran on the chosen model, not on the missing default.
    await mnemo.queue.runUntilIdle();
    const queue = unwrap(await client.call('queue.status', {}));
    expect(queue).toMatchObject({ queued: 0, dead: 0, paused: null });
    expect(unwrap(await client.call('queue.list', { status: ['done'] })).jobs.map((j) => j.kind).sort()).toEqual(['extract', 'focus', 'title']);
    expect(chatModels(fake)).toHaveLength(4);
    expect(new Set(chatModels(fake))).toEqual(new Set(['qwen3:4b']));

    // Stored: the next start uses it without choosing again.
    await mnemo.dispose();
    const again = core(dataDir, fake);
    expect(unwrap(await again.client.call('chat.send', { text: 'hello again' })).assistantMessage.model).toBe('qwen3:4b');
    expect(again.chosen).toEqual([]);
  });

  it('the app asks models.list first: it chooses there, and marks which installed models can chat', async () => {
    const fake = await fakeOllama({ models: [NOMIC, QWEN] });
    const { client, chosen } = core(tempDir(), fake);
    const overview = unwrap(await client.call('models.list', {}));
    expect(overview.chatModel).toEqual({ name: 'qwen3:4b', installed: true });
    expect(overview.backgroundModel).toEqual({ name: 'qwen3:4b', installed: true });
    expect(overview.models.map((m) => [m.name, m.chat])).toEqual([
      ['nomic-embed-text:latest', false],
      ['qwen3:4b', true],
    ]);
    expect(chosen).toHaveLength(1);
    // Asked again: nothing more to choose, nothing announced twice.
    unwrap(await client.call('models.list', {}));
    expect(chosen).toHaveLength(1);
  });

  it('replies started together choose once and announce it once', async () => {
    const fake = await fakeOllama({ models: [NOMIC, QWEN] });
    const { client, chosen } = core(tempDir(), fake);
    const a = unwrap(await client.call('thread.create', {}));
    const b = unwrap(await client.call('thread.create', {}));
    const replies = await Promise.all([client.call('chat.send', { threadId: a.id, text: 'one' }), client.call('chat.send', { threadId: b.id, text: 'two' })]);
    expect(replies.map((r) => unwrap(r).assistantMessage.model)).toEqual(['qwen3:4b', 'qwen3:4b']);
    expect(chosen).toHaveLength(1);
  });

  it('several installed: the same deterministic pick (laptop size, general family, newest), never the embedding model', async () => {
    const fake = await fakeOllama({
      models: [
        { ...NOMIC, modifiedAt: '2025-09-01T00:00:00Z' },
        { name: 'llama3.3:70b', family: 'llama', parameterSize: '70.6B', modifiedAt: '2025-08-01T00:00:00Z' },
        { ...QWEN, modifiedAt: '2025-03-01T00:00:00Z' },
        { name: 'gemma3:4b', family: 'gemma3', parameterSize: '4.3B', capabilities: ['completion', 'vision'], modifiedAt: '2025-05-01T00:00:00Z' },
      ],
    });
    const { client } = core(tempDir(), fake);
    expect(unwrap(await client.call('chat.send', { text: 'hi' })).assistantMessage.model).toBe('gemma3:4b');
  });

  it('an Ollama too old to report capabilities (before 0.6.4): the embedding model is told by its name and family', async () => {
    const fake = await fakeOllama({ models: [NOMIC, QWEN], version: '0.5.7' });
    const { client } = core(tempDir(), fake);
    const show = unwrap(await client.call('models.show', { name: 'qwen3:4b' }));
    expect(show.capabilities).toEqual([]);
    const overview = unwrap(await client.call('models.list', {}));
    expect(overview.models.map((m) => [m.name, m.chat])).toEqual([
      ['nomic-embed-text:latest', false],
      ['qwen3:4b', true],
    ]);
    expect(overview.chatModel).toEqual({ name: 'qwen3:4b', installed: true });
  });

  it('only an embedding model installed: nothing is chosen, the chat says the default is missing, and nothing is stored', async () => {
    const fake = await fakeOllama({ models: [NOMIC] });
    const { client, chosen } = core(tempDir(), fake);
    const r = await client.call('chat.send', { text: 'hi' });
    expect(r).toMatchObject({ ok: false, error: { code: 'MODEL_NOT_FOUND', message: expect.stringContaining('ollama pull llama3.2') } });
    expect(chosen).toEqual([]);
    expect(chatModels(fake)).toEqual([]);

    // Once a chat model is installed, the next message gets it.
    fake.setModels([NOMIC, QWEN]);
    expect(unwrap(await client.call('chat.send', { text: 'hi' })).assistantMessage.model).toBe('qwen3:4b');
  });

  it('the default installed: it is used, nothing is chosen or stored (a later default may still apply)', async () => {
    const fake = await fakeOllama({ models: [{ name: 'llama3.2', capabilities: ['completion', 'tools'] }, QWEN, NOMIC] });
    const dataDir = tempDir();
    const { core: mnemo, client, chosen } = core(dataDir, fake);
    expect(unwrap(await client.call('chat.send', { text: 'hi' })).assistantMessage.model).toBe('llama3.2');
    expect(chosen).toEqual([]);
    await mnemo.dispose();

    // Stored nothing: with the default gone, the next start chooses.
    fake.setModels([QWEN, NOMIC]);
    const later = core(dataDir, fake);
    expect(unwrap(await later.client.call('chat.send', { text: 'hi' })).assistantMessage.model).toBe('qwen3:4b');
    expect(later.chosen).toHaveLength(1);
  });

  it('a model the user chose is never replaced, even when it is gone; a background model never chosen follows the chat model', async () => {
    const fake = await fakeOllama({ models: [NOMIC, QWEN, { name: 'gemma3:4b', family: 'gemma3', parameterSize: '4.3B', modifiedAt: '2025-06-01T00:00:00Z' }] });
    const { client, chosen } = core(tempDir(), fake);

    // Chose the default by name: it is the user's choice now, missing or not.
    unwrap(await client.call('settings.update', { patch: { chatModel: 'llama3.2' } }));
    const missing = await client.call('chat.send', { text: 'hi' });
    expect(missing).toMatchObject({ ok: false, error: { code: 'MODEL_NOT_FOUND' } });
    // The background model was never chosen and its default is missing too: it gets a pick, the chat model stays.
    expect(chosen).toEqual([{ name: 'gemma3:4b', keys: ['backgroundModel'], instead: 'llama3.2' }]);
    expect(unwrap(await client.call('settings.get', {}))).toMatchObject({ chatModel: 'llama3.2', backgroundModel: 'gemma3:4b' });

    // Choosing an installed chat model leaves the stored background model alone.
    unwrap(await client.call('settings.update', { patch: { chatModel: 'qwen3:4b' } }));
    expect(unwrap(await client.call('chat.send', { text: 'hi' })).assistantMessage.model).toBe('qwen3:4b');
    expect(unwrap(await client.call('settings.get', {}))).toMatchObject({ chatModel: 'qwen3:4b', backgroundModel: 'gemma3:4b' });
    expect(chosen).toHaveLength(1);
  });

  it('a chat model chosen and installed: a background model never chosen takes the same model (one model in memory)', async () => {
    const fake = await fakeOllama({ models: [NOMIC, QWEN, { name: 'gemma3:4b', family: 'gemma3', parameterSize: '4.3B', modifiedAt: '2025-06-01T00:00:00Z' }] });
    const { client, chosen } = core(tempDir(), fake);
    unwrap(await client.call('settings.update', { patch: { chatModel: 'qwen3:4b' } }));
    expect(unwrap(await client.call('models.list', {})).backgroundModel).toEqual({ name: 'qwen3:4b', installed: true });
    expect(chosen).toEqual([{ name: 'qwen3:4b', keys: ['backgroundModel'], instead: 'llama3.2' }]);
  });

  it('Ollama down: nothing is chosen, the chat fails as before naming the host, and a later message chooses', async () => {
    const fake = await fakeOllama({ models: [NOMIC, QWEN] });
    const { client, chosen } = core(tempDir(), fake);
    await fake.stop();
    const r = await client.call('chat.send', { text: 'hi' });
    expect(r).toMatchObject({ ok: false, error: { code: 'OLLAMA_UNREACHABLE', message: expect.stringContaining(fake.url) } });
    expect(chosen).toEqual([]);
    await fake.restart();
    expect(unwrap(await client.call('chat.send', { text: 'hi' })).assistantMessage.model).toBe('qwen3:4b');
  });

  it('the terminal: `chat "hi"` answers and says in one line which model it chose, once; `models` marks the embedding model', { timeout: CLI_TEST_TIMEOUT_MS }, async () => {
    const fake = await fakeOllama({ models: [NOMIC, QWEN] });
    const env = { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: tempDir() };

    const first = await runCliInProcess(['chat', 'hi'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe('You said: hi');
    expect(first.stderr.trim().split('\n')).toEqual([
      "mnemo: llama3.2 is not installed, so Mnemo uses qwen3:4b for chat and background work from now on (change it in the app's Settings; --model NAME for one message).",
    ]);

    const second = await runCliInProcess(['chat', '--json', 'hi again'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe('');
    expect(JSON.parse(second.stdout)).toMatchObject({ reply: 'You said: hi again', status: 'complete' });

    const models = await runCliInProcess(['models'], env);
    expect(models.code, models.stderr).toBe(0);
    expect(models.stdout).toMatch(/nomic-embed-text:latest\s+137M\s+\(not a chat model\)/);
    expect(models.stdout).toMatch(/qwen3:4b\s+4\.0B\n/);
    expect(models.stdout).toContain('chat model:       qwen3:4b\n');
  });
});
