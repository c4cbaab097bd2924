/** `settings.*`. */
import type { HandlersFor } from '../rpc/dispatcher';
import type { ApiKey } from './api-key';
import type { SettingsService } from './settings.service';

export function settingsHandlers(settings: SettingsService, apiKey: ApiKey): HandlersFor<'settings'> {
  const view = <T>(values: T) => ({ ...values, openaiApiKeySet: apiKey.isSet() });
  return {
    'settings.get': () => view(settings.get()),
    'settings.update': ({ patch }) => view(settings.update(patch)),
    'settings.setApiKey': ({ key }) => {
      apiKey.set(key);
      return { openaiApiKeySet: true as const };
    },
    'settings.clearApiKey': () => {
      apiKey.clear();
      return { openaiApiKeySet: false as const };
    },
  };
}
