import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { emptyThreadChat, useChatStore } from './chat.store';
import { replyState } from './chat-merge';
import { useThreadsStore } from '../threads/threads.store';
import { useT } from '../i18n/use-t';
import { CoreError } from '../ui/CoreError';
import { MessageItem } from './MessageItem';

/** How close to the bottom still counts as "following" the reply (then new text keeps it in view). */
const FOLLOW_THRESHOLD_PX = 80;

export function MessageList({ threadId }: { threadId: number }) {
  const t = useT();
  const chat = useChatStore((s) => s.threads[threadId] ?? emptyThreadChat);
  const loadOlder = useChatStore((s) => s.loadOlder);
  const focusMessageId = useThreadsStore((s) => s.focusMessageId);
  const incognito = useThreadsStore((s) => s.threads.find((x) => x.id === threadId)?.incognito ?? false);
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const [showJump, setShowJump] = useState(false);
  const state = replyState(chat.messages, chat.sending);
  const last = chat.messages[chat.messages.length - 1];

  const toBottom = useCallback(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
    following.current = true;
    setShowJump(false);
  }, []);

  useEffect(() => {
    following.current = true;
  }, [threadId]);

  // Content also grows without a new message (a code block highlighted, a panel narrowing the column).
  const column = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = column.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      if (following.current && scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // After every change of content: stay at the bottom if the user was there.
  useLayoutEffect(() => {
    if (focusMessageId !== null) return;
    if (following.current) toBottom();
    else setShowJump(true);
  }, [chat.messages, chat.pendingText, last?.content, toBottom, focusMessageId]);

  // A search result or a memory's source: bring its message into view once it is loaded. Ids grow down a path, so a
  // message older than the first one shown is on an earlier page: read pages back until it is there.
  const firstShown = chat.messages[0]?.id;
  const olderReadFrom = useRef<number | null>(null); // a page that failed is not asked for again and again
  useEffect(() => {
    if (focusMessageId === null || !chat.loaded || chat.loadingOlder) return;
    const el = scroller.current?.querySelector(`[data-message-id="${focusMessageId}"]`);
    if (!el && chat.hasMore && firstShown !== undefined && focusMessageId < firstShown && olderReadFrom.current !== firstShown) {
      olderReadFrom.current = firstShown;
      void loadOlder(threadId);
      return;
    }
    olderReadFrom.current = null;
    if (el) {
      el.scrollIntoView({ block: 'center' });
      el.classList.add('flash');
      following.current = false;
    }
    useThreadsStore.setState({ focusMessageId: null });
  }, [focusMessageId, chat.loaded, chat.loadingOlder, chat.hasMore, firstShown, loadOlder, threadId]);

  const onScroll = () => {
    const el = scroller.current;
    if (!el) return;
    following.current = el.scrollHeight - el.scrollTop - el.clientHeight < FOLLOW_THRESHOLD_PX;
    if (following.current) setShowJump(false);
  };

  const empty = chat.loaded && chat.messages.length === 0 && chat.pendingText === null;
  return (
    <div className="message-scroll" ref={scroller} onScroll={onScroll}>
      <div ref={column} className="message-column" role="log" aria-label={t('chat.messages')} aria-busy={state !== 'idle'}>
        {chat.hasMore && (
          <button type="button" className="ghost load-older" onClick={() => void loadOlder(threadId)} disabled={chat.loadingOlder}>
            {chat.loadingOlder ? t('common.loading') : t('chat.loadOlder')}
          </button>
        )}
        {empty && <p className="chat-empty muted">{incognito ? t('chat.emptyIncognito') : t('chat.empty')}</p>}
        {chat.messages.map((message, i) => (
          <MessageItem
            key={message.id}
            message={message}
            receipt={chat.receipts[message.id]}
            searches={chat.searches[message.id]}
            recalled={chat.recalled[message.id]}
            forgets={chat.forgets[message.id]}
            isLast={i === chat.messages.length - 1}
            error={i === chat.messages.length - 1 ? chat.error : null}
          />
        ))}
        {chat.pendingText !== null && (
          <article className="message user pending" aria-label={t('chat.you')}>
            <div className="bubble">{chat.pendingText}</div>
          </article>
        )}
        {chat.error && !(last?.role === 'assistant' && last.status === 'error') && <SendError threadId={threadId} />}
      </div>
      {showJump && (
        <button type="button" className="jump-latest" onClick={toBottom}>
          {t('chat.jumpLatest')} ↓
        </button>
      )}
    </div>
  );
}

/** A send that failed before any reply was stored (refused input, a reply already running, a lost connection). */
function SendError({ threadId }: { threadId: number }) {
  const t = useT();
  const error = useChatStore((s) => s.threads[threadId]?.error ?? null);
  const dismiss = useChatStore((s) => s.dismissError);
  if (!error) return null;
  return (
    <div className="inline-error" role="alert">
      <div>
        <CoreError error={error} />
      </div>
      <button type="button" className="ghost small" onClick={() => dismiss(threadId)}>
        {t('common.dismiss')}
      </button>
    </div>
  );
}
