import { translate, type MessageKey } from './i18n';
import { useAppStore } from './stores/app.store';

export function useT(): (key: MessageKey) => string {
  const language = useAppStore((s) => s.language);
  return (key) => translate(language, key);
}
