import { useEffect, useId, useRef } from 'react';
import { emptyThreadChat, useChatStore } from '../stores/chat.store';
import { replyState } from '../stores/chat-merge';
import { useT } from '../use-t';
import { SendIcon, StopIcon } from './icons';

const MAX_ROWS_PX = 240;

/** Enter sends, Shift+Enter starts a new line, Esc stops the reply (IME composition is left alone: Enter picks a candidate). */
export function Composer({ threadId, blocked }: { threadId: number; blocked: boolean }) {
  const t = useT();
  const hintId = useId();
  const draft = useChatStore((s) => s.drafts[threadId] ?? '');
  const setDraft = useChatStore((s) => s.setDraft);
  const send = useChatStore((s) => s.send);
  const stop = useChatStore((s) => s.stop);
  const chat = useChatStore((s) => s.threads[threadId] ?? emptyThreadChat);
  const state = replyState(chat.messages, chat.sending);
  const busy = state !== 'idle';
  const area = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    area.current?.focus();
  }, [threadId]);

  // Grows with its text up to a limit, then scrolls.
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_ROWS_PX)}px`;
  }, [draft]);

  const canSend = draft.trim() !== '' && !busy && !blocked;
  const submit = () => {
    if (canSend) void send(threadId, draft);
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <div className="composer-box">
        <textarea
          ref={area}
          rows={1}
          value={draft}
          aria-label={t('composer.label')}
          aria-describedby={hintId}
          placeholder={blocked ? t('composer.blocked') : t('composer.placeholder')}
          onChange={(e) => setDraft(threadId, e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              submit();
            } else if (e.key === 'Escape' && busy) {
              e.preventDefault();
              void stop(threadId);
            }
          }}
        />
        {busy ? (
          <button type="button" className="composer-button stop" onClick={() => void stop(threadId)} aria-label={t('composer.stop')} title={t('composer.stopHint')}>
            <StopIcon />
          </button>
        ) : (
          <button type="submit" className="composer-button primary" disabled={!canSend} aria-label={t('composer.send')} title={t('composer.sendHint')}>
            <SendIcon />
          </button>
        )}
      </div>
      <p id={hintId} className="composer-hint">
        {t('composer.hint')}
      </p>
    </form>
  );
}
