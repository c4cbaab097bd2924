/** Adds a memory by hand (memory.create, origin "user"); a duplicate of one already kept is refused with the core's words. */
import { useState } from 'react';
import { useMemoriesStore } from './memories.store';
import { showMemory } from '../app/navigate';
import { useT } from '../i18n/use-t';
import { Dialog } from '../ui/Dialog';
import { MemoryEditor } from './MemoryEditor';
import { draftReady, expiresAtOf, type MemoryDraft } from './memory-draft';
import type { ErrorInfo } from '../../../shared/errors';

const EMPTY: MemoryDraft = { content: '', category: 'knowledge', importance: 0.5, pinned: false, expires: '' };

export function AddMemoryDialog({ onClose }: { onClose(): void }) {
  const t = useT();
  const create = useMemoriesStore((s) => s.create);
  const [draft, setDraft] = useState<MemoryDraft>(EMPTY);
  const [error, setError] = useState<ErrorInfo | null>(null);
  const [saving, setSaving] = useState(false);
  const valid = draftReady(draft);

  const save = async () => {
    if (!valid) return;
    setSaving(true);
    const result = await create({
      content: draft.content.trim(),
      category: draft.category,
      importance: draft.importance,
      pinned: draft.pinned,
      expiresAt: expiresAtOf(draft.expires),
    });
    setSaving(false);
    if (!result.ok) return setError(result.error);
    onClose();
    showMemory(result.value.id);
  };

  return (
    <Dialog title={t('memories.addTitle')} onClose={onClose}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <p className="muted small">{t('memories.addHint')}</p>
        <MemoryEditor
          draft={draft}
          onChange={(d) => {
            setDraft(d);
            setError(null);
          }}
          error={error}
        />
        <div className="button-row end">
          <button type="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="primary" disabled={!valid || saving}>
            {saving ? t('common.saving') : t('memories.addSave')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
