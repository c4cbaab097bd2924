/**
 * "About you": the profile Mnemo keeps (profile/*), as the model sees it in every prompt. The user reads it, edits it
 * (later rewrites build on the edit), asks for a rewrite now, or turns it off. The page follows the profile live; the
 * "working" line follows the queue (a profile job running here, or the one the user asked for still waiting); a
 * failed attempt says so until the next rewrite or refresh, and "Refresh now" stays at hand then.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { formatRelativeTime } from '../../format';
import { Markdown } from '../../markdown/Markdown';
import { useMemoriesStore } from '../../stores/memories.store';
import { useProfileStore } from '../../stores/profile.store';
import { useSettingsStore } from '../../stores/settings.store';
import { useStatusStore } from '../../stores/status.store';
import { useLanguage, useT } from '../../use-t';
import type { CoreFailure } from '../../error-text';
import { CoreError } from '../CoreError';
import { PencilIcon } from '../icons';

export function AboutYou() {
  const t = useT();
  const language = useLanguage();
  const id = useId();
  const profile = useProfileStore((s) => s.profile);
  const loaded = useProfileStore((s) => s.loaded);
  const failure = useProfileStore((s) => s.failure);
  const save = useProfileStore((s) => s.save);
  const refresh = useProfileStore((s) => s.refresh);
  const asked = useProfileStore((s) => s.pendingJobId !== null);
  const running = useStatusStore((s) => s.queue?.running?.kind === 'profile');
  const working = asked || running;
  const enabled = useSettingsStore((s) => s.settings?.profileEnabled ?? true);
  const updateSettings = useSettingsStore((s) => s.update);
  const activeMemories = useMemoriesStore((s) => s.stats?.byStatus.active ?? null);
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<CoreFailure | null>(null);
  /** The button that opened the editor (Edit, or Write it yourself): focus goes back to it when the editor closes. */
  const editButton = useRef<HTMLButtonElement>(null);
  const [returnFocus, setReturnFocus] = useState(false);

  useEffect(() => {
    if (!returnFocus || draft !== null) return;
    editButton.current?.focus();
    setReturnFocus(false);
  }, [returnFocus, draft]);

  const startEdit = () => {
    setError(null);
    setDraft(profile?.content ?? '');
  };
  const cancel = () => {
    setError(null);
    setDraft(null);
    setReturnFocus(true);
  };
  const submit = async () => {
    if (draft === null) return;
    setSaving(true);
    const result = await save(draft);
    setSaving(false);
    if (!result.ok) return setError(result.error);
    setDraft(null);
    setReturnFocus(true);
  };
  const onEditorKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    cancel();
  };
  const refreshNow = async () => {
    setError(null);
    const result = await refresh();
    if (!result.ok) setError(result.error);
  };
  const toggle = async (on: boolean) => {
    setError(null);
    const result = await updateSettings({ profileEnabled: on });
    if (!result.ok) setError(result.error);
  };

  const refreshButton = (
    <button type="button" onClick={() => void refreshNow()} disabled={!enabled || (working && !failure)}>
      {t('profile.refresh')}
    </button>
  );

  return (
    <div className="about-you">
      <div className="about-you-setting">
        <label className="check">
          <input type="checkbox" role="switch" checked={enabled} aria-describedby={`${id}-hint`} onChange={(e) => void toggle(e.target.checked)} />
          <span>{t('profile.enabled')}</span>
        </label>
        <p id={`${id}-hint`} className="muted small">
          {t('profile.enabledHint')}
        </p>
        {!enabled && <p className="muted small">{t('profile.off')}</p>}
      </div>

      {/* A failed job waiting for its retry is not "working": the failure says what happens next. */}
      <div role="status" className="about-you-status small">
        {working && !failure && t('profile.working')}
      </div>
      {failure && (
        <div className="inline-error" role="alert">
          <span>
            {t(failure.final ? 'profile.failed' : 'profile.failedRetrying')} <CoreError error={{ code: failure.code, message: '' }} />
          </span>
        </div>
      )}
      {error && (
        <div className="field-error" role="alert">
          <CoreError error={error} />
        </div>
      )}

      {!loaded ? (
        <p className="muted">{t('common.loading')}</p>
      ) : draft !== null ? (
        <form
          className="about-you-editor"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <label htmlFor={`${id}-text`} className="field-label">
            {t('profile.editLabel')}
          </label>
          <textarea
            id={`${id}-text`}
            value={draft}
            rows={14}
            aria-describedby={`${id}-edit-hint`}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={onEditorKey}
            autoFocus
          />
          <p id={`${id}-edit-hint`} className="muted small">
            {t('profile.editHint')}
          </p>
          <div className="button-row">
            <button type="submit" className="primary" disabled={saving}>
              {t('common.save')}
            </button>
            <button type="button" onClick={cancel}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      ) : profile ? (
        <article className="about-you-page" aria-labelledby={`${id}-title`}>
          <h3 id={`${id}-title`} className="visually-hidden">
            {t('profile.title')}
          </h3>
          <p className="muted small about-you-meta">
            {profile.refreshedAt !== null
              ? t('profile.rewritten', { count: profile.memoryCount, when: formatRelativeTime(profile.refreshedAt, Date.now(), language) })
              : t('profile.writtenByYou', { when: formatRelativeTime(profile.updatedAt, Date.now(), language) })}
            {profile.editedByUser && <span className="badge">{t('profile.editedByYou')}</span>}
          </p>
          <Markdown text={profile.content} />
          <div className="button-row">
            <button type="button" ref={editButton} onClick={startEdit}>
              <PencilIcon /> {t('profile.edit')}
            </button>
            {refreshButton}
          </div>
        </article>
      ) : (
        <div className="about-you-empty">
          <h3>{t('profile.emptyTitle')}</h3>
          <p>{t('profile.emptyWhat')}</p>
          {activeMemories === 0 && <p className="muted">{t('profile.emptyNoMemories')}</p>}
          <div className="button-row">
            {refreshButton}
            <button type="button" ref={editButton} onClick={startEdit}>
              <PencilIcon /> {t('profile.writeYourself')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
