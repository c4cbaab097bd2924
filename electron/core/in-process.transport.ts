/**
 * The in-process transport (CLI and tests): the same envelopes as IPC and HTTP, without a wire. Inputs and outputs
 * still go through a JSON round trip so that in-process callers see exactly what a remote one would.
 */
import type { Transport } from '../../shared/contract';
import type { Core } from './create-core';

export function createInProcessTransport(core: Core): Transport {
  return {
    async invoke(name, input) {
      const result = await core.call(name, input === undefined ? undefined : JSON.parse(JSON.stringify(input)));
      return JSON.parse(JSON.stringify(result)) as typeof result;
    },
    subscribe: (listener) => core.subscribe((m) => listener(JSON.parse(JSON.stringify(m)) as typeof m)),
  };
}
