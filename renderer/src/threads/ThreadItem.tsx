import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Thread } from '../../../shared/contract';
import { formatRelativeTime } from '../format/format';
import { useThreadsStore } from './threads.store';
import { useLanguage, useT } from '../i18n/use-t';
import { IncognitoIcon, PencilIcon, TrashIcon } from '../ui/icons';

/** `tabStop`: this thread is the list's one Tab stop (ThreadSidebar moves it with the arrow keys). */
export function ThreadItem({ thread, selected, tabStop, onFocused }: { thread: Thread; selected: boolean; tabStop: boolean; onFocused: () => void }) {
  const t = useT();
  const language = useLanguage();
  const select = useThreadsStore((s) => s.select);
  const rename = useThreadsStore((s) => s.rename);
  const requestDelete = useThreadsStore((s) => s.requestDelete);
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState('');
  const input = useRef<HTMLInputElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const title = thread.title || t('threads.untitled');

  useEffect(() => {
    if (editing) input.current?.select();
  }, [editing]);

  const startEditing = () => {
    setDraft(thread.title);
    setEditing(true);
  };
  const finish = async (save: boolean) => {
    if (!editing) return;
    setEditing(false);
    if (save) await rename(thread.id, draft);
    requestAnimationFrame(() => button.current?.focus());
  };
  const onItemKey = (e: KeyboardEvent) => {
    if (e.key === 'F2') {
      e.preventDefault();
      startEditing();
    } else if (e.key === 'Delete') {
      e.preventDefault();
      requestDelete(thread.id);
    }
  };

  return (
    <li className={selected ? 'thread-item selected' : 'thread-item'}>
      {editing ? (
        <input
          ref={input}
          className="thread-rename"
          aria-label={t('threads.renameLabel')}
          value={draft}
          maxLength={200}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void finish(true);
            } else if (e.key === 'Escape') {
              e.preventDefault();
              void finish(false);
            }
          }}
          onBlur={() => void finish(true)}
        />
      ) : (
        <button
          ref={button}
          type="button"
          className="thread"
          aria-current={selected ? 'page' : undefined}
          data-thread-id={thread.id}
          tabIndex={tabStop ? 0 : -1}
          onFocus={onFocused}
          onClick={() => select(thread.id)}
          onDoubleClick={startEditing}
          onKeyDown={onItemKey}
          aria-keyshortcuts="F2 Delete"
        >
          <span className="thread-title">{title}</span>
          <span className="thread-meta">
            {thread.incognito && (
              <span className="badge incognito" title={t('threads.incognitoHint')}>
                <IncognitoIcon size={12} /> {t('threads.incognito')}
              </span>
            )}
            <span className="thread-time">{formatRelativeTime(thread.lastActivityAt, Date.now(), language)}</span>
          </span>
        </button>
      )}
      {!editing && (
        <div className="thread-actions">
          <button type="button" className="icon small" tabIndex={-1} onClick={startEditing} aria-label={t('threads.rename', { title })} title={t('threads.renameShort')}>
            <PencilIcon />
          </button>
          <button type="button" className="icon small danger" tabIndex={-1} onClick={() => requestDelete(thread.id)} aria-label={t('threads.delete', { title })} title={t('threads.deleteShort')}>
            <TrashIcon />
          </button>
        </div>
      )}
    </li>
  );
}
