import { useAppStore } from './app.store';
import { useT } from '../i18n/use-t';
import { CloseIcon } from '../ui/icons';
import { modKey } from './shortcuts';

/**
 * Notifications, in the sidebar above its views (Memories, Timeline, Settings): they take their own room there, so they
 * never cover the conversation or a control. They wait while the pointer or the keyboard focus is on them (to read, to
 * reach Undo).
 */
export function Toasts() {
  const t = useT();
  const toasts = useAppStore((s) => s.toasts);
  const dismiss = useAppStore((s) => s.dismissToast);
  const hold = useAppStore((s) => s.holdToasts);
  const runAction = useAppStore((s) => s.runToastAction);
  return (
    <section
      className="toasts"
      aria-label={t('toasts.label')}
      aria-live="polite"
      onPointerEnter={() => hold(true)}
      onPointerLeave={() => hold(false)}
      onFocus={() => hold(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) hold(false);
      }}
    >
      {toasts.map((toast) => (
        <div key={toast.id} className="toast">
          <span className="grow">
            {t(toast.text.key, toast.text.params)}
            {toast.count > 1 && <span className="toast-count"> {t('toasts.repeated', { count: toast.count })}</span>}
          </span>
          {toast.action && (
            <button
              type="button"
              className="toast-action"
              title={toast.action.label === 'common.undo' ? t('toasts.undoHint', { key: `${modKey()}+Z` }) : undefined}
              onClick={() => runAction(toast.id)}
            >
              {t(toast.action.label)}
            </button>
          )}
          <button type="button" className="icon small" onClick={() => dismiss(toast.id)} aria-label={t('common.dismiss')}>
            <CloseIcon />
          </button>
        </div>
      ))}
    </section>
  );
}
