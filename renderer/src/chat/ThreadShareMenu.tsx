/**
 * The thread header's "Share" disclosure: copy the whole conversation as Markdown, or save it as a Markdown or JSON
 * file (the same export as Memories › Import / export, for this thread only). Escape or a click elsewhere closes it,
 * and focus goes back to its button.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { copyText } from '../markdown/copy-text';
import { useTransferStore } from '../transfer/transfer.store';
import { useT } from '../i18n/use-t';
import { CoreError } from '../ui/CoreError';
import { CopyIcon, DownloadIcon } from '../ui/icons';

export function ThreadShareMenu({ threadId }: { threadId: number }) {
  const t = useT();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const exportThreads = useTransferStore((s) => s.exportThreads);
  const threadMarkdown = useTransferStore((s) => s.threadMarkdown);
  const error = useTransferStore((s) => s.exportError);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector('button')?.focus();
    const away = (e: MouseEvent) => {
      if (!panel.current?.contains(e.target as Node) && !trigger.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);

  const close = () => {
    setOpen(false);
    trigger.current?.focus();
  };
  const copy = async () => {
    const markdown = await threadMarkdown(threadId);
    if (markdown !== null && (await copyText(markdown))) {
      setNote(t('threads.share.copied'));
      close();
    }
  };
  const save = async (format: 'md' | 'json') => {
    if (await exportThreads(format, threadId)) close();
  };

  return (
    <div
      className="share-menu"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          close();
        }
      }}
    >
      <button
        ref={trigger}
        type="button"
        className={open ? 'ghost active' : 'ghost'}
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        onClick={() => {
          setNote(null);
          setOpen(!open);
        }}
      >
        <DownloadIcon /> {t('threads.share')}
      </button>
      <span className="visually-hidden" aria-live="polite">
        {note}
      </span>
      {open && (
        <div id={`${id}-panel`} ref={panel} className="share-panel" role="group" aria-label={t('threads.share')}>
          <button type="button" className="ghost" onClick={() => void copy()}>
            <CopyIcon /> {t('threads.share.copy')}
          </button>
          <button type="button" className="ghost" onClick={() => void save('md')}>
            <DownloadIcon /> {t('threads.share.markdown')}
          </button>
          <button type="button" className="ghost" onClick={() => void save('json')}>
            <DownloadIcon /> {t('threads.share.json')}
          </button>
          {error && (
            <p className="field-error" role="alert">
              <CoreError error={error} />
            </p>
          )}
        </div>
      )}
    </div>
  );
}
