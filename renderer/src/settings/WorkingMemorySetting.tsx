/** The workingMemoryEnabled switch: applied at once (like the profile's), not part of the Settings form's draft. */
import { useId, useState } from 'react';
import type { CoreFailure } from '../error-text';
import { CoreError } from '../components/CoreError';
import { useSettingsStore } from '../stores/settings.store';
import { useT } from '../use-t';

export function WorkingMemorySetting() {
  const t = useT();
  const id = useId();
  const enabled = useSettingsStore((s) => s.settings?.workingMemoryEnabled ?? true);
  const update = useSettingsStore((s) => s.update);
  const [error, setError] = useState<CoreFailure | null>(null);
  const toggle = async (on: boolean) => {
    setError(null);
    const result = await update({ workingMemoryEnabled: on });
    if (!result.ok) setError(result.error);
  };
  return (
    <div className="field">
      <label className="check">
        <input type="checkbox" role="switch" checked={enabled} aria-describedby={`${id}-hint`} onChange={(e) => void toggle(e.target.checked)} />
        <span>{t('settings.workingMemory')}</span>
      </label>
      <p id={`${id}-hint`} className="muted small">
        {t('settings.workingMemoryHint')}
      </p>
      {error && (
        <p className="field-error" role="alert">
          <CoreError error={error} />
        </p>
      )}
    </div>
  );
}
