import { createClient, type Client } from '../../shared/client';
import { createCore, type Core, type CoreOptions } from '../../electron/core/create-core';
import { createInProcessTransport } from '../../electron/core/in-process.transport';

/** A real core on a real SQLite file in `dataDir`, with output checking on. Fakes only at the process edge. */
export function createTestCore(dataDir: string, options: Partial<CoreOptions> = {}): { core: Core; client: Client } {
  const core = createCore({ dataDir, host: 'test', checkOutputs: true, ...options });
  return { core, client: createClient(createInProcessTransport(core)) };
}
