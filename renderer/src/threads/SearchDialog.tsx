/**
 * Ctrl/Cmd+K: thread titles match locally as you type; message text through thread.search (full text, Chinese and
 * English). Arrow keys move, Enter opens the thread (scrolled to the message), Esc closes. It searches conversations and
 * says so; its last option carries the words to the memory browser's own search (memories are searched there, with
 * their filters), so looking for a memory here is never a dead end.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Thread } from '../../../shared/contract';
import { matchTitle, snippet } from './search-text';
import { useAppStore } from '../app/app.store';
import { searchMemories, showMessage } from '../app/navigate';
import { useThreadsStore, visibleThreads, type SearchHit } from './threads.store';
import { useT } from '../i18n/use-t';
import { SearchIcon } from '../ui/icons';

const SEARCH_DEBOUNCE_MS = 200;
const MAX_TITLES = 8;
const GROUP_LABEL = { thread: 'search.threads', message: 'search.messages', memories: 'search.memories' } as const;

type Result = { kind: 'thread'; thread: Thread } | { kind: 'message'; hit: SearchHit } | { kind: 'memories'; text: string };

export function SearchDialog() {
  const t = useT();
  const listId = useId();
  const headingId = useId();
  const setOpen = useAppStore((s) => s.setSearchOpen);
  const threads = useThreadsStore((s) => s.threads);
  const pendingDeletes = useThreadsStore((s) => s.pendingDeletes);
  const hits = useThreadsStore((s) => s.searchHits);
  const searchedFor = useThreadsStore((s) => s.searchQuery);
  const searching = useThreadsStore((s) => s.searching);
  const searchMessages = useThreadsStore((s) => s.searchMessages);
  const select = useThreadsStore((s) => s.select);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    input.current?.focus();
    return () => previous?.focus?.();
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => void searchMessages(query), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, searchMessages]);

  const results = useMemo<Result[]>(() => {
    const shown = visibleThreads(threads, pendingDeletes);
    const titles = (query.trim() ? shown.filter((th) => matchTitle(th.title, query)) : shown).slice(0, MAX_TITLES);
    const messages = searchedFor === query && query.trim() ? hits.filter((h) => !pendingDeletes.includes(h.threadId)) : [];
    return [
      ...titles.map((thread) => ({ kind: 'thread' as const, thread })),
      ...messages.map((hit) => ({ kind: 'message' as const, hit })),
      ...(query.trim() ? [{ kind: 'memories' as const, text: query.trim() }] : []),
    ];
  }, [threads, pendingDeletes, hits, searchedFor, query]);

  useEffect(() => setActive(0), [query]);
  const activeIndex = Math.min(active, Math.max(0, results.length - 1));

  const close = () => setOpen(false);
  const open = (result: Result | undefined) => {
    if (!result) return;
    if (result.kind === 'thread') select(result.thread.id);
    else if (result.kind === 'memories') searchMemories(result.text);
    // A hit may be on a version that is not shown (every version is searched): showMessage switches to it.
    else showMessage(result.hit.threadId, result.hit.message.id);
    close();
  };
  const optionId = (i: number) => `${listId}-option-${i}`;
  const indexed = results.map((result, index) => ({ result, index }));
  const groups = [
    { kind: 'thread' as const, items: indexed.filter((x) => x.result.kind === 'thread') },
    { kind: 'message' as const, items: indexed.filter((x) => x.result.kind === 'message') },
    { kind: 'memories' as const, items: indexed.filter((x) => x.result.kind === 'memories') },
  ];
  const found = groups[0]!.items.length + groups[1]!.items.length;

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div
        className="dialog search-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={headingId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            close();
          } else if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive((a) => Math.min(a + 1, results.length - 1));
          } else if (e.key === 'ArrowUp') {
            e.preventDefault();
            setActive((a) => Math.max(a - 1, 0));
          } else if (e.key === 'Enter') {
            e.preventDefault();
            open(results[activeIndex]);
          } else if (e.key === 'Tab') {
            // The dialog is modal: focus stays on its one input.
            e.preventDefault();
          }
        }}
      >
        <h2 id={headingId} className="visually-hidden">
          {t('search.title')}
        </h2>
        <div className="search-input">
          <SearchIcon />
          <input
            ref={input}
            role="combobox"
            aria-expanded={results.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={results.length > 0 ? optionId(activeIndex) : undefined}
            aria-label={t('search.label')}
            placeholder={t('search.placeholder')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        </div>
        <div id={listId} role="listbox" aria-label={t('search.results')} className="search-results">
          {groups.map((group) =>
            group.items.length === 0 ? null : (
              <div key={group.kind} role="group" aria-labelledby={`${listId}-${group.kind}`}>
                <div id={`${listId}-${group.kind}`} className="search-group">
                  {t(GROUP_LABEL[group.kind])}
                </div>
                {group.items.map(({ result: r, index: i }) => (
                  <div
                    key={r.kind === 'thread' ? `t${r.thread.id}` : r.kind === 'message' ? `m${r.hit.message.id}` : 'memories'}
                    id={optionId(i)}
                    role="option"
                    aria-selected={i === activeIndex}
                    className={i === activeIndex ? 'search-result active' : 'search-result'}
                    onMouseMove={() => setActive(i)}
                    onClick={() => open(r)}
                  >
                    {r.kind === 'thread' ? (
                      <span className="search-title">{r.thread.title || t('threads.untitled')}</span>
                    ) : r.kind === 'memories' ? (
                      <span className="search-title">{t('search.inMemories', { query: r.text })}</span>
                    ) : (
                      <>
                        <span className="search-title">{r.hit.threadTitle || t('threads.untitled')}</span>
                        <span className="search-snippet">
                          <span className="muted">{r.hit.message.role === 'user' ? t('chat.you') : t('chat.assistant')}: </span>
                          {snippet(r.hit.message.content, query)}
                        </span>
                      </>
                    )}
                  </div>
                ))}
              </div>
            ),
          )}
        </div>
        {found === 0 && <p className="search-empty muted">{query.trim() ? (searching ? t('search.searching') : t('search.none')) : t('threads.empty')}</p>}
      </div>
    </div>
  );
}
