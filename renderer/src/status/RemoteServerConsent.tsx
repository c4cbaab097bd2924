/**
 * The question Mnemo asks before anything goes to a model server on another machine that it found in use without a
 * confirmation: OLLAMA_HOST in the environment pointing elsewhere (settings never see it), or an address stored by an
 * older version. Mnemo has sent it nothing (the core refuses, shared/model-server-address.ts). Confirming stores the
 * address in that server's confirmation setting at once, the same setting the Settings checkbox writes.
 */
import { useState } from 'react';
import { REMOTE_CONFIRMATION_SETTING, type ModelServerApi } from '../../../shared/model-server-address';
import type { CoreFailure } from '../i18n/error-text';
import { useSettingsStore } from '../settings/settings.store';
import { useT } from '../i18n/use-t';
import { CoreError } from '../ui/CoreError';

export function RemoteServerConsent({ api, address, fromEnvironment }: { api: ModelServerApi; address: string; fromEnvironment: boolean }) {
  const t = useT();
  const update = useSettingsStore((s) => s.update);
  const [error, setError] = useState<CoreFailure | null>(null);
  const [saving, setSaving] = useState(false);
  const confirm = async () => {
    setSaving(true);
    setError(null);
    const result = await update({ [REMOTE_CONFIRMATION_SETTING[api]]: address });
    setSaving(false);
    if (!result.ok) setError(result.error);
  };
  return (
    <>
      <p>{t(fromEnvironment ? 'consent.fromEnvironment' : 'consent.fromSettings', { address })}</p>
      <p>{t('consent.what')}</p>
      <div className="button-row">
        <button type="button" className="primary" onClick={() => void confirm()} disabled={saving}>
          {t('consent.confirm', { address })}
        </button>
      </div>
      {error && (
        <p className="field-error" role="alert">
          <CoreError error={error} />
        </p>
      )}
    </>
  );
}
