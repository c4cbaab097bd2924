import { useAppStore } from '../stores/app.store';
import { useT } from '../use-t';
import { CloseIcon } from './icons';

export function Toasts() {
  const t = useT();
  const toasts = useAppStore((s) => s.toasts);
  const dismiss = useAppStore((s) => s.dismissToast);
  return (
    <section className="toasts" aria-label={t('toasts.label')} aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className="toast">
          <span className="grow">
            {t(toast.text.key, toast.text.params)}
            {toast.count > 1 && <span className="toast-count"> {t('toasts.repeated', { count: toast.count })}</span>}
          </span>
          {toast.action && (
            <button type="button" className="toast-action" onClick={toast.action.run}>
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
