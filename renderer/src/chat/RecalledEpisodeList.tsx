/**
 * The earlier conversations (episodes) of the time a question asked about that its prompt carried ("What did we talk
 * about last week?": RecalledEpisodes), so the user sees why the model knew about them: each by its headline and day,
 * with a link to its thread; those deleted forever since counted without their titles. Used by the receipt under an
 * answer and by the "What the model saw" dialog.
 */
import type { EpisodeRef } from '../../../shared/contract';
import { useT } from '../i18n/use-t';
import { EpisodeRefItem } from './EpisodeRefItem';

export function RecalledEpisodeList({ episodes, forgotten = 0 }: { episodes: EpisodeRef[]; forgotten?: number }) {
  const t = useT();
  return (
    <div className="recalled-episodes">
      <p className="recalled-episodes-line">{t('receipt.recalled.line', { count: episodes.length + forgotten })}</p>
      <ul className="tool-search-results">
        {episodes.map((e) => (
          <EpisodeRefItem key={e.episodeId} episode={e} />
        ))}
        {forgotten > 0 && <li className="tool-search-forgotten">{t('receipt.recalled.forgotten', { count: forgotten })}</li>}
      </ul>
    </div>
  );
}
