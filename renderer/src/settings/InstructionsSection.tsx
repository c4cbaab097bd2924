/**
 * Settings: the global custom instructions ("how should Mnemo answer": tone, language, format), kept apart from the
 * settings form because it is prose, saved on its own: with its button, Ctrl+Enter, or when the field loses focus,
 * so leaving the screen never drops what was typed.
 */
import { useEffect, useId, useState } from 'react';
import { INSTRUCTIONS_MAX_CHARS, type Settings } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import { formatNumber } from '../format/format';
import { useSettingsStore } from './settings.store';
import { useLanguage, useT } from '../i18n/use-t';
import { CoreError } from '../ui/CoreError';
import { Section } from '../ui/SettingsSection';

type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; error: ErrorInfo };

export function InstructionsSection({ settings }: { settings: Settings }) {
  const t = useT();
  const language = useLanguage();
  const fieldId = useId();
  const hintId = useId();
  const statusId = useId();
  const update = useSettingsStore((s) => s.update);
  const [text, setText] = useState(settings.instructions);
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  const tooLong = text.trim().length > INSTRUCTIONS_MAX_CHARS;
  const changed = text.trim() !== settings.instructions;

  // Changed elsewhere (another window, the CLI) while not being edited here: show the stored text.
  useEffect(() => {
    if (save.kind !== 'saving') setText((current) => (current.trim() === settings.instructions ? current : settings.instructions));
  }, [settings.instructions]);

  const commit = async () => {
    if (!changed || tooLong) return;
    setSave({ kind: 'saving' });
    const result = await update({ instructions: text.trim() });
    setSave(result.ok ? { kind: 'saved' } : { kind: 'error', error: result.error });
  };

  return (
    <Section title={t('instructions.globalTitle')} description={t('instructions.globalDescription')}>
      {/* The whole width, its Save under it: in the section's two columns the Save floated beside the box. */}
      <div className="field span-all">
        <label htmlFor={fieldId}>{t('instructions.globalLabel')}</label>
        <textarea
          id={fieldId}
          rows={5}
          value={text}
          placeholder={t('instructions.globalPlaceholder')}
          aria-describedby={`${hintId} ${statusId}`}
          aria-invalid={tooLong || save.kind === 'error'}
          onChange={(e) => {
            setText(e.target.value);
            setSave({ kind: 'idle' });
          }}
          onBlur={() => void commit()}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              void commit();
            }
          }}
        />
        <p id={hintId} className="field-hint">
          {t('instructions.count', { count: formatNumber(text.trim().length, language), max: formatNumber(INSTRUCTIONS_MAX_CHARS, language) })}
        </p>
        <div id={statusId} className={tooLong || save.kind === 'error' ? 'field-error' : 'muted small'} role="status">
          {tooLong ? t('instructions.tooLong', { max: formatNumber(INSTRUCTIONS_MAX_CHARS, language) }) : save.kind === 'error' ? <CoreError error={save.error} /> : save.kind === 'saved' ? t('instructions.saved') : ''}
        </div>
        <div className="button-row">
          <button type="button" disabled={!changed || tooLong || save.kind === 'saving'} onClick={() => void commit()}>
            {t('common.save')}
          </button>
        </div>
      </div>
    </Section>
  );
}
