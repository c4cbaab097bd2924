/**
 * "About you": the profile Mnemo keeps (profile/*), as the model sees it in every prompt. The user reads it, edits it
 * (later rewrites build on the edit), asks for a rewrite now, or turns it off. The page follows the profile live; the
 * "working" line follows the queue (a profile job running here, or the one the user asked for still waiting); a
 * failed attempt says so until the next rewrite or refresh, and "Refresh now" stays at hand then.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Profile, ProfileFit } from '../../../shared/contract';
import { formatNumber, formatRelativeTime } from '../format/format';
import { Markdown } from '../markdown/Markdown';
import { useMemoriesStore } from './memories.store';
import { useProfileStore } from './profile.store';
import { useSettingsStore } from '../settings/settings.store';
import { useStatusStore } from '../status/status.store';
import { useLanguage, useT } from '../i18n/use-t';
import type { CoreFailure } from '../i18n/error-text';
import { CoreError } from '../ui/CoreError';
import { PencilIcon } from '../ui/icons';

export function AboutYou() {
  const t = useT();
  const language = useLanguage();
  const id = useId();
  const profile = useProfileStore((s) => s.profile);
  const loaded = useProfileStore((s) => s.loaded);
  const failure = useProfileStore((s) => s.failure);
  const fits = useProfileStore((s) => s.fits);
  const load = useProfileStore((s) => s.load);
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

  // How much fits depends on settings (context window, shares, chat model) that may have changed since: read it again.
  useEffect(() => {
    void load();
  }, [load]);

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
    setError(null); // a refusal of an earlier try is over once the text is kept
    setDraft(null);
    setReturnFocus(true);
  };
  const onEditorKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    cancel();
  };
  const refreshNow = async (shorten = false) => {
    setError(null);
    const result = await refresh(shorten);
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
          {enabled && fits ? (
            <ProfileAsPrompted profile={profile} fits={fits} shorten={() => void refreshNow(true)} working={working && !failure} />
          ) : (
            <Markdown text={profile.content} />
          )}
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

/**
 * The profile with how much of it a prompt holds: all of it, in a line; or a cut, said in numbers above it, a marker
 * line where the model stops reading, what lies below it dimmed, and Shorten (one rewrite by the background model,
 * asked to fit) beside editing it by hand.
 */
function ProfileAsPrompted({ profile, fits, shorten, working }: { profile: Profile; fits: ProfileFit; shorten(): void; working: boolean }) {
  const t = useT();
  const language = useLanguage();
  const n = (value: number) => formatNumber(value, language);
  const params = { model: fits.model, tokens: n(fits.tokens), room: n(fits.roomTokens), lines: n(fits.lines), count: fits.ofLines };
  if (fits.cutAt === null) {
    return (
      <>
        <Markdown text={profile.content} />
        <p className="muted small">{t('profile.fitsAll', params)}</p>
      </>
    );
  }
  const lines = profile.content.trim().split('\n');
  return (
    <>
      <div className="notice warn small profile-cut-notice">
        <p>{t('profile.cut', params)}</p>
        <div className="button-row">
          <button type="button" className="small" onClick={shorten} disabled={working}>
            {t('profile.shorten')}
          </button>
          <span className="muted">{t('profile.shortenHint')}</span>
        </div>
      </div>
      {fits.cutAt > 0 && <Markdown text={lines.slice(0, fits.cutAt).join('\n')} />}
      <p className="profile-cut-marker" role="separator" aria-label={t('profile.cutMarker')}>
        {t('profile.cutMarker')}
      </p>
      <div className="profile-cut-rest">
        <Markdown text={lines.slice(fits.cutAt).join('\n')} />
      </div>
    </>
  );
}
