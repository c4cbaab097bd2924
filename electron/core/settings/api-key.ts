/**
 * The OpenAI-compatible server's API key, as the settings operations handle it. Not a setting: settings live in the
 * database, which goes into backups, and into exports; the key goes to the secret store (ports/secret-store.port.ts)
 * and the LLM provider reads it from there for each request. Events and answers say only whether a key is set.
 */
import type { EventBus } from '../runtime/event-bus';
import type { SecretStore } from '../ports/secret-store.port';

export interface ApiKey {
  set(key: string): void;
  clear(): void;
  isSet(): boolean;
}

/** What settings.changed names when the key was set or cleared, as settings.get shows it. */
export const API_KEY_SET = 'openaiApiKeySet';

export function createApiKey(deps: { secrets: SecretStore; events: EventBus }): ApiKey {
  const { secrets, events } = deps;
  return {
    set(key) {
      secrets.set('openaiApiKey', key);
      events.emit('settings.changed', { keys: [API_KEY_SET] });
    },
    clear() {
      secrets.delete('openaiApiKey');
      events.emit('settings.changed', { keys: [API_KEY_SET] });
    },
    isSet: () => secrets.get('openaiApiKey') !== null,
  };
}
