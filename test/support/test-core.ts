import { createClient, type Client } from '../../shared/client';
import { createCore, type Core, type CoreOptions } from '../../electron/core/create-core';
import { createInProcessTransport } from '../../electron/core/in-process.transport';

/**
 * The lane's pause after each answer (llm/model-lane.ts LANE_TIMING.afterChatGraceMs, 1.5 s of real time) is the app's
 * courtesy to a person about to type again. A test that chats and then waits for learning would sleep through it on
 * every exchange, so a test core learns at once; a test of the lane passes its own `laneTiming`
 * (test/integration/model-lane.int.test.ts), which replaces this one whole.
 */
const TEST_LANE_TIMING: CoreOptions['laneTiming'] = { afterChatGraceMs: 0 };

/** A real core on a real SQLite file in `dataDir`, with output checking on. Fakes only at the process edge. */
export function createTestCore(dataDir: string, options: Partial<CoreOptions> = {}): { core: Core; client: Client } {
  const core = createCore({ dataDir, host: 'test', checkOutputs: true, laneTiming: TEST_LANE_TIMING, ...options });
  return { core, client: createClient(createInProcessTransport(core)) };
}
