/**
 * Under "How answers reach your memories": what the chosen way does with the chat model as it is (memoryAccessLine):
 * whether it can use tools comes from the model server (models.show), asked again when the model or server changes.
 */
import { useEffect, useState } from 'react';
import type { Settings } from '../../../shared/contract';
import { toolSupportOf, type ToolSupport } from '../../../shared/memory-access';
import { memoryAccessLine } from './memory-access-line';
import { useStatusStore } from '../status/status.store';
import { useT } from '../i18n/use-t';

export function MemoryAccessNow({ id, setting, memoryMode, model }: { id: string; setting: Settings['memoryAccess']; memoryMode: Settings['memoryMode']; model: string }) {
  const t = useT();
  const showModel = useStatusStore((s) => s.showModel);
  const api = useStatusStore((s) => (s.models?.reachable ? s.models.api : null));
  const [support, setSupport] = useState<{ model: string; api: string; value: ToolSupport } | null>(null);

  useEffect(() => {
    if (!api || !model.trim()) return;
    let current = true;
    void showModel(model).then((result) => {
      if (current && result.ok) setSupport({ model, api, value: toolSupportOf(api, result.value.capabilities) });
    });
    return () => {
      current = false;
    };
  }, [showModel, api, model]);

  const known = support && support.model === model && support.api === api ? support.value : null;
  const line = memoryAccessLine({ setting, memoryMode, support: known, model });
  if (!line) return null;
  return (
    <p id={id} className="field-hint memory-access-now" aria-live="polite">
      {t(line.key, line.params)}
    </p>
  );
}
