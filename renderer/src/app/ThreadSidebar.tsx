import { useMemo, useState, type KeyboardEvent } from 'react';
import { useAppStore } from './app.store';
import { useThreadsStore, visibleThreads } from '../threads/threads.store';
import { useT } from '../i18n/use-t';
import { useReviewStore } from '../review/review.store';
import { BrainIcon, ClockIcon, GearIcon, IncognitoIcon, PlusIcon, SearchIcon } from '../ui/icons';
import { ThreadItem } from '../threads/ThreadItem';
import { Toasts } from './Toasts';
import { modKey, newThreadKeys } from './shortcuts';
import { startNewThread } from './new-thread';
import { useStatusStore } from '../status/status.store';

/** A button's tooltip: its name, and its keys when this host has some. */
function withKeys(label: string, keys: string | null): string {
  return keys ? `${label} (${keys})` : label;
}

export function ThreadSidebar() {
  const host = useStatusStore((s) => s.info?.host);
  const t = useT();
  const threads = useThreadsStore((s) => s.threads);
  const pendingDeletes = useThreadsStore((s) => s.pendingDeletes);
  const loaded = useThreadsStore((s) => s.loaded);
  const selectedId = useThreadsStore((s) => s.selectedId);
  const view = useAppStore((s) => s.view);
  const setView = useAppStore((s) => s.setView);
  const setSearchOpen = useAppStore((s) => s.setSearchOpen);
  const shown = useMemo(() => visibleThreads(threads, pendingDeletes), [threads, pendingDeletes]);
  const reviewCount = useReviewStore((s) => s.total);
  // The thread list is one Tab stop (roving tabindex): the thread last moved to, else the open one, else the first.
  // Arrow keys, Home and End move between threads; F2 and Delete act on the focused one (ThreadItem).
  const [rovingId, setRovingId] = useState<number | null>(null);
  const tabStopId = shown.some((th) => th.id === rovingId) ? rovingId : shown.some((th) => th.id === selectedId) ? selectedId : (shown[0]?.id ?? null);
  const onListKey = (e: KeyboardEvent<HTMLUListElement>) => {
    const keys: Record<string, (i: number, n: number) => number> = {
      ArrowDown: (i, n) => Math.min(n - 1, i + 1),
      ArrowUp: (i) => Math.max(0, i - 1),
      Home: () => 0,
      End: (_i, n) => n - 1,
    };
    const move = keys[e.key];
    const at = shown.findIndex((th) => th.id === tabStopId);
    if (!move || at < 0 || !(e.target instanceof HTMLButtonElement) || !e.target.classList.contains('thread')) return;
    e.preventDefault();
    const next = shown[move(at, shown.length)]!;
    setRovingId(next.id);
    e.currentTarget.querySelector<HTMLButtonElement>(`[data-thread-id="${next.id}"]`)?.focus();
  };
  const navButton = (target: 'memories' | 'timeline' | 'settings') => ({
    type: 'button' as const,
    className: view === target ? 'nav-button active' : 'nav-button',
    'aria-current': view === target ? ('page' as const) : undefined,
    // Navigation, as in every app: choosing the current screen again stays there.
    onClick: () => setView(target),
  });

  return (
    <nav className="sidebar" aria-label={t('threads.title')}>
      <div className="brand">
        <h1>{t('app.name')}</h1>
        <span className="brand-tagline">{t('app.tagline')}</span>
      </div>
      <div className="sidebar-actions">
        <button type="button" className="primary grow" onClick={() => void startNewThread()} title={withKeys(t('threads.new'), newThreadKeys(host))}>
          <PlusIcon /> {t('threads.new')}
        </button>
        <button
          type="button"
          className="icon"
          onClick={() => void startNewThread({ incognito: true })}
          aria-label={t('threads.newIncognito')}
          title={withKeys(t('threads.newIncognito'), newThreadKeys(host, { shift: true }))}
        >
          <IncognitoIcon size={18} />
        </button>
      </div>
      <button type="button" className="search-trigger" onClick={() => setSearchOpen(true)} title={t('search.open')} aria-keyshortcuts="Control+K Meta+K">
        <SearchIcon />
        <span className="grow">{t('search.short')}</span>
        <kbd aria-hidden="true">{modKey()} K</kbd>
      </button>
      <h2 className="sidebar-heading">{t('threads.title')}</h2>
      {loaded && shown.length === 0 ? (
        <p className="sidebar-empty">{t('threads.empty')}</p>
      ) : (
        <ul className="thread-list" onKeyDown={onListKey}>
          {shown.map((thread) => (
            <ThreadItem key={thread.id} thread={thread} selected={thread.id === selectedId && view === 'chat'} tabStop={thread.id === tabStopId} onFocused={() => setRovingId(thread.id)} />
          ))}
        </ul>
      )}
      {/* Notices take their own room here, between the threads and the views: never over a control or the conversation. */}
      <Toasts />
      <div className="sidebar-footer">
        <button {...navButton('memories')}>
          <BrainIcon /> <span className="grow">{t('memories.title')}</span>
          {reviewCount > 0 && (
            <span className="badge accent" aria-label={t('review.badge', { count: reviewCount })}>
              {reviewCount}
            </span>
          )}
        </button>
        <button {...navButton('timeline')}>
          <ClockIcon /> <span className="grow">{t('timeline.title')}</span>
        </button>
        <button {...navButton('settings')} title={`${t('settings.title')} (${modKey()}+,)`}>
          <GearIcon /> <span className="grow">{t('settings.title')}</span>
        </button>
      </div>
    </nav>
  );
}
