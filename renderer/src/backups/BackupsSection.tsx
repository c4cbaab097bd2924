/**
 * Backups in the settings: when the last automatic one ran, a backup now, every backup with its kind, date and size,
 * and a restore that asks first and then says it waits for the next start.
 */
import { useEffect, useState } from 'react';
import type { BackupInfo } from '../../../shared/contract';
import { formatBytes, formatRelativeTime, formatTime } from '../format/format';
import { useBackupsStore } from './backups.store';
import { useLanguage, useT } from '../i18n/use-t';
import { Dialog } from '../ui/Dialog';
import { Section } from '../ui/SettingsSection';

export function BackupsSection() {
  const t = useT();
  const language = useLanguage();
  const { backups, folder, lastAutomaticAt, loaded, busy, staged, load, backupNow } = useBackupsStore();
  const [confirming, setConfirming] = useState<BackupInfo | null>(null);

  useEffect(() => {
    void load();
  }, [load]);

  return (
    <Section title={t('backups.title')} description={t('backups.hint', { folder: folder ?? '…' })}>
      {staged && (
        <p className="banner warn" role="status">
          {t('backups.staged', { name: staged.name, memories: staged.memories })}
        </p>
      )}
      <div className="button-row">
        <button type="button" onClick={() => void backupNow()} disabled={busy !== null}>
          {busy === 'backup' ? t('backups.working') : t('backups.now')}
        </button>
        <span className="muted small">
          {lastAutomaticAt === null ? t('backups.noAutomatic') : t('backups.lastAutomatic', { when: formatRelativeTime(lastAutomaticAt, Date.now(), language) })}
        </span>
      </div>
      {!loaded ? (
        <p className="muted">{t('common.loading')}</p>
      ) : backups.length === 0 ? (
        <p className="muted small">{t('backups.none')}</p>
      ) : (
        <ul className="backup-list" aria-label={t('backups.listLabel')}>
          {backups.map((b) => (
            <li key={b.name} className="backup-row">
              <span className="grow">
                <strong>{t(`backups.kind.${b.kind}`)}</strong> · {formatTime(b.createdAt, language)} · <span className="muted">{formatBytes(b.sizeBytes, language)}</span>
                <span className="muted block small">{b.name}</span>
              </span>
              <button type="button" className="small" disabled={busy !== null} onClick={() => setConfirming(b)} aria-label={t('backups.restoreOne', { name: b.name })}>
                {t('backups.restore')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {confirming && (
        <Dialog title={t('backups.confirmTitle')} onClose={() => setConfirming(null)} alert>
          <p>{t('backups.confirm', { when: formatTime(confirming.createdAt, language) })}</p>
          <div className="button-row">
            <button
              type="button"
              className="primary"
              onClick={() => {
                const name = confirming.name;
                setConfirming(null);
                void useBackupsStore.getState().restore(name);
              }}
            >
              {t('backups.confirmRestore')}
            </button>
            <button type="button" onClick={() => setConfirming(null)}>
              {t('common.cancel')}
            </button>
          </div>
        </Dialog>
      )}
    </Section>
  );
}
