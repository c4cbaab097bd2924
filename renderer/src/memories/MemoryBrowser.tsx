/** The list side of the memory view: toolbar, selection bar, the virtualized list and what it is showing. */
import { useLayoutEffect, useRef } from 'react';
import { formatNumber } from '../format/format';
import { isSearch } from './memory-query';
import { useMemoriesStore } from './memories.store';
import { useSettingsStore } from '../settings/settings.store';
import { useLanguage, useT } from '../i18n/use-t';
import { BulkBar } from './BulkBar';
import { EmptyTrash } from './EmptyTrash';
import { MemoryList, type FocusAfterDelete } from './MemoryList';
import { MemoryToolbar } from './MemoryToolbar';
import { CoreError } from '../ui/CoreError';

export function MemoryBrowser() {
  const t = useT();
  const language = useLanguage();
  const total = useMemoriesStore((s) => s.total);
  const loading = useMemoriesStore((s) => s.loading);
  const error = useMemoriesStore((s) => s.error);
  const query = useMemoriesStore((s) => s.query);
  const tab = useMemoriesStore((s) => s.tab);
  const searchMode = useMemoriesStore((s) => s.searchMode);
  const reset = useMemoriesStore((s) => s.reset);
  const retention = useSettingsStore((s) => s.settings?.trashRetentionDays ?? 30);
  const searching = isSearch(query);
  const afterDelete = useRef<FocusAfterDelete | null>(null);
  const empty = useRef<HTMLParagraphElement>(null);

  // A Delete that left no row: the focus goes to the empty list, which says so (the deleted row took it away).
  useLayoutEffect(() => {
    if (total !== 0 || !afterDelete.current) return;
    afterDelete.current = null;
    if (document.activeElement === document.body || document.activeElement === null) empty.current?.focus();
  }, [total]);

  return (
    <div className="memory-browser">
      <MemoryToolbar />
      {tab === 'trash' && (
        <div className="trash-head">
          <span className="muted small grow">{t('memories.trash.retention', { count: retention })}</span>
          <EmptyTrash />
        </div>
      )}
      <BulkBar />
      {error ? (
        <div className="inline-error" role="alert">
          <div className="grow">
            <CoreError error={error} />
          </div>
          <button type="button" className="small" onClick={() => void reset()}>
            {t('common.retry')}
          </button>
        </div>
      ) : total === 0 ? (
        <p ref={empty} tabIndex={-1} className="list-empty muted">
          {query.text.trim() ? t('memories.noMatch') : tab === 'trash' ? t('memories.trash.empty') : query.status === 'active' ? t('memories.none') : t('memories.noneWithFilters')}
        </p>
      ) : total === null ? (
        <p className="list-empty muted">{t('common.loading')}</p>
      ) : (
        <MemoryList label={tab === 'trash' ? t('memories.tab.trash') : t('memories.listLabel')} afterDelete={afterDelete} />
      )}
      <p className="list-status muted small" aria-live="polite">
        {total !== null &&
          (searching
            ? t(searchMode === 'hybrid' ? 'memories.count.hybrid' : 'memories.count.keyword', { count: total, n: formatNumber(total, language, 0) })
            : t('memories.count', { count: total, n: formatNumber(total, language, 0) }))}
        {loading && <span className="spinner" aria-hidden="true" />}
      </p>
    </div>
  );
}
