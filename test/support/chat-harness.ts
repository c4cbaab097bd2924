import path from 'node:path';
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
  /** Disposes the core, then closes the fake server. */
  close(): Promise<void>;
}

function harness<Fake extends { close(): Promise<void> }>(core: Core, client: Client, fake: Fake): ChatHarness<Fake> {
  return {
    core,
    client,
    fake,
    async close() {
      await core.dispose();
      await fake.close();
    },
  };
}

/** A real core whose real Ollama adapter talks to a fake Ollama server on loopback. */
export async function createChatHarness(dataDir: string, opts: { fake?: FakeOllamaOptions; core?: Partial<CoreOptions> } = {}): Promise<ChatHarness<FakeOllama>> {
  const fake = await startFakeOllama(opts.fake);
  const { core, client } = createTestCore(path.join(dataDir, 'data'), {
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
export async function createOpenAiChatHarness(dataDir: string, opts: { fake?: FakeOpenAiOptions; core?: Partial<CoreOptions> } = {}): Promise<ChatHarness<FakeOpenAi>> {
  const fake = await startFakeOpenAi(opts.fake);
  const { core, client } = createTestCore(path.join(dataDir, 'data'), { env: {}, startQueue: false, ...opts.core });
  unwrap(await client.call('settings.update', { patch: { llmProvider: 'openai', openaiBaseUrl: fake.baseUrl } }));
  return harness(core, client, fake);
}
