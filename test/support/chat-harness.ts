import path from 'node:path';
import { afterEach } from 'vitest';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import type { Core, CoreOptions } from '../../electron/core/create-core';
import { unwrap, type Client } from '../../shared/client';
import { startFakeOllama, type FakeOllama, type FakeOllamaOptions } from '../fakes/fake-ollama';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from '../fakes/fake-openai';
import { createTestCore } from './test-core';

export interface ChatHarness<Fake> {
  core: Core;
  client: Client;
  fake: Fake;
  /** Disposes the core, then closes the fake server; once (a test may close it before its afterEach does). */
  close(): Promise<void>;
}

function harness<Fake extends { close(): Promise<void> }>(core: Core, client: Client, fake: Fake): ChatHarness<Fake> {
  let closed: Promise<void> | null = null;
  return {
    core,
    client,
    fake,
    close: () =>
      (closed ??= (async () => {
        await core.dispose();
        await fake.close();
      })()),
  };
}

export interface ChatHarnessOptions<FakeOptions = FakeOllamaOptions> {
  fake?: FakeOptions;
  core?: Partial<CoreOptions>;
}

/** A real core whose real Ollama adapter talks to a fake Ollama server on loopback; its data in `dataDir`/data. */
export function createChatHarness(dataDir: string, opts: ChatHarnessOptions = {}): Promise<ChatHarness<FakeOllama>> {
  return openChatHarness(path.join(dataDir, 'data'), opts);
}

/** The same on the data folder given (one a test filled before the core opens it). */
export async function openChatHarness(dataDir: string, opts: ChatHarnessOptions = {}): Promise<ChatHarness<FakeOllama>> {
  const fake = await startFakeOllama(opts.fake);
  const { core, client } = createTestCore(dataDir, {
    llm: (host) => createOllamaLlm({ host }),
    env: { OLLAMA_HOST: fake.url },
    ...opts.core,
  });
  return harness(core, client, fake);
}

/**
 * A real core whose LLM provider is the OpenAI-compatible one (settings.llmProvider 'openai'), its real adapter
 * talking to a fake OpenAI-compatible server on loopback. The queue is the caller's to start (it would first probe
 * Ollama, the provider before the settings change).
 */
export async function createOpenAiChatHarness(dataDir: string, opts: ChatHarnessOptions<FakeOpenAiOptions> = {}): Promise<ChatHarness<FakeOpenAi>> {
  const fake = await startFakeOpenAi(opts.fake);
  const { core, client } = createTestCore(path.join(dataDir, 'data'), { env: {}, startQueue: false, ...opts.core });
  unwrap(await client.call('settings.update', { patch: { llmProvider: 'openai', openaiBaseUrl: fake.baseUrl } }));
  return harness(core, client, fake);
}

/**
 * The harnesses a test file opens, each on the folder given: all closed after each test, newest first. `keep` adds
 * anything else the test opened (a second core, a core reopened on the same folder) to be closed with them.
 */
export function useChatHarnesses() {
  const open: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const h of open.splice(0).reverse()) await h.close();
  });
  const keep = <T extends { close(): Promise<void> }>(opened: T): T => {
    open.push(opened);
    return opened;
  };
  return {
    ollama: async (dataDir: string, opts?: ChatHarnessOptions<FakeOllamaOptions>) => keep(await createChatHarness(dataDir, opts)),
    openAi: async (dataDir: string, opts?: ChatHarnessOptions<FakeOpenAiOptions>) => keep(await createOpenAiChatHarness(dataDir, opts)),
    keep,
  };
}
