import { useCallback } from 'react';
import { translate, type Language, type MessageKey, type Params } from './i18n';
import { selectLanguage, useSettingsStore } from '../settings/settings.store';

export type Translate = (key: MessageKey, params?: Params) => string;

export function useLanguage(): Language {
  return useSettingsStore(selectLanguage);
}

export function useT(): Translate {
  const language = useLanguage();
  return useCallback((key, params) => translate(language, key, params), [language]);
}
