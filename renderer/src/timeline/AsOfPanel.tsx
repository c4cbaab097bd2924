/** "As of" a day: each memory as its latest version written by the end of that day, if it was active and unexpired then. */
import { useId } from 'react';
import { dateFormat, formatNumber } from '../format/format';
import { localDayStart } from '../format/local-day';
import { showMemory } from '../app/navigate';
import { useTimelineStore } from './timeline.store';
import { useLanguage, useT } from '../i18n/use-t';
import { CloseIcon, PinIcon } from '../ui/icons';

export function AsOfPanel() {
  const t = useT();
  const language = useLanguage();
  const headingId = useId();
  const date = useTimelineStore((s) => s.asOfDate);
  const asOf = useTimelineStore((s) => s.asOf);
  const setDate = useTimelineStore((s) => s.setAsOfDate);
  const loadMore = useTimelineStore((s) => s.loadMoreAsOf);
  const day = localDayStart(date);
  const label = day === undefined ? date : dateFormat(language, { dateStyle: 'long' }).format(day);
  return (
    <aside className="side-panel as-of" aria-labelledby={headingId}>
      <header className="side-panel-head">
        <h2 id={headingId}>{t('asOf.title', { date: label })}</h2>
        <button type="button" className="icon" onClick={() => setDate('')} aria-label={t('asOf.close')}>
          <CloseIcon />
        </button>
      </header>
      {!asOf ? (
        <p className="muted">{day === undefined ? t('asOf.pick') : t('common.loading')}</p>
      ) : asOf.total === 0 ? (
        <p className="muted">{t('asOf.none')}</p>
      ) : (
        <>
          <p className="muted small">{t('asOf.count', { count: asOf.total, n: formatNumber(asOf.total, language, 0) })}</p>
          <ul className="as-of-list">
            {asOf.items.map((item) => (
              <li key={item.memoryId}>
                <button type="button" className="as-of-item" onClick={() => showMemory(item.memoryId)}>
                  <span className="as-of-text">
                    {item.pinned && <PinIcon filled />} {item.content}
                  </span>
                  <span className="muted small">
                    {t(`category.${item.category}`)} · {t('history.version', { version: item.version })}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {asOf.items.length < asOf.total && (
            <button type="button" className="ghost" onClick={() => void loadMore()}>
              {t('asOf.more', { count: asOf.total - asOf.items.length })}
            </button>
          )}
        </>
      )}
    </aside>
  );
}
