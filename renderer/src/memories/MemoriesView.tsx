/** The memory view: all memories (browser + detail pane), the review inbox, the trash, the profile (About you) and the episodes, as tabs. */
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { formatNumber } from '../format/format';
import { useMemoriesStore, type MemoryTab } from './memories.store';
import { useMemoryDetailStore } from './memory-detail.store';
import { useReviewStore } from '../review/review.store';
import { useLanguage, useT } from '../i18n/use-t';
import { PlusIcon, UploadIcon } from '../ui/icons';
import { AboutYou } from './AboutYou';
import { ActiveWork } from './ActiveWork';
import { AddMemoryDialog } from './AddMemoryDialog';
import { Episodes } from './Episodes';
import { MemoryBrowser } from './MemoryBrowser';
import { MemoryDetailPane } from './MemoryDetailPane';
import { ReviewInbox } from '../review/public';
import { SemanticNotice } from './SemanticNotice';
import { TransferDialog } from '../transfer/public';

const TABS: MemoryTab[] = ['browse', 'review', 'trash', 'about', 'episodes', 'active'];

export function MemoriesView() {
  const t = useT();
  const language = useLanguage();
  const headingId = useId();
  const tabsId = useId();
  const tab = useMemoriesStore((s) => s.tab);
  const setTab = useMemoriesStore((s) => s.setTab);
  const enter = useMemoriesStore((s) => s.enter);
  const stats = useMemoriesStore((s) => s.stats);
  const reviewCount = useReviewStore((s) => s.total);
  const detailOpen = useMemoryDetailStore((s) => s.memoryId !== null);
  const [dialog, setDialog] = useState<'add' | 'transfer' | null>(null);

  useEffect(() => enter(), [enter]);

  const counts: Record<MemoryTab, number | null> = {
    browse: stats ? stats.byStatus.active : null,
    review: reviewCount,
    trash: stats ? stats.byStatus.trashed : null,
    about: null,
    episodes: null,
    active: null,
  };
  const onTabKey = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    e.preventDefault();
    const next = TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length]!;
    setTab(next);
    document.getElementById(`${tabsId}-${next}`)?.focus();
  };

  return (
    <section className="memories-view" aria-labelledby={headingId}>
      {/* Title and actions on one line, the tabs on their own below: a row that wraps by accident put the actions
          under the tabs at 1100 px (issue 30's walk); the tabs never wrap (they scroll in a very narrow window). */}
      <header className="view-head tabbed">
        <h2 id={headingId}>{t('memories.title')}</h2>
        <div className="view-head-tools">
          <button type="button" onClick={() => setDialog('transfer')}>
            <UploadIcon /> {t('transfer.open')}
          </button>
          <button type="button" className="primary" onClick={() => setDialog('add')}>
            <PlusIcon /> {t('memories.add')}
          </button>
        </div>
        <div className="tabs" role="tablist" aria-label={t('memories.sections')} onKeyDown={onTabKey}>
          {TABS.map((name) => (
            <button
              key={name}
              id={`${tabsId}-${name}`}
              type="button"
              role="tab"
              aria-selected={tab === name}
              aria-controls={`${tabsId}-panel`}
              tabIndex={tab === name ? 0 : -1}
              className={tab === name ? 'tab active' : 'tab'}
              onClick={() => setTab(name)}
            >
              {t(`memories.tab.${name}`)}
              {counts[name] !== null && counts[name]! > 0 && <span className={name === 'review' ? 'badge accent' : 'badge'}>{formatNumber(counts[name]!, language, 0)}</span>}
            </button>
          ))}
        </div>
      </header>
      <SemanticNotice />
      <div id={`${tabsId}-panel`} role="tabpanel" aria-labelledby={`${tabsId}-${tab}`} className={detailOpen && (tab === 'browse' || tab === 'trash') ? 'memories-layout with-detail' : 'memories-layout'}>
        {tab === 'review' ? (
          <ReviewInbox />
        ) : tab === 'about' ? (
          <AboutYou />
        ) : tab === 'episodes' ? (
          <Episodes />
        ) : tab === 'active' ? (
          <ActiveWork />
        ) : (
          <>
            <MemoryBrowser />
            {detailOpen && <MemoryDetailPane />}
          </>
        )}
      </div>
      {dialog === 'add' && <AddMemoryDialog onClose={() => setDialog(null)} />}
      {dialog === 'transfer' && <TransferDialog onClose={() => setDialog(null)} />}
    </section>
  );
}
