/**
 * The OpenAI-compatible server's API key: set, replaced or forgotten at once through its own operations, not saved
 * with the settings form (it is no setting: the core keeps it outside the database, backups and exports). The key is
 * never shown back; the field only says whether one is set.
 */
import { useEffect, useId, useState } from 'react';
import { API_KEY_PATTERN } from '../../../shared/contract';
import type { CoreFailure } from '../i18n/error-text';
import { useAppStore } from '../app/app.store';
import { useSettingsStore } from './settings.store';
import { useT } from '../i18n/use-t';
import { CoreError } from '../ui/CoreError';

/** `onTyped`: whether a key is typed and not kept yet (the settings view asks before leaving it behind). */
export function ApiKeyField({ isSet, onTyped }: { isSet: boolean; onTyped(typed: boolean): void }) {
  const t = useT();
  const id = useId();
  const setApiKey = useSettingsStore((s) => s.setApiKey);
  const clearApiKey = useSettingsStore((s) => s.clearApiKey);
  const showError = useAppStore((s) => s.showError);
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  /** A key the form refuses itself says why in the UI's language; one the core refuses, by its code (its words folded). */
  const [error, setError] = useState<'pattern' | CoreFailure | null>(null);
  const [done, setDone] = useState<'saved' | 'forgotten' | null>(null);
  // Gone with the field (another server type chosen, or the view left): nothing typed is pending any more.
  useEffect(() => () => onTyped(false), [onTyped]);

  const save = async () => {
    if (!key.trim() || busy) return;
    if (!API_KEY_PATTERN.test(key.trim())) return setError('pattern');
    setBusy(true);
    const result = await setApiKey(key.trim());
    setBusy(false);
    if (result.ok) {
      setKey('');
      onTyped(false);
      setError(null);
      setDone('saved');
    } else if (result.error.code === 'INVALID_INPUT') {
      setError(result.error);
    } else {
      showError(result.error);
    }
  };

  const forget = async () => {
    setBusy(true);
    const result = await clearApiKey();
    setBusy(false);
    if (result.ok) {
      setError(null);
      setDone('forgotten');
    } else {
      showError(result.error);
    }
  };

  const described = [`${id}-state`, error ? `${id}-error` : '', `${id}-hint`].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{t('settings.apiKey')}</label>
      <div className="input-with-button">
        <input
          id={id}
          type="password"
          value={key}
          autoComplete="off"
          spellCheck={false}
          placeholder={isSet ? t('settings.apiKeyPlaceholderSet') : ''}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          onChange={(e) => {
            setKey(e.target.value);
            onTyped(e.target.value.trim() !== '');
            setError(null);
            setDone(null);
          }}
          onKeyDown={(e) => {
            // Enter keeps the key, and must not submit the settings form around this field.
            if (e.key === 'Enter') {
              e.preventDefault();
              void save();
            }
          }}
        />
        <button type="button" className="small" disabled={!key.trim() || busy} onClick={() => void save()}>
          {isSet ? t('settings.apiKeyReplace') : t('settings.apiKeySave')}
        </button>
        {isSet && (
          <button type="button" className="small" disabled={busy} onClick={() => void forget()}>
            {t('settings.apiKeyForget')}
          </button>
        )}
      </div>
      <span id={`${id}-state`} className="field-hint" aria-live="polite">
        {isSet ? t('settings.apiKeySet') : t('settings.apiKeyNotSet')}
        {done === 'saved' && isSet && ` ${t('settings.apiKeySaved')}`}
        {done === 'forgotten' && !isSet && ` ${t('settings.apiKeyForgotten')}`}
      </span>
      {error && (
        <span id={`${id}-error`} className="field-error" role="alert">
          {error === 'pattern' ? t('settings.error.apiKey') : <CoreError error={error} />}
        </span>
      )}
      <span id={`${id}-hint`} className="field-hint">
        {t('settings.apiKeyHint')}
      </span>
    </div>
  );
}
