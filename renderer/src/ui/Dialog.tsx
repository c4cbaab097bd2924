/**
 * A modal dialog: labelled by its heading, focus moves in on open and back to where it was on close, Tab cycles
 * inside, Esc and a click on the backdrop close it. `alert` makes it an alertdialog (a confirmation).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useT } from '../i18n/use-t';
import { CloseIcon } from './icons';

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Dialog({ title, onClose, children, alert = false, wide = false }: { title: string; onClose(): void; children: ReactNode; alert?: boolean; wide?: boolean }) {
  const t = useT();
  const headingId = useId();
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const previous = document.activeElement as HTMLElement | null;
    const first = box.current?.querySelector<HTMLElement>('[data-autofocus]') ?? box.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => previous?.focus?.();
  }, []);

  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={box}
        className={wide ? 'dialog form-dialog wide' : 'dialog form-dialog'}
        role={alert ? 'alertdialog' : 'dialog'}
        aria-modal="true"
        aria-labelledby={headingId}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          } else if (e.key === 'Tab' && box.current) {
            const items = [...box.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
            const first = items[0];
            const last = items[items.length - 1];
            if (!first || !last) return;
            if (e.shiftKey && document.activeElement === first) {
              e.preventDefault();
              last.focus();
            } else if (!e.shiftKey && document.activeElement === last) {
              e.preventDefault();
              first.focus();
            }
          }
        }}
      >
        <header className="dialog-head">
          <h2 id={headingId}>{title}</h2>
          <button type="button" className="icon" onClick={onClose} aria-label={t('common.close')}>
            <CloseIcon />
          </button>
        </header>
        <div className="dialog-body">{children}</div>
      </div>
    </div>
  );
}

/** "Are you sure?" for what cannot be undone: the consequence in words, and the action named on its button. */
export function ConfirmDialog({ title, body, confirm, cancel, onConfirm, onClose }: { title: string; body: string; confirm: string; cancel?: string; onConfirm(): void; onClose(): void }) {
  const t = useT();
  return (
    <Dialog title={title} onClose={onClose} alert>
      <p>{body}</p>
      <div className="button-row end">
        <button type="button" onClick={onClose} data-autofocus>
          {cancel ?? t('common.cancel')}
        </button>
        <button
          type="button"
          className="danger-solid"
          onClick={() => {
            onConfirm();
            onClose();
          }}
        >
          {confirm}
        </button>
      </div>
    </Dialog>
  );
}
