/**
 * An on/off setting saved the moment it is flipped, not part of the Settings form's draft (working memory, episodes,
 * summarising related memories, waiting for mains power): one component, so each is a switch with its hint and says a failure the same way.
 */
import { useId } from 'react';
import { CoreError } from '../ui/CoreError';
import { useSettingsStore } from './settings.store';
import { useT } from '../i18n/use-t';
import { AppliesAtOnce } from './AppliesAtOnce';

type SwitchSetting = 'workingMemoryEnabled' | 'episodesEnabled' | 'consolidationEnabled' | 'learningNeedsPower';
/** Each switch's default (the contract's), shown until the settings are loaded. */
const DEFAULTS: Record<SwitchSetting, boolean> = { workingMemoryEnabled: true, episodesEnabled: true, consolidationEnabled: true, learningNeedsPower: false };

export function InstantSwitch({ setting, label, hint, offNote }: { setting: SwitchSetting; label: string; hint: string; offNote?: string }) {
  const id = useId();
  const enabled = useSettingsStore((s) => s.settings?.[setting] ?? DEFAULTS[setting]);
  const saveNow = useSettingsStore((s) => s.saveNow);
  const error = useSettingsStore((s) => s.instantErrors[setting]);
  return (
    <div className="field">
      <label className="check">
        <input type="checkbox" role="switch" checked={enabled} aria-describedby={`${id}-hint`} onChange={(e) => void saveNow({ [setting]: e.target.checked })} />
        <span>{label}</span>
      </label>
      <p id={`${id}-hint`} className="muted small">
        <AppliesAtOnce /> {hint}
      </p>
      {!enabled && offNote && <p className="muted small">{offNote}</p>}
      {error && (
        <p className="field-error" role="alert">
          <CoreError error={error} />
        </p>
      )}
    </div>
  );
}

/** Both in Settings › Memory and at the top of the Episodes tab. */
export function EpisodesSwitch() {
  const t = useT();
  return <InstantSwitch setting="episodesEnabled" label={t('episodes.enabled')} hint={t('episodes.enabledHint')} offNote={t('episodes.off')} />;
}
