/** Search as you type, the sort, and the filters (category, status, pinned, date range, source thread). */
import { DayField } from '../ui/DayField';
import { useId, useState } from 'react';
import type { MemoryCategory } from '../../../shared/contract';
import { ALL_STATUSES, CATEGORIES, activeFilterCount, effectiveSort, type PinnedFilter, type SortChoice, type StatusFilter } from './memory-query';
import { useMemoriesStore } from './memories.store';
import { useStatusStore } from '../status/status.store';
import { useThreadsStore } from '../threads/threads.store';
import { InlineField } from '../ui/InlineField';
import { useT } from '../i18n/use-t';
import { CloseIcon, SearchIcon } from '../ui/icons';

const SORTS: SortChoice[] = ['relevance', 'importance', 'created', 'lastUsed', 'accessCount'];

export function MemoryToolbar() {
  const t = useT();
  const ids = useId();
  const query = useMemoriesStore((s) => s.query);
  const tab = useMemoriesStore((s) => s.tab);
  const setText = useMemoriesStore((s) => s.setText);
  const setQuery = useMemoriesStore((s) => s.setQuery);
  const resetQuery = useMemoriesStore((s) => s.resetQuery);
  const threads = useThreadsStore((s) => s.threads);
  const [showFilters, setShowFilters] = useState(false);
  // While semantic search is off the box finds by keyword only, and says so (issue 30 walk).
  const liveEmbedding = useStatusStore((s) => s.embedding);
  const statsEmbedding = useMemoriesStore((s) => s.stats?.semanticSearch);
  const byMeaning = (liveEmbedding ?? statsEmbedding)?.state === 'ready';
  const placeholder = t(byMeaning ? 'memories.searchPlaceholder' : 'memories.searchPlaceholderKeywords');
  const sort = effectiveSort(query);
  const searching = query.text.trim() !== '';
  const filterCount = activeFilterCount(tab === 'trash' ? { ...query, status: 'active' } : query);

  const toggleCategory = (category: MemoryCategory, on: boolean) =>
    setQuery({ categories: on ? [...query.categories, category] : query.categories.filter((c) => c !== category) });

  return (
    <div className="memory-toolbar">
      <div className="toolbar-row">
        <div className="search-box">
          <SearchIcon />
          {/* The hidden copy of the placeholder holds the box at least as wide as its words (issue 30's walk: cut
              when the detail pane was open); Sort and Filters wrap below instead. */}
          <span className="search-sizer" data-placeholder={placeholder}>
            <input
              type="search"
              aria-label={t('memories.search')}
              placeholder={placeholder}
              value={query.text}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Escape' && query.text) {
                  e.preventDefault();
                  setText('');
                }
              }}
            />
          </span>
        </div>
        {/* Sort and Filters wrap together below the search box, never one without the other. */}
        <span className="toolbar-group">
          <InlineField label={t('memories.sort')}>
            {(id) => (
              <select
                id={id}
                value={sort}
                onChange={(e) => {
                  const value = e.target.value as SortChoice;
                  setQuery(value === 'relevance' ? { byRelevance: true } : { sort: value, byRelevance: false });
                }}
              >
                {SORTS.filter((s) => s !== 'relevance' || searching).map((s) => (
                  <option key={s} value={s}>
                    {t(`memories.sort.${s}`)}
                  </option>
                ))}
              </select>
            )}
          </InlineField>
          <button type="button" className={showFilters ? 'ghost active' : 'ghost'} aria-expanded={showFilters} aria-controls={`${ids}-filters`} onClick={() => setShowFilters(!showFilters)}>
            {t('memories.filters')}
            {filterCount > 0 && <span className="badge accent">{filterCount}</span>}
          </button>
          {filterCount > 0 && (
            <button type="button" className="ghost small" onClick={resetQuery}>
              <CloseIcon /> {t('memories.clearFilters')}
            </button>
          )}
        </span>
      </div>
      {showFilters && (
        <div id={`${ids}-filters`} className="toolbar-row filters" role="group" aria-label={t('memories.filters')}>
          <fieldset className="chip-group">
            <legend className="visually-hidden">{t('memories.filter.category')}</legend>
            {CATEGORIES.map((category) => (
              <label key={category} className={query.categories.includes(category) ? 'chip on' : 'chip'}>
                <input type="checkbox" checked={query.categories.includes(category)} onChange={(e) => toggleCategory(category, e.target.checked)} />
                {t(`category.${category}`)}
              </label>
            ))}
          </fieldset>
          {tab !== 'trash' && (
            <InlineField label={t('memories.filter.status')}>
              {(id) => (
                <select id={id} value={query.status} onChange={(e) => setQuery({ status: e.target.value as StatusFilter })}>
                  {[...ALL_STATUSES, 'all' as const].map((s) => (
                    <option key={s} value={s}>
                      {t(`status.memory.${s}`)}
                    </option>
                  ))}
                </select>
              )}
            </InlineField>
          )}
          <InlineField label={t('memories.filter.pinned')}>
            {(id) => (
              <select id={id} value={query.pinned} onChange={(e) => setQuery({ pinned: e.target.value as PinnedFilter })}>
                {(['any', 'pinned', 'unpinned'] as const).map((p) => (
                  <option key={p} value={p}>
                    {t(`memories.filter.pinned.${p}`)}
                  </option>
                ))}
              </select>
            )}
          </InlineField>
          {/* One range, kept on one line: "to" was left to start the next line alone. */}
          <span className="toolbar-group">
            <InlineField label={t('memories.filter.from')}>
              {(id) => (
                <DayField id={id} value={query.createdFrom} onChange={(createdFrom) => setQuery({ createdFrom })} />
              )}
            </InlineField>
            <InlineField label={t('memories.filter.to')}>
              {(id) => (
                <DayField id={id} value={query.createdTo} onChange={(createdTo) => setQuery({ createdTo })} />
              )}
            </InlineField>
          </span>
          <InlineField label={t('memories.filter.thread')}>
            {(id) => (
              <select id={id} value={query.sourceThreadId ?? ''} onChange={(e) => setQuery({ sourceThreadId: e.target.value ? Number(e.target.value) : null })}>
                <option value="">{t('memories.filter.anyThread')}</option>
                {query.sourceThreadId !== null && !threads.some((th) => th.id === query.sourceThreadId) && (
                  <option value={query.sourceThreadId}>{t('memories.filter.deletedThread')}</option>
                )}
                {threads.map((th) => (
                  <option key={th.id} value={th.id}>
                    {th.title || t('threads.untitled')}
                  </option>
                ))}
              </select>
            )}
          </InlineField>
        </div>
      )}
    </div>
  );
}
