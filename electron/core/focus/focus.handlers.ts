/** `focus.*`: a thread's working memory (read, the user's edits, clear) and the active work across threads. */
import type { HandlersFor } from '../rpc/dispatcher';
import type { FocusService } from './focus.service';

export function focusHandlers(focus: FocusService): HandlersFor<'focus'> {
  return {
    'focus.get': ({ threadId }) => focus.get(threadId),
    'focus.update': ({ threadId, edit }) => focus.update(threadId, edit),
    'focus.clear': ({ threadId }) => focus.clear(threadId),
    'focus.listActive': () => focus.listActive(),
  };
}
