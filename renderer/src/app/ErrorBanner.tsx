import { useAppStore } from './app.store';
import { useStatusStore } from '../status/status.store';
import { useT } from '../i18n/use-t';
import { CoreError } from '../ui/CoreError';
import { CloseIcon } from '../ui/icons';

/** The event socket dropped (replies and updates pause until it is back), or something failed unexpectedly. */
export function ErrorBanner() {
  const t = useT();
  const error = useAppStore((s) => s.error);
  const dismiss = useAppStore((s) => s.dismissError);
  const connected = useStatusStore((s) => s.connected);
  const everConnected = useStatusStore((s) => s.everConnected);
  return (
    <>
      {!connected && everConnected && (
        <div className="banner warn" role="alert">
          <span className="spinner" aria-hidden="true" /> {t('status.reconnecting')}
        </div>
      )}
      {error && (
        <div className="banner danger" role="alert">
          <strong>{t('error.generic')}:</strong>{' '}
          <div className="grow">
            <CoreError error={error} />
          </div>
          <button type="button" className="icon small" onClick={dismiss} aria-label={t('common.dismiss')}>
            <CloseIcon />
          </button>
        </div>
      )}
    </>
  );
}
