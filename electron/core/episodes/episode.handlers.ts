/** `episode.*`: the Episodes tab and the CLI (list, read with versions, edit, trash or delete for good, revert, write now). */
import type { HandlersFor } from '../rpc/dispatcher';
import type { EpisodeService } from './episode.service';

export function episodeHandlers(episodes: EpisodeService): HandlersFor<'episode'> {
  return {
    'episode.list': (input) => episodes.list(input),
    'episode.get': ({ id }) => episodes.get(id),
    'episode.update': ({ id, content, title }) => episodes.update(id, { content, title }),
    'episode.delete': ({ id, forever }) => episodes.delete(id, forever),
    'episode.restore': ({ id }) => episodes.restore(id),
    'episode.revert': ({ id, version }) => episodes.revert(id, version),
    'episode.refresh': ({ threadId }) => episodes.refresh(threadId),
  };
}
