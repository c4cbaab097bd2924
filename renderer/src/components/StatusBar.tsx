import { useAppStore } from '../stores/app.store';
import { useT } from '../use-t';

export function StatusBar() {
  const t = useT();
  const connected = useAppStore((s) => s.connected);
  const info = useAppStore((s) => s.info);
  return (
    <footer className="status-bar" role="status" aria-live="polite">
      <span className={connected ? 'dot ok' : 'dot warn'} aria-hidden="true" />
      <span>{connected ? t('status.connected') : t('status.disconnected')}</span>
      {info && (
        <>
          <span className="sep" aria-hidden="true">·</span>
          <span title={info.dataDir}>
            {t('status.schema')}: {info.schemaVersion}
          </span>
          <span className="sep" aria-hidden="true">·</span>
          <span className="muted">Mnemo {info.version}</span>
        </>
      )}
    </footer>
  );
}
