/**
 * The thread's own system prompt, edited from the thread header: how the model should answer in this thread, added
 * after the instructions from Settings. Saved with thread.setInstructions (empty: none); a refusal is shown beside
 * the field and the text stays, so nothing typed is lost.
 */
import { useId, useState } from 'react';
import { INSTRUCTIONS_MAX_CHARS, type Thread } from '../../../shared/contract';
import { formatNumber } from '../format/format';
import { useThreadsStore } from '../threads/threads.store';
import { useLanguage, useT } from '../i18n/use-t';
import { Dialog } from '../ui/Dialog';

export function ThreadInstructionsDialog({ thread, onClose }: { thread: Thread; onClose(): void }) {
  const t = useT();
  const language = useLanguage();
  const fieldId = useId();
  const hintId = useId();
  const errorId = useId();
  const setInstructions = useThreadsStore((s) => s.setInstructions);
  const [text, setText] = useState(thread.instructions ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const tooLong = text.trim().length > INSTRUCTIONS_MAX_CHARS;

  const save = async () => {
    setSaving(true);
    const result = await setInstructions(thread.id, text);
    setSaving(false);
    if (result.ok) onClose();
    else setError(result.message || t('instructions.saveFailed'));
  };

  return (
    <Dialog title={t('instructions.threadTitle')} onClose={onClose} wide>
      <div className="field">
        <label htmlFor={fieldId}>{t('instructions.threadLabel')}</label>
        <textarea
          id={fieldId}
          data-autofocus
          rows={8}
          value={text}
          placeholder={t('instructions.threadPlaceholder')}
          aria-describedby={error || tooLong ? `${hintId} ${errorId}` : hintId}
          aria-invalid={error !== null || tooLong}
          onChange={(e) => {
            setText(e.target.value);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !tooLong) {
              e.preventDefault();
              void save();
            }
          }}
        />
        <p id={hintId} className="muted small">
          {t('instructions.threadHint')} {t('instructions.count', { count: formatNumber(text.trim().length, language), max: formatNumber(INSTRUCTIONS_MAX_CHARS, language) })}
        </p>
        {(error || tooLong) && (
          <p id={errorId} className="field-error" role="alert">
            {tooLong ? t('instructions.tooLong', { max: formatNumber(INSTRUCTIONS_MAX_CHARS, language) }) : error}
          </p>
        )}
      </div>
      <div className="button-row end">
        <button type="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
        <button type="button" className="primary" disabled={saving || tooLong} onClick={() => void save()}>
          {t('common.save')}
        </button>
      </div>
    </Dialog>
  );
}
