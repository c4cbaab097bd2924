/**
 * The thread header's model picker: the installed models that can chat (never an embedding-only one), each with its
 * size and context length, and "the default" (the chatModel setting, which new threads use). The choice belongs to
 * the thread (thread.setModel). A model the thread used that is no longer installed is said plainly under the header,
 * with two ways on: pick another in the picker, or use the default.
 */
import { useId, type RefObject } from 'react';
import type { OpOutput, Thread } from '../../../shared/contract';
import { sameModel } from '../../../shared/model-name';
import { formatBytes, formatNumber } from '../format/format';
import { modelShortName, splitForMiddleEllipsis } from '../format/model-label';
import { useSettingsStore } from '../settings/settings.store';
import { useStatusStore } from '../status/status.store';
import { useThreadsStore } from '../threads/threads.store';
import { useLanguage, useT } from '../i18n/use-t';

type Installed = OpOutput<'models.list'>['models'][number];

/** The thread's model among the installed chat models, and whether the model server says it is gone. */
function useThreadModel(thread: Thread) {
  const models = useStatusStore((s) => s.models);
  const defaultModel = useSettingsStore((s) => s.settings?.chatModel ?? '');
  const chat = models?.models.filter((m) => m.chat) ?? [];
  const chosen = thread.model;
  const listed = chosen === null ? null : (chat.find((m) => sameModel(m.name, chosen)) ?? null);
  // Only a model server that answered can say a model is gone.
  const missing = chosen !== null && listed === null && models?.reachable === true;
  return { chat, chosen, listed, missing, defaultModel };
}

export function ThreadModelPicker({ thread, selectRef }: { thread: Thread; selectRef: RefObject<HTMLSelectElement | null> }) {
  const t = useT();
  const language = useLanguage();
  const id = useId();
  const setModel = useThreadsStore((s) => s.setModel);
  const { chat, chosen, listed, missing, defaultModel } = useThreadModel(thread);

  const describe = (m: Installed) => {
    const parts = [m.name, formatBytes(m.sizeBytes, language)];
    if (m.contextLength !== null) parts.push(t('threadModel.context', { tokens: formatNumber(m.contextLength, language) }));
    return parts.join(' · ');
  };

  // The closed picker shows a face, not the option's text: the model's own name with its end kept whole (a long
  // name was cut at the tag that tells it apart, issue 30's walk); the whole name, size and context are in the tooltip.
  const shown = chosen === null ? null : (listed ?? null);
  const faceLabel =
    chosen === null
      ? t('threadModel.default', { model: modelShortName(defaultModel) })
      : missing
        ? t('threadModel.missingOption', { model: modelShortName(chosen) })
        : modelShortName(chosen);
  const face = splitForMiddleEllipsis(faceLabel);
  const full = chosen === null ? t('threadModel.default', { model: defaultModel }) : shown ? describe(shown) : missing ? t('threadModel.missingOption', { model: chosen }) : chosen;

  return (
    <span className="thread-model">
      <label htmlFor={id} className="visually-hidden">
        {t('threadModel.label')}
      </label>
      <select
        id={id}
        ref={selectRef}
        className="model-select"
        title={`${full}\n${t('threadModel.hint')}`}
        value={chosen === null ? '' : (listed?.name ?? chosen)}
        onChange={(e) => void setModel(thread.id, e.target.value === '' ? null : e.target.value)}
      >
        <option value="">{t('threadModel.default', { model: defaultModel })}</option>
        {chosen !== null && listed === null && <option value={chosen}>{missing ? t('threadModel.missingOption', { model: chosen }) : chosen}</option>}
        {chat.map((m) => (
          <option key={m.name} value={m.name}>
            {describe(m)}
          </option>
        ))}
      </select>
      <span className="model-select-face" aria-hidden="true">
        <span className="face-head">{face.head}</span>
        {face.tail && <span className="face-tail">{face.tail}</span>}
      </span>
    </span>
  );
}

export function ThreadModelMissing({ thread, selectRef }: { thread: Thread; selectRef: RefObject<HTMLSelectElement | null> }) {
  const t = useT();
  const setModel = useThreadsStore((s) => s.setModel);
  const { chosen, missing, defaultModel } = useThreadModel(thread);
  if (!missing || chosen === null) return null;
  return (
    <div className="notice warn" role="alert">
      <span>{t('threadModel.missing', { model: chosen })}</span>
      <button type="button" className="small" onClick={() => selectRef.current?.focus()}>
        {t('threadModel.pickAnother')}
      </button>
      <button type="button" className="small" onClick={() => void setModel(thread.id, null)}>
        {t('threadModel.useDefault', { model: defaultModel })}
      </button>
    </div>
  );
}
