/** `settings.*`. */
import type { HandlersFor } from '../rpc/dispatcher';
import type { SettingsService } from './settings.service';

export function settingsHandlers(settings: SettingsService): HandlersFor<'settings'> {
  return {
    'settings.get': () => settings.get(),
    'settings.update': ({ patch }) => settings.update(patch),
  };
}
