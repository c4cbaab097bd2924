import path from 'node:path';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import type { Core, CoreOptions } from '../../electron/core/create-core';
import type { Client } from '../../shared/client';
import { startFakeOllama, type FakeOllama, type FakeOllamaOptions } from '../fakes/fake-ollama';
import { createTestCore } from './test-core';

/** A real core whose real Ollama adapter talks to a fake Ollama server on loopback. */
export async function createChatHarness(
  dataDir: string,
  opts: { fake?: FakeOllamaOptions; core?: Partial<CoreOptions> } = {},
): Promise<{ core: Core; client: Client; fake: FakeOllama; close(): Promise<void> }> {
  const fake = await startFakeOllama(opts.fake);
  const { core, client } = createTestCore(path.join(dataDir, 'data'), {
    llm: (host) => createOllamaLlm({ host }),
    env: { OLLAMA_HOST: fake.url },
    ...opts.core,
  });
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
