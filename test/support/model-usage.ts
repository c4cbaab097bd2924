import { unwrap, type Client } from '../../shared/client';
import type { ModelUsage } from '../../shared/contract';

/**
 * What the background-model gateway counted for one purpose (queue.usage). A test compares its `requests` with the
 * requests of that kind the fake server saw: equal counts mean every one of them went through the gateway.
 */
export async function usageFor(client: Client, purpose: ModelUsage['purposes'][number]['purpose']): Promise<ModelUsage['purposes'][number]> {
  return unwrap(await client.call('queue.usage', {})).purposes.find((p) => p.purpose === purpose)!;
}
