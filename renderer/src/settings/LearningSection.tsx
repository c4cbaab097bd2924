/**
 * Settings › When Mnemo learns: when background model work (learning, summaries, titles, episodes, the profile) may use
 * the one model the chat uses (electron/core/llm/model-lane.ts), saved the moment it is chosen, like InstantSwitch.
 * "Wait for mains power" only in the desktop app, the one host that knows the battery (Electron's powerMonitor).
 * Below, what that work cost since Mnemo started (queue.usage), so the choice is made knowing its price.
 */
import { useEffect } from 'react';
import type { Settings } from '../../../shared/contract';
import { CoreError } from '../ui/CoreError';
import { Section } from '../ui/SettingsSection';
import { formatDuration } from '../format/format';
import { useSettingsStore } from './settings.store';
import { useStatusStore, type ModelUsage } from '../status/status.store';
import { LEARNING_SCHEDULE_GROUP_ID } from './open-learning-settings';
import { useLanguage, useT } from '../i18n/use-t';
import { InstantSwitch } from './InstantSwitch';
import { AppliesAtOnce } from './AppliesAtOnce';

const SCHEDULES = ['gaps', 'away', 'paused'] as const satisfies ReadonlyArray<Settings['learningSchedule']>;

export function LearningSection() {
  const t = useT();
  const schedule = useSettingsStore((s) => s.settings?.learningSchedule ?? 'gaps');
  const saveNow = useSettingsStore((s) => s.saveNow);
  const error = useSettingsStore((s) => s.instantErrors.learningSchedule);
  const desktop = useStatusStore((s) => s.info?.host === 'electron');
  return (
    <Section title={t('settings.learning')} description={t('settings.learningHint')}>
      <fieldset id={LEARNING_SCHEDULE_GROUP_ID} className="field radio-group stacked">
        <legend>{t('settings.learningSchedule')}</legend>
        <p className="muted small">
          <AppliesAtOnce />
        </p>
        {SCHEDULES.map((choice) => (
          <label key={choice} className="radio">
            <input type="radio" name="learningSchedule" value={choice} checked={schedule === choice} onChange={() => void saveNow({ learningSchedule: choice })} />
            <span>
              <strong>{t(`settings.learningSchedule.${choice}`)}</strong>
              <span className="muted small block">{t(`settings.learningSchedule.${choice}Hint`)}</span>
            </span>
          </label>
        ))}
        {error && (
          <p className="field-error" role="alert">
            <CoreError error={error} />
          </p>
        )}
      </fieldset>
      {desktop && <InstantSwitch setting="learningNeedsPower" label={t('settings.learningNeedsPower')} hint={t('settings.learningNeedsPowerHint')} />}
      <UsageLine />
    </Section>
  );
}

/** Asked again when the running job changes: a finished request is counted by then. */
function UsageLine() {
  const t = useT();
  const language = useLanguage();
  const usage = useStatusStore((s) => s.usage);
  const refresh = useStatusStore((s) => s.refreshUsage);
  const runningJob = useStatusStore((s) => s.queue?.running?.id ?? null);
  useEffect(() => void refresh(), [refresh, runningJob]);
  if (!usage) return null;
  const total = usageTotal(usage);
  return (
    <p className="muted small">
      {total.requests === 0 ? t('settings.learningUsageNone') : t('settings.learningUsage', { time: formatDuration(total.modelMs, language), count: total.requests })}
      {total.preempted > 0 && <> {t('settings.learningUsagePreempted', { count: total.preempted })}</>}
    </p>
  );
}

export function usageTotal(usage: ModelUsage): { requests: number; modelMs: number; preempted: number } {
  return usage.purposes.reduce((sum, p) => ({ requests: sum.requests + p.requests, modelMs: sum.modelMs + p.modelMs, preempted: sum.preempted + p.preempted }), { requests: 0, modelMs: 0, preempted: 0 });
}
