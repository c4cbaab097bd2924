/**
 * The episodesEnabled switch, applied at once (like the working memory's), not part of the Settings form's draft:
 * in Settings › Memory and at the top of the Episodes tab, one component for both.
 */
import { useId, useState } from 'react';
import type { CoreFailure } from '../error-text';
import { CoreError } from '../components/CoreError';
import { useSettingsStore } from '../stores/settings.store';
import { useT } from '../use-t';

export function EpisodesSetting() {
  const t = useT();
  const id = useId();
  const enabled = useSettingsStore((s) => s.settings?.episodesEnabled ?? true);
  const update = useSettingsStore((s) => s.update);
  const [error, setError] = useState<CoreFailure | null>(null);
  const toggle = async (on: boolean) => {
    setError(null);
    const result = await update({ episodesEnabled: on });
    if (!result.ok) setError(result.error);
  };
  return (
    <div className="field">
      <label className="check">
        <input type="checkbox" role="switch" checked={enabled} aria-describedby={`${id}-hint`} onChange={(e) => void toggle(e.target.checked)} />
        <span>{t('episodes.enabled')}</span>
      </label>
      <p id={`${id}-hint`} className="muted small">
        {t('episodes.enabledHint')}
      </p>
      {!enabled && <p className="muted small">{t('episodes.off')}</p>}
      {error && (
        <p className="field-error" role="alert">
          <CoreError error={error} />
        </p>
      )}
    </div>
  );
}
