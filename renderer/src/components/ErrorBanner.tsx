import { useAppStore } from '../stores/app.store';
import { useT } from '../use-t';

export function ErrorBanner() {
  const t = useT();
  const error = useAppStore((s) => s.error);
  const dismiss = useAppStore((s) => s.dismissError);
  if (!error) return null;
  return (
    <div className="error-banner" role="alert">
      <strong>{t('error.generic')}:</strong> <span>{error.message}</span>
      <button type="button" onClick={dismiss} aria-label={t('error.dismiss')}>
        ×
      </button>
    </div>
  );
}
