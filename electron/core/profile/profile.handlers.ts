/** `profile.*`: the profile page (read, the user's edit, refresh now). */
import type { HandlersFor } from '../rpc/dispatcher';
import type { ProfileService } from './profile.service';

export function profileHandlers(profile: ProfileService): HandlersFor<'profile'> {
  return {
    'profile.get': () => profile.getWithFit(),
    'profile.update': ({ content }) => profile.update(content),
    'profile.refresh': ({ shorten }) => (shorten ? profile.shortenNow() : profile.refreshNow()),
  };
}
