/**
 * Mnemo on an OpenAI-compatible server (LM Studio, llama-server, ...): the real core with settings.llmProvider
 * 'openai', its real adapter against a fake server speaking the protocol on loopback. Chat, learning, models,
 * embeddings, the typed failures, the API key's keeping, and the offline promise (a remote address needs a confirmation).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLlmProvider } from '../../electron/core/llm/llm-provider';
import { createFileSecretStore, PLAIN_SECRETS_FILE } from '../../electron/core/ports/file-secret-store';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { unwrap } from '../../shared/client';
import { Settings, type EventMessage } from '../../shared/contract';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import type { FakeOpenAiOptions, FakeOpenAiRequest } from '../fakes/fake-openai';
import { useChatHarnesses, type ChatHarnessOptions } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

const MODEL = 'llama-3.2-3b-instruct';
const isExtraction = (r: FakeOpenAiRequest) => r.purpose === 'extract';
const isTitle = (r: FakeOpenAiRequest) => r.purpose === 'title';
const LISBON = JSON.stringify({ memories: [{ content: 'Lives in Lisbon', category: 'knowledge', importance: 0.9, confidence: 0.9, validity: 'permanent', evidence: 'I live in Lisbon' }] });

async function harness(tempDir: () => string, opts: ChatHarnessOptions<FakeOpenAiOptions> = {}) {
  const h = await harnesses.openAi(tempDir(), opts);
  // Background work gets its own answers, so no job takes a reply meant for the chat.
  h.fake.setDefaultReply((req) => {
    if (isExtraction(req)) return { content: req.messages.at(-1)!.content.includes('Lisbon') ? LISBON : '{"memories": []}' };
    if (isTitle(req)) return { content: 'A title' };
    const last = req.messages.at(-1)?.content ?? '';
    return { content: `You said: ${last}` };
  });
  return h;
}

const chatCalls = (requests: Array<{ path: string; body: unknown }>) =>
  requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as { model: string; messages: Array<{ role: string; content: string }>; response_format?: unknown; options?: unknown });

describe('Mnemo on an OpenAI-compatible server', () => {
  const tempDir = useTempDirs();

  it('streams a chat reply from a model the server lists, chosen because the default is not there', async () => {
    const { core, client, fake } = await harness(tempDir);
    const deltas: string[] = [];
    core.subscribe((m: EventMessage) => {
      if (m.event === 'message.delta') deltas.push(m.payload.content);
    });

    const r = unwrap(await client.call('chat.send', { text: 'Hi! I like hiking in the Alps.' }));

    expect(r.assistantMessage).toMatchObject({ status: 'complete', content: 'You said: Hi! I like hiking in the Alps.', model: MODEL });
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(r.assistantMessage.content);
    const sent = chatCalls(fake.requests)[0]!;
    expect(sent.model).toBe(MODEL);
    expect(sent.messages[0]!.role).toBe('system');
    // No Ollama options: the server fixed the context when it loaded the model.
    expect(sent).not.toHaveProperty('options');
    expect(unwrap(await client.call('settings.get', {}))).toMatchObject({ chatModel: MODEL, backgroundModel: MODEL });
  });

  it('lists the models of /v1/models, an embedding model not offered for chat', async () => {
    const { client, fake } = await harness(tempDir);
    const overview = unwrap(await client.call('models.list', {}));
    expect(overview).toMatchObject({ api: 'openai', host: fake.baseUrl, reachable: true, error: null });
    expect(overview.models.map((m) => [m.name, m.chat])).toEqual([
      [MODEL, true],
      ['text-embedding-nomic-embed-text-v1.5', false],
    ]);
  });

  it('learns a memory from a conversation, asking for the answer with a JSON schema', async () => {
    const { core, client, fake } = await harness(tempDir, { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }) } });
    const first = unwrap(await client.call('chat.send', { text: 'I live in Lisbon and I work as a nurse there.' }));
    core.queue.start();
    await core.queue.waitForIdle();

    const list = unwrap(await client.call('memory.list', {})).items;
    expect(list.map((m) => [m.content, m.status, m.sourceMessageId])).toEqual([['Lives in Lisbon', 'active', first.userMessage.id]]);
    const extraction = chatCalls(fake.requests).find((b) => b.response_format !== undefined)!;
    expect(extraction.response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'mnemo_answer', strict: true } });
    expect(extraction.model).toBe(MODEL);
  });

  it('still learns from a server that refuses response_format: plain JSON and the lenient parser', async () => {
    const { core, client, fake } = await harness(tempDir, { core: { embedder: createBagOfWordsEmbedder({ dimensions: 64 }) } });
    fake.setFault({ kind: 'reject-response-format', sticky: true });
    unwrap(await client.call('chat.send', { text: 'I live in Lisbon and I work as a nurse there.' }));
    core.queue.start();
    await core.queue.waitForIdle();

    expect(unwrap(await client.call('memory.list', {})).items.map((m) => m.content)).toEqual(['Lives in Lisbon']);
    const extractions = fake.requests.filter((r) => r.purpose === 'extract').map((r) => r.body as { response_format?: unknown });
    expect(extractions.map((b) => b.response_format !== undefined)).toEqual([true, false]);
  });

  it('fails a reply with LLM_UNREACHABLE naming the address tried when the server is down', async () => {
    const { client, fake } = await harness(tempDir);
    unwrap(await client.call('settings.update', { patch: { chatModel: MODEL, backgroundModel: MODEL } }));
    await fake.stop();

    const r = await client.call('chat.send', { text: 'Anyone there?' });

    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('LLM_UNREACHABLE');
    expect(r.error.message).toContain(`Cannot reach the model server at ${fake.baseUrl}.`);
    const overview = unwrap(await client.call('models.list', {}));
    expect(overview).toMatchObject({ reachable: false, error: { code: 'LLM_UNREACHABLE' } });
  });

  it('embeds memories with an embedding model of the server (/v1/embeddings) when the embedding provider is the server', async () => {
    const { client, fake } = await harness(tempDir, { core: { embedder: null } });
    unwrap(await client.call('settings.update', { patch: { embeddingProvider: 'ollama', embeddingModel: 'text-embedding-nomic-embed-text-v1.5' } }));
    await expect.poll(async () => unwrap(await client.call('embedding.status', {})).state, { timeout: 10_000 }).toBe('ready');
    expect(unwrap(await client.call('embedding.status', {}))).toMatchObject({ provider: 'ollama', modelId: 'openai:text-embedding-nomic-embed-text-v1.5', dimensions: 16 });
    expect(fake.requests.some((r) => r.path === '/v1/embeddings')).toBe(true);
  });
});

describe('the offline promise', () => {
  const tempDir = useTempDirs();

  it('refuses to store a base URL on another machine until its address is confirmed', async () => {
    const { client } = await harness(tempDir);
    const refused = await client.call('settings.update', { patch: { openaiBaseUrl: 'http://192.168.1.20:1234/v1' } });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error).toMatchObject({ code: 'INVALID_INPUT', path: 'patch.openaiBaseUrl' });
    expect(refused.error.message).toContain('is not on this computer');
    expect(refused.error.message).toContain('openaiRemoteConfirmed = "http://192.168.1.20:1234"');

    unwrap(await client.call('settings.update', { patch: { openaiRemoteConfirmed: 'http://192.168.1.20:1234' } }));
    expect(unwrap(await client.call('settings.update', { patch: { openaiBaseUrl: 'http://192.168.1.20:1234/v1' } })).openaiBaseUrl).toBe('http://192.168.1.20:1234/v1');
    // Withdrawing the confirmation while the address is in use is refused as well.
    expect((await client.call('settings.update', { patch: { openaiRemoteConfirmed: '' } })).ok).toBe(false);
  });

  it('sends nothing to an unconfirmed remote address that got into the settings some other way', async () => {
    const fetched: string[] = [];
    const stored = Settings.parse({ llmProvider: 'openai', openaiBaseUrl: 'http://192.168.1.20:1234/v1' });
    const provider = createLlmProvider({ settings: () => stored, logger: silentLogger, secrets: createFileSecretStore({ dataDir: tempDir() }) });
    const original = globalThis.fetch;
    globalThis.fetch = ((input: string | URL | Request) => {
      fetched.push(String(input));
      return Promise.reject(new TypeError('fetch failed'));
    }) as typeof fetch;
    try {
      const err = await provider.chat({ model: MODEL, purpose: 'chat', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'FORBIDDEN', details: { host: 'http://192.168.1.20:1234/v1' } });
      expect((err as Error).message).toContain('Mnemo sent nothing.');
      await expect(provider.get().listModels()).rejects.toMatchObject({ code: 'FORBIDDEN' });
    } finally {
      globalThis.fetch = original;
    }
    expect(fetched).toEqual([]);
  });
});

describe('the API key', () => {
  const tempDir = useTempDirs();

  it('is kept outside the database, sent as a Bearer token, shown only as set or not, and can be cleared', async () => {
    const key = 'sk-lm-studio-5e2d9c';
    const { core, client, fake } = await harness(tempDir, { fake: { apiKey: key } });
    const changed: string[][] = [];
    core.subscribe((m) => {
      if (m.event === 'settings.changed') changed.push(m.payload.keys);
    });
    unwrap(await client.call('settings.update', { patch: { chatModel: MODEL, backgroundModel: MODEL } }));
    expect(unwrap(await client.call('settings.get', {})).openaiApiKeySet).toBe(false);
    const refused = await client.call('chat.send', { text: 'hello' });
    expect(refused.ok ? null : refused.error.code).toBe('UNAUTHORIZED');

    expect(unwrap(await client.call('settings.setApiKey', { key }))).toEqual({ openaiApiKeySet: true });
    expect(unwrap(await client.call('settings.get', {})).openaiApiKeySet).toBe(true);
    expect(changed).toContainEqual(['openaiApiKeySet']);
    expect(unwrap(await client.call('chat.send', { text: 'hello' })).assistantMessage.content).toBe('You said: hello');
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);

    // Not in the database, nor in a backup of it; in its own file, readable by the user only.
    const backup = unwrap(await client.call('db.backup', {}));
    for (const file of [core.paths.dbFile, backup.path]) expect(fs.readFileSync(file).includes(key)).toBe(false);
    expect(JSON.stringify(unwrap(await client.call('settings.get', {})))).not.toContain(key);
    const secretsFile = path.join(core.paths.dataDir, PLAIN_SECRETS_FILE);
    expect(fs.readFileSync(secretsFile, 'utf8')).toContain(key);
    if (process.platform !== 'win32') expect(fs.statSync(secretsFile).mode & 0o777).toBe(0o600);

    expect(unwrap(await client.call('settings.clearApiKey', {}))).toEqual({ openaiApiKeySet: false });
    expect(fs.readFileSync(secretsFile, 'utf8')).not.toContain(key);
    const again = await client.call('chat.send', { text: 'hello' });
    expect(again.ok ? null : again.error.code).toBe('UNAUTHORIZED');
  });

  it('is refused when empty or not a token', async () => {
    const { client } = await harness(tempDir);
    for (const key of ['', '   ', 'two words', 'line\nbreak']) {
      const r = await client.call('settings.setApiKey', { key });
      expect(r.ok ? null : r.error.code).toBe('INVALID_INPUT');
    }
    expect(unwrap(await client.call('settings.get', {})).openaiApiKeySet).toBe(false);
  });
});
