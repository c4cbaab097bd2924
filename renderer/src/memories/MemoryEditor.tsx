/**
 * The fields of a memory (content, category, importance, pin, expiry) as a form. Used to edit a memory, to add one
 * by hand and to edit a review candidate before approving it. Expiry is a local day: the memory holds through it.
 */
import { useId, type ReactNode } from 'react';
import type { MemoryCategory } from '../../../shared/contract';
import { importanceText, MAX_CONTENT, type MemoryDraft } from './memory-draft';
import { toDateInput } from '../format/local-day';
import { formatNumber } from '../format/format';
import { DayField } from '../ui/DayField';
import { useLanguage, useT } from '../i18n/use-t';
import { CategoryOptions } from './CategoryOptions';
import type { ErrorInfo } from '../../../shared/errors';
import { CoreError } from '../ui/CoreError';

export function MemoryEditor({
  draft,
  onChange,
  fields = ['content', 'category', 'importance', 'pinned', 'expires'],
  error,
  children,
}: {
  draft: MemoryDraft;
  onChange(draft: MemoryDraft): void;
  fields?: Array<keyof MemoryDraft>;
  error?: ErrorInfo | null;
  children?: ReactNode;
}) {
  const t = useT();
  const language = useLanguage();
  const importance = importanceText(draft.importance, t, language);
  const id = useId();
  const set = (patch: Partial<MemoryDraft>) => onChange({ ...draft, ...patch });
  const tooLong = draft.content.length > MAX_CONTENT;
  return (
    <div className="memory-editor">
      {fields.includes('content') && (
        <div className="field">
          <label htmlFor={`${id}-content`}>{t('memory.field.content')}</label>
          <textarea
            id={`${id}-content`}
            rows={4}
            value={draft.content}
            aria-invalid={tooLong || draft.content.trim() === '' ? true : undefined}
            aria-describedby={`${id}-count`}
            onChange={(e) => set({ content: e.target.value })}
            data-autofocus
          />
          <span id={`${id}-count`} className={tooLong ? 'field-error' : 'field-hint'}>
            {t('memory.field.contentCount', { count: formatNumber(draft.content.length, language), max: formatNumber(MAX_CONTENT, language) })}
          </span>
        </div>
      )}
      <div className="editor-row">
        {fields.includes('category') && (
          <div className="field">
            <label htmlFor={`${id}-category`}>{t('memory.field.category')}</label>
            <select id={`${id}-category`} value={draft.category} onChange={(e) => set({ category: e.target.value as MemoryCategory })}>
              <CategoryOptions />
            </select>
          </div>
        )}
        {fields.includes('importance') && (
          <div className="field grow">
            <label htmlFor={`${id}-importance`}>
              {t('memory.field.importance')}{' '}
              <span className="muted" title={importance.exact}>
                {importance.word}
              </span>
            </label>
            <input
              id={`${id}-importance`}
              type="range"
              min={0}
              max={1}
              step={0.05}
              value={draft.importance}
              aria-valuetext={`${importance.word} (${importance.exact})`}
              onChange={(e) => set({ importance: Number(e.target.value) })}
            />
          </div>
        )}
      </div>
      <div className="editor-row">
        {fields.includes('pinned') && (
          <label className="check">
            <input type="checkbox" checked={draft.pinned} onChange={(e) => set({ pinned: e.target.checked })} />
            <span>
              {t('memory.field.pinned')}
              <span className="muted small block">{t('memory.field.pinnedHint')}</span>
            </span>
          </label>
        )}
        {fields.includes('expires') && (
          <fieldset className="field expiry">
            <legend>{t('memory.field.expires')}</legend>
            <label className="radio">
              <input type="radio" name={`${id}-expires`} checked={draft.expires === ''} onChange={() => set({ expires: '' })} />
              {t('memory.field.never')}
            </label>
            <label className="radio">
              <input
                type="radio"
                name={`${id}-expires`}
                checked={draft.expires !== ''}
                onChange={() => set({ expires: draft.expires || toDateInput(Date.now() + 30 * 86_400_000) })}
              />
              {t('memory.field.on')}
            </label>
            <DayField label={t('memory.field.expiryDate')} value={draft.expires} onChange={(expires) => set({ expires })} />
          </fieldset>
        )}
      </div>
      {error && (
        <div className="field-error" role="alert">
          <CoreError error={error} />
        </div>
      )}
      {children}
    </div>
  );
}
