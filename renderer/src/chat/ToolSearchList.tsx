/**
 * The searches the model ran with the memory tools for one answer (ToolSearch): which tool, the words it searched for,
 * and what came back (the memories by their text, episodes by their headline and day with a link to their thread, past
 * messages by whose they are, the user's or an earlier answer, with their thread's title and day; results deleted since,
 * counted without their titles; memories the prompt already held, pinned or retrieved, counted as found and marked,
 * so such a search never reads as "0 found"). A call the model got wrong (bad arguments, an unknown tool, a repeated
 * search) is shown as not run, the reason on hover. Used by the receipt under an answer and by the "What the model
 * saw" dialog.
 */
import { useEffect } from 'react';
import type { ToolSearch } from '../../../shared/contract';
import { formatRelativeTime } from '../format/format';
import { useMemoryRefsStore } from './memory-refs.store';
import { useLanguage, useT } from '../i18n/use-t';
import { EpisodeRefItem } from './EpisodeRefItem';

export function ToolSearchList({ searches }: { searches: ToolSearch[] }) {
  const t = useT();
  const language = useLanguage();
  const want = useMemoryRefsStore((s) => s.want);
  const byId = useMemoryRefsStore((s) => s.byId);
  const ids = searches.flatMap((s) => s.memoryIds).join(',');
  useEffect(() => {
    if (ids) want(ids.split(',').map(Number));
  }, [ids, want]);

  return (
    <ul className="tool-searches">
      {searches.map((s, i) => {
        const conversations = s.tool === 'search_conversations';
        const found = (conversations ? s.messages.length : s.memoryIds.length + s.episodes.length) + s.forgotten;
        return (
          <li key={i} className="tool-search" title={s.problem ?? undefined}>
            <span className="tool-search-line">
              {s.problem !== null
                ? t('receipt.search.notRun', { tool: s.tool, query: s.query ?? '' })
                : t(conversations ? 'receipt.search.conversations' : 'receipt.search.memories', { query: s.query ?? '', count: found })}
              {s.inPrompt > 0 && <span className="badge">{t('receipt.search.inPrompt', { count: s.inPrompt })}</span>}
              {s.cut && <span className="badge">{t('receipt.search.cut')}</span>}
            </span>
            {s.memoryIds.length + s.episodes.length + s.messages.length + s.forgotten > 0 && (
              <ul className="tool-search-results">
                {s.memoryIds.map((id) => {
                  const memory = byId[id];
                  return <li key={`m${id}`}>{memory ? memory.content : memory === null ? t('receipt.gone', { id }) : t('receipt.memory', { id })}</li>;
                })}
                {s.episodes.map((e) => (
                  <EpisodeRefItem key={`e${e.episodeId}`} episode={e} />
                ))}
                {s.messages.map((m) => (
                  <li key={`c${m.messageId}`}>{t(m.role === 'assistant' ? 'receipt.search.answer' : 'receipt.search.message', { title: m.threadTitle || t('receipt.search.untitled'), when: formatRelativeTime(m.createdAt, Date.now(), language) })}</li>
                ))}
                {s.forgotten > 0 && <li className="tool-search-forgotten">{t('receipt.search.forgotten', { count: s.forgotten })}</li>}
              </ul>
            )}
          </li>
        );
      })}
    </ul>
  );
}
