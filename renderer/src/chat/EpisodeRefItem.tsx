/**
 * One episode a record of what the model saw names (EpisodeRef): its headline and day, and a link to its thread. The
 * one way an episode is shown among a search's results (ToolSearchList.tsx) and a prompt's recalled episodes
 * (RecalledEpisodeList.tsx).
 */
import type { EpisodeRef } from '../../../shared/contract';
import { formatRelativeTime } from '../format/format';
import { showMessage } from '../app/navigate';
import { useLanguage, useT } from '../i18n/use-t';

export function EpisodeRefItem({ episode }: { episode: EpisodeRef }) {
  const t = useT();
  const language = useLanguage();
  return (
    <li className="tool-search-episode">
      {t('receipt.search.episode', { title: episode.title, when: formatRelativeTime(episode.startedAt, Date.now(), language) })}{' '}
      <button type="button" className="ghost small" onClick={() => showMessage(episode.threadId, null)}>
        {t('episodes.openThread', { title: episode.threadTitle || t('receipt.search.untitled') })}
      </button>
    </li>
  );
}
