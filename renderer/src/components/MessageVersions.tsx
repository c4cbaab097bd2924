/**
 * Versions of a message (electron/core/chat/message-branches.ts): the ‹ 1/2 › switcher under an edited question or
 * a regenerated answer, and the form that edits one of the user's messages and sends it as a new version.
 */
import { useId, useState } from 'react';
import type { Message } from '../../../shared/contract';
import { useChatStore } from '../stores/chat.store';
import { useT } from '../use-t';

/** ‹ k/n ›: buttons with names, the position announced; nothing while a reply is written in the thread. */
export function VersionSwitcher({ message }: { message: Message }) {
  const t = useT();
  const switchVersion = useChatStore((s) => s.switchVersion);
  const sending = useChatStore((s) => s.threads[message.threadId]?.sending ?? false);
  if (!message.version) return null;
  const { index, count } = message.version;
  const go = (version: number) => void switchVersion(message.threadId, message.id, version);
  return (
    <div className="version-switcher" role="group" aria-label={t('chat.version.label', { index, count })}>
      <button type="button" className="ghost small" aria-label={t('chat.version.previous')} disabled={sending || index <= 1} onClick={() => go(index - 1)}>
        ‹
      </button>
      <span aria-hidden="true">
        {index}/{count}
      </span>
      <button type="button" className="ghost small" aria-label={t('chat.version.next')} disabled={sending || index >= count} onClick={() => go(index + 1)}>
        ›
      </button>
    </div>
  );
}

/** Edits a question in place: Enter sends (Shift+Enter: a new line), Escape cancels; an empty text cannot be sent. */
export function EditMessageForm({ message, onDone }: { message: Message; onDone: () => void }) {
  const t = useT();
  const id = useId();
  const edit = useChatStore((s) => s.edit);
  const sending = useChatStore((s) => s.threads[message.threadId]?.sending ?? false);
  const [text, setText] = useState(message.content);
  const empty = text.trim() === '';
  const submit = () => {
    if (empty || sending) return;
    onDone();
    void edit(message.threadId, message.id, text);
  };
  return (
    <form
      className="edit-message"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label htmlFor={`${id}-text`} className="visually-hidden">
        {t('chat.editLabel')}
      </label>
      <textarea
        id={`${id}-text`}
        value={text}
        autoFocus
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        aria-describedby={`${id}-hint`}
        aria-invalid={empty}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault();
            submit();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            onDone();
          }
        }}
      />
      <p id={`${id}-hint`} className={`small ${empty ? 'error-text' : 'muted'}`} aria-live="polite">
        {empty ? t('chat.editEmpty') : sending ? t('chat.editBusy') : t('chat.editHint')}
      </p>
      <div className="edit-actions">
        <button type="button" className="ghost small" onClick={onDone}>
          {t('chat.editCancel')}
        </button>
        <button type="submit" className="small primary" disabled={empty || sending}>
          {t('chat.editSend')}
        </button>
      </div>
    </form>
  );
}
