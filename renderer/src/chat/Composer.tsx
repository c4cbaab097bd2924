import { useEffect, useId, useRef, useState } from 'react';
import { ATTACHMENT_LIMITS } from '../../../shared/contract';
import { bundledCMaps } from '../attachments/bundled-cmaps';
import { MAX_ATTACHMENT_BYTES, MAX_PDF_PAGES, readAttachment, type AttachmentRefusal } from '../attachments/read-attachment';
import { formatBytes } from '../format/format';
import { emptyThreadChat, useChatStore } from './chat.store';
import { useThreadsStore } from '../threads/threads.store';
import { replyState } from './chat-merge';
import { useLanguage, useT } from '../i18n/use-t';
import { CloseIcon, PaperclipIcon, SendIcon, StopIcon } from '../ui/icons';

interface Attached {
  name: string;
  text: string;
  size: number;
  /** The user ticked "Let Mnemo learn from this file" (off until they do). */
  learn: boolean;
}

/** Why a file was not attached, shown under the composer until dismissed or the next pick. */
type Refusal = { name: string; reason: AttachmentRefusal | 'tooMany' | 'unreadable' };

const MAX_ROWS_PX = 240;

/** Enter sends, Shift+Enter starts a new line, Esc stops the reply (IME composition is left alone: Enter picks a candidate). */
export function Composer({ threadId, blocked }: { threadId: number; blocked: boolean }) {
  const t = useT();
  const hintId = useId();
  const draft = useChatStore((s) => s.drafts[threadId] ?? '');
  const setDraft = useChatStore((s) => s.setDraft);
  const typing = useChatStore((s) => s.typing);
  const send = useChatStore((s) => s.send);
  const stop = useChatStore((s) => s.stop);
  const chat = useChatStore((s) => s.threads[threadId] ?? emptyThreadChat);
  const state = replyState(chat.messages, chat.sending);
  const busy = state !== 'idle';
  const area = useRef<HTMLTextAreaElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const language = useLanguage();
  // Per thread, like drafts; kept until the message holding them is stored.
  const [attachedByThread, setAttachedByThread] = useState<Record<number, Attached[]>>({});
  const attached = attachedByThread[threadId] ?? [];
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const [dragging, setDragging] = useState(false);
  // An incognito thread never learns: the choice is not offered there.
  const incognito = useThreadsStore((s) => s.threads.find((x) => x.id === threadId)?.incognito ?? false);

  useEffect(() => {
    area.current?.focus();
    setRefusals([]);
  }, [threadId]);

  const attach = async (files: readonly File[]) => {
    const added: Attached[] = [];
    const refused: Refusal[] = [];
    for (const file of files) {
      if (attached.length + added.length >= ATTACHMENT_LIMITS.maxFiles) {
        refused.push({ name: file.name, reason: 'tooMany' });
        continue;
      }
      try {
        const read = await readAttachment(file, bundledCMaps);
        if (read.ok) added.push({ ...read.attachment, learn: false });
        else refused.push({ name: read.name, reason: read.reason });
      } catch {
        refused.push({ name: file.name, reason: 'unreadable' });
      }
    }
    setRefusals(refused);
    if (added.length > 0) setAttachedByThread((all) => ({ ...all, [threadId]: [...(all[threadId] ?? []), ...added] }));
  };
  const setLearn = (index: number, learn: boolean) =>
    setAttachedByThread((all) => ({ ...all, [threadId]: (all[threadId] ?? []).map((a, i) => (i === index ? { ...a, learn } : a)) }));
  const detach = (index: number) => setAttachedByThread((all) => ({ ...all, [threadId]: (all[threadId] ?? []).filter((_, i) => i !== index) }));
  const refusalText = (r: Refusal) =>
    r.reason === 'tooMany'
      ? t('attach.refused.tooMany', { max: ATTACHMENT_LIMITS.maxFiles })
      : t(`attach.refused.${r.reason}`, { name: r.name, max: formatBytes(MAX_ATTACHMENT_BYTES, language), pages: MAX_PDF_PAGES });

  // Grows with its text up to a limit, then scrolls.
  useEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_ROWS_PX)}px`;
  }, [draft]);

  const canSend = draft.trim() !== '' && !busy && !blocked;
  const submit = () => {
    if (!canSend) return;
    const sending = attached;
    void send(threadId, draft, sending.map(({ name, text, learn }) => ({ name, text, ...(learn && !incognito ? { learn } : {}) }))).then((stored) => {
      if (stored) setAttachedByThread((all) => ({ ...all, [threadId]: (all[threadId] ?? []).filter((a) => !sending.includes(a)) }));
    });
  };

  return (
    <form
      className={dragging ? 'composer dragging' : 'composer'}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
      }}
      onDrop={(e) => {
        if (e.dataTransfer.files.length === 0) return;
        e.preventDefault();
        setDragging(false);
        void attach([...e.dataTransfer.files]);
      }}
    >
      {attached.length > 0 && (
        <ul className="attachment-chips" aria-label={t('attach.private')}>
          {attached.map((a, i) => (
            <li key={`${a.name}-${i}`} className="attachment-chip">
              <span>{t('chat.attachment', { name: a.name, size: formatBytes(a.size, language) })}</span>
              {!incognito && (
                <label className="attachment-learn" title={t('attach.learnHint')}>
                  <input type="checkbox" checked={a.learn} onChange={(e) => setLearn(i, e.target.checked)} />
                  {t('attach.learn')}
                </label>
              )}
              <button type="button" className="icon small" onClick={() => detach(i)} aria-label={t('attach.remove', { name: a.name })} title={t('attach.remove', { name: a.name })}>
                <CloseIcon />
              </button>
            </li>
          ))}
        </ul>
      )}
      {refusals.length > 0 && (
        <div className="notice warn small attachment-refusals" role="alert">
          {refusals.map((r, i) => (
            <p key={i}>{refusalText(r)}</p>
          ))}
          <button type="button" className="ghost small" onClick={() => setRefusals([])}>
            {t('attach.dismiss')}
          </button>
        </div>
      )}
      {dragging && <p className="composer-drop">{t('attach.dropHere')}</p>}
      <div className="composer-box">
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="attach-input"
          accept=".txt,.md,.markdown,.csv,.tsv,.json,.yaml,.yml,.xml,.html,.css,.js,.jsx,.ts,.tsx,.py,.rb,.go,.rs,.java,.kt,.c,.h,.cpp,.hpp,.cs,.swift,.sh,.sql,.toml,.ini,.log,.tex,.pdf,text/*,application/pdf"
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            void attach(files);
          }}
        />
        <button type="button" className="composer-button" onClick={() => picker.current?.click()} aria-label={t('attach.button')} title={t('attach.buttonHint')} disabled={blocked}>
          <PaperclipIcon />
        </button>
        <textarea
          ref={area}
          rows={1}
          value={draft}
          aria-label={t('composer.label')}
          aria-describedby={hintId}
          placeholder={blocked ? t('composer.blocked') : t('composer.placeholder')}
          onChange={(e) => {
            setDraft(threadId, e.target.value);
            // Tells the core a message is coming, so background model work makes way (fire and forget).
            typing(e.target.value);
          }}
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
