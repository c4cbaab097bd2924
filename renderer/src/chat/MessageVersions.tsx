/**
 * Versions of a message (electron/core/chat/message-branches.ts): the ‹ 1/2 › switcher under an edited question or
 * a regenerated answer, and the form that edits one of the user's messages and sends it as a new version.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Message } from '../../../shared/contract';
import { useChatStore, type VersionFocus } from './chat.store';
import { useT } from '../i18n/use-t';

/** Where focus goes once version `index` of the messages after `message`'s parent appears (see VersionSwitcher). */
export function focusAfter(message: Message, index: number, control: VersionFocus['control']): VersionFocus {
  return { threadId: message.threadId, parentId: message.parentId ?? null, index, control };
}

/**
 * ‹ k/n ›: buttons with names, the position announced. A switch replaces the message shown, so the button pressed
 * would vanish under the keyboard: the new version's switcher takes focus (chat.store versionFocus). The buttons stay
 * focusable when they cannot act (aria-disabled: the first or last version, a reply being written), so focus is never
 * dropped to the page.
 */
export function VersionSwitcher({ message }: { message: Message }) {
  const t = useT();
  const switchVersion = useChatStore((s) => s.switchVersion);
  const sending = useChatStore((s) => s.threads[message.threadId]?.sending ?? false);
  const focus = useChatStore((s) => s.versionFocus);
  const setFocus = useChatStore((s) => s.setVersionFocus);
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const index = message.version?.index;

  useEffect(() => {
    if (!focus || index === undefined || focus.threadId !== message.threadId || focus.parentId !== (message.parentId ?? null) || focus.index !== index) return;
    (focus.control === 'previous' ? previous : next).current?.focus();
    setFocus(null);
  }, [focus, index, message.threadId, message.parentId, setFocus]);

  if (!message.version || index === undefined) return null;
  const { count } = message.version;
  const go = (version: number, control: VersionFocus['control']) => {
    if (sending || version < 1 || version > count) return;
    setFocus(focusAfter(message, version, control));
    void switchVersion(message.threadId, message.id, version);
  };
  return (
    <div className="version-switcher" role="group" aria-label={t('chat.version.label', { index, count })}>
      <button ref={previous} type="button" className="ghost small" aria-label={t('chat.version.previous')} aria-disabled={sending || index <= 1} onClick={() => go(index - 1, 'previous')}>
        ‹
      </button>
      <span aria-hidden="true">
        {index}/{count}
      </span>
      <button ref={next} type="button" className="ghost small" aria-label={t('chat.version.next')} aria-disabled={sending || index >= count} onClick={() => go(index + 1, 'next')}>
        ›
      </button>
    </div>
  );
}

/**
 * Edits a question in place: Enter sends (Shift+Enter: a new line), Escape cancels; an empty text cannot be sent.
 * Sent, focus goes to the new version's switcher; cancelled, back to the Edit button (onCancel).
 */
export function EditMessageForm({ message, onSent, onCancel }: { message: Message; onSent: () => void; onCancel: () => void }) {
  const t = useT();
  const id = useId();
  const edit = useChatStore((s) => s.edit);
  const setFocus = useChatStore((s) => s.setVersionFocus);
  const sending = useChatStore((s) => s.threads[message.threadId]?.sending ?? false);
  const [text, setText] = useState(message.content);
  const empty = text.trim() === '';
  const submit = () => {
    if (empty || sending) return;
    onSent();
    setFocus(focusAfter(message, (message.version?.count ?? 1) + 1, 'previous'));
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
            onCancel();
          }
        }}
      />
      <p id={`${id}-hint`} className={`small ${empty ? 'error-text' : 'muted'}`} aria-live="polite">
        {empty ? t('chat.editEmpty') : sending ? t('chat.editBusy') : t('chat.editHint')}
      </p>
      <div className="edit-actions">
        <button type="button" className="ghost small" onClick={onCancel}>
          {t('chat.editCancel')}
        </button>
        <button type="submit" className="small primary" disabled={empty || sending}>
          {t('chat.editSend')}
        </button>
      </div>
    </form>
  );
}
