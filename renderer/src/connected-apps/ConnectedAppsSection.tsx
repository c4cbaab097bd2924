/**
 * Settings › Connected apps: each app that used Mnemo's memory over MCP, when, how often, and what it may do (read,
 * write or off, radios: arrow keys move between them, each labelled), saved the moment it is chosen, like
 * InstantSwitch. Apps reach the memory through `mnemo mcp`, another process: the list is read again when the section
 * appears and whenever the window comes back into view (connected-apps.store.ts).
 */
import { useEffect, useId } from 'react';
import type { McpAccess, McpClient } from '../../../shared/contract';
import { CoreError } from '../ui/CoreError';
import { Section } from '../ui/SettingsSection';
import { formatTime } from '../format/format';
import { useConnectedAppsStore } from './connected-apps.store';
import { useLanguage, useT } from '../i18n/use-t';

const ACCESS: readonly McpAccess[] = ['read', 'write', 'off'];

export function ConnectedAppsSection() {
  const t = useT();
  const apps = useConnectedAppsStore((s) => s.apps);
  const loaded = useConnectedAppsStore((s) => s.loaded);
  const error = useConnectedAppsStore((s) => s.error);
  const load = useConnectedAppsStore((s) => s.load);

  useEffect(() => {
    void load();
    const again = () => {
      if (document.visibilityState === 'visible') void load();
    };
    window.addEventListener('focus', again);
    document.addEventListener('visibilitychange', again);
    return () => {
      window.removeEventListener('focus', again);
      document.removeEventListener('visibilitychange', again);
    };
  }, [load]);

  return (
    <Section title={t('apps.title')} description={t('apps.what')}>
      <div className="apps">
        {error ? (
          <div className="field-error" role="alert">
            <CoreError error={error} />
          </div>
        ) : !loaded ? (
          <p className="muted">{t('common.loading')}</p>
        ) : apps.length === 0 ? (
          <p className="muted small">{t('apps.empty')}</p>
        ) : (
          <>
            <p className="muted small">{t('apps.accessHint')}</p>
            <ul className="app-list" aria-label={t('apps.listLabel')}>
              {apps.map((app) => (
                <AppRow key={app.name} app={app} />
              ))}
            </ul>
          </>
        )}
      </div>
    </Section>
  );
}

function AppRow({ app }: { app: McpClient }) {
  const t = useT();
  const language = useLanguage();
  const set = useConnectedAppsStore((s) => s.set);
  const refused = useConnectedAppsStore((s) => s.refused[app.name]);
  const id = useId();
  return (
    <li className="app-row">
      <div className="app-row-head">
        <strong id={`${id}-name`}>{app.name}</strong>
        <span className="muted small">
          {app.firstSeenAt === null || app.lastSeenAt === null
            ? t('apps.neverSeen')
            : t('apps.seen', { first: formatTime(app.firstSeenAt, language), last: formatTime(app.lastSeenAt, language) })}
          {' · '}
          {t('apps.reads', { count: app.reads })} · {t('apps.writes', { count: app.writes })}
        </span>
      </div>
      <fieldset className="radio-group app-access">
        <legend className="visually-hidden">{t('apps.access', { name: app.name })}</legend>
        {ACCESS.map((access) => (
          <label key={access} className="radio">
            <input type="radio" name={`${id}-access`} value={access} checked={app.access === access} onChange={() => void set(app.name, { access })} />
            {t(`apps.access.${access}`)}
          </label>
        ))}
      </fieldset>
      <label className="check small">
        <input type="checkbox" aria-describedby={`${id}-name`} checked={app.conversations} disabled={app.access === 'off'} onChange={(e) => void set(app.name, { conversations: e.target.checked })} />
        <span>{t('apps.conversations')}</span>
      </label>
      {refused && (
        <p className="field-error" role="alert">
          <CoreError error={refused} />
        </p>
      )}
    </li>
  );
}
