/**
 * "Episodes": what each conversation was about, written by the background model when it went quiet (episodes/*).
 * The user reads them newest first or searches them, opens the thread an episode is about, edits one (later
 * rewrites build on the edit), brings back an earlier version, deletes one (Undo; the deleted ones wait under
 * "Deleted", to restore or delete forever, backups included), and turns episodes off or sets when a conversation
 * counts as quiet. The list follows the core live (episode.updated / episode.deleted).
 */
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import type { Episode } from '../../../shared/contract';
import { formatTime, formatTimeRange } from '../format/format';
import { useEpisodesStore } from './episodes.store';
import { useSettingsStore } from '../settings/settings.store';
import { showMessage } from '../app/navigate';
import { useLanguage, useT } from '../i18n/use-t';
import type { CoreFailure } from '../i18n/error-text';
import { CoreError } from '../ui/CoreError';
import { ConfirmDialog } from '../ui/Dialog';
import { PencilIcon, RestoreIcon, TrashIcon } from '../ui/icons';
import { EpisodesSwitch } from '../settings/public';
import { fieldOf, validateDraft } from '../settings/settings-form';

/** The quiet time's range: the Settings form's (settings-form.ts), which follows the contract. */
const QUIET = fieldOf('episodeQuietMinutes');

export function Episodes() {
  const t = useT();
  const id = useId();
  const episodes = useEpisodesStore((s) => s.episodes);
  const loaded = useEpisodesStore((s) => s.loaded);
  const query = useEpisodesStore((s) => s.query);
  const setQuery = useEpisodesStore((s) => s.setQuery);
  const nextCursor = useEpisodesStore((s) => s.nextCursor);
  const more = useEpisodesStore((s) => s.more);
  const load = useEpisodesStore((s) => s.load);
  const view = useEpisodesStore((s) => s.view);
  const setView = useEpisodesStore((s) => s.setView);
  const settings = useSettingsStore((s) => s.settings);
  const updateSettings = useSettingsStore((s) => s.update);
  const enabled = settings?.episodesEnabled ?? true;
  const quietMinutes = settings?.episodeQuietMinutes ?? 30;
  const [minutes, setMinutes] = useState(String(quietMinutes));
  const [error, setError] = useState<CoreFailure | null>(null);
  // The Settings form's rule (settings-form.ts), so the tab explains a bad value as Settings does, before sending.
  const minutesError = settings ? (validateDraft(settings, { episodeQuietMinutes: minutes }).errors.episodeQuietMinutes ?? null) : null;

  useEffect(() => void load(), [load]);
  useEffect(() => setMinutes(String(quietMinutes)), [quietMinutes]);

  const change = async (patch: { episodeQuietMinutes: number }) => {
    setError(null);
    const result = await updateSettings(patch);
    if (!result.ok) setError(result.error);
  };

  return (
    <div className="about-you episodes">
      <div className="about-you-setting">
        <EpisodesSwitch />
        <label className="episodes-quiet small">
          <span>{t('episodes.quietMinutes')}</span>
          <input
            type="number"
            min={QUIET.min}
            max={QUIET.max}
            step={QUIET.step}
            value={minutes}
            disabled={!enabled}
            aria-invalid={minutesError !== null}
            aria-describedby={minutesError ? `${id}-quiet-error` : undefined}
            onChange={(e) => setMinutes(e.target.value)}
            onBlur={() => {
              const value = Number(minutes);
              if (minutesError === null && value !== quietMinutes) void change({ episodeQuietMinutes: value });
            }}
          />
        </label>
        {minutesError && (
          <p id={`${id}-quiet-error`} className="field-error small" role="alert">
            {t(minutesError.key, minutesError.params)}
          </p>
        )}
      </div>
      {error && (
        <div className="field-error" role="alert">
          <CoreError error={error} />
        </div>
      )}
      <div className="segmented episodes-views" role="group" aria-label={t('episodes.views')}>
        <button type="button" className={view === 'active' ? 'active' : undefined} aria-pressed={view === 'active'} onClick={() => setView('active')}>
          {t('episodes.view.active')}
        </button>
        <button type="button" className={view === 'trashed' ? 'active' : undefined} aria-pressed={view === 'trashed'} onClick={() => setView('trashed')}>
          <TrashIcon /> {t('episodes.view.trashed')}
        </button>
      </div>
      {view === 'active' && <input type="search" aria-label={t('episodes.search')} placeholder={t('episodes.search')} value={query} onChange={(e) => setQuery(e.target.value)} />}
      {!loaded ? (
        <p className="muted">{t('common.loading')}</p>
      ) : episodes.length === 0 ? (
        view === 'trashed' ? (
          <p className="muted">{t('episodes.trashEmpty')}</p>
        ) : query.trim() ? (
          <p className="muted">{t('episodes.noMatch')}</p>
        ) : (
          <div className="about-you-empty">
            <h3>{t('episodes.emptyTitle')}</h3>
            <p>{t('episodes.emptyWhat', { count: quietMinutes })}</p>
          </div>
        )
      ) : (
        <ul className="episode-list" aria-label={t(view === 'trashed' ? 'episodes.trashList' : 'episodes.list')}>
          {episodes.map((episode) => (
            <EpisodeItem key={episode.id} episode={episode} />
          ))}
        </ul>
      )}
      {nextCursor !== null && (view === 'trashed' || !query.trim()) && (
        <button type="button" onClick={() => void more()}>
          {t('episodes.more')}
        </button>
      )}
    </div>
  );
}

function EpisodeItem({ episode }: { episode: Episode }) {
  const t = useT();
  const language = useLanguage();
  const id = useId();
  const save = useEpisodesStore((s) => s.save);
  const remove = useEpisodesStore((s) => s.remove);
  const restore = useEpisodesStore((s) => s.restore);
  const [confirmPurge, setConfirmPurge] = useState(false);
  const versions = useEpisodesStore((s) => (s.versions?.id === episode.id ? s.versions.items : null));
  const showVersions = useEpisodesStore((s) => s.showVersions);
  const revert = useEpisodesStore((s) => s.revert);
  const [draft, setDraft] = useState<{ title: string; content: string } | null>(null);
  const [error, setError] = useState<CoreFailure | null>(null);
  const threadTitle = episode.threadTitle || t('episodes.untitledThread');

  const submit = async () => {
    if (!draft) return;
    const result = await save(episode.id, draft.title, draft.content);
    if (!result.ok) return setError(result.error);
    setError(null);
    setDraft(null);
  };
  const onEditorKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    setDraft(null);
  };
  const act = async (action: () => Promise<{ ok: boolean; error?: CoreFailure }>) => {
    const result = await action();
    setError(result.ok ? null : (result.error ?? null));
  };

  return (
    <li className="about-you-page episode" aria-labelledby={`${id}-title`}>
      <p className="muted small about-you-meta">
        <span>{formatTimeRange(episode.startedAt, episode.endedAt, language)}</span>
        <button type="button" className="ghost small" onClick={() => showMessage(episode.threadId, episode.fromMessageId)}>
          {t('episodes.openThread', { title: threadTitle })}
        </button>
        {episode.editedByUser && <span className="badge">{t('episodes.editedByYou')}</span>}
      </p>
      {draft ? (
        <form
          className="about-you-editor"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <label htmlFor={`${id}-edit-title`} className="field-label">
            {t('episodes.titleLabel')}
          </label>
          <input id={`${id}-edit-title`} value={draft.title} onChange={(e) => setDraft({ ...draft, title: e.target.value })} onKeyDown={onEditorKey} autoFocus />
          <label htmlFor={`${id}-edit-content`} className="field-label">
            {t('episodes.contentLabel')}
          </label>
          <textarea
            id={`${id}-edit-content`}
            value={draft.content}
            rows={8}
            aria-describedby={`${id}-edit-hint`}
            onChange={(e) => setDraft({ ...draft, content: e.target.value })}
            onKeyDown={onEditorKey}
          />
          <p id={`${id}-edit-hint`} className="muted small">
            {t('episodes.editHint')}
          </p>
          <div className="button-row">
            <button type="submit" className="primary">
              {t('common.save')}
            </button>
            <button type="button" onClick={() => setDraft(null)}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <h3 id={`${id}-title`} className="episode-title">
            {episode.title || threadTitle}
          </h3>
          <p className="episode-text">{episode.content}</p>
        </>
      )}
      {error && (
        <div className="field-error" role="alert">
          <CoreError error={error} />
        </div>
      )}
      {episode.status === 'trashed' && (
        <div className="button-row">
          <button type="button" onClick={() => void act(() => restore(episode.id))}>
            <RestoreIcon /> {t('episodes.restore')}
          </button>
          <button type="button" className="danger" onClick={() => setConfirmPurge(true)}>
            <TrashIcon /> {t('episodes.purge')}
          </button>
        </div>
      )}
      {confirmPurge && (
        <ConfirmDialog
          title={t('episodes.purgeTitle')}
          body={t('episodes.purgeBody')}
          confirm={t('episodes.purge')}
          onConfirm={() => void act(() => remove(episode.id, true))}
          onClose={() => setConfirmPurge(false)}
        />
      )}
      {!draft && episode.status === 'active' && (
        <div className="button-row">
          <button type="button" onClick={() => setDraft({ title: episode.title, content: episode.content })}>
            <PencilIcon /> {t('episodes.edit')}
          </button>
          <button type="button" aria-expanded={versions !== null} onClick={() => void showVersions(versions ? null : episode.id)}>
            {t(versions ? 'episodes.hideVersions' : 'episodes.versions')}
          </button>
          <button type="button" className="danger" onClick={() => void act(() => remove(episode.id))}>
            {t('episodes.delete')}
          </button>
        </div>
      )}
      {versions && (
        <ol className="episode-versions small">
          {versions.map((v) => (
            <li key={v.version}>
              <span>
                {t('episodes.version', { version: v.version })} · {t(`episodes.versionBy.${v.origin}`)} · {formatTime(v.createdAt, language)}
              </span>
              {v.version === episode.version ? (
                <span className="badge">{t('episodes.current')}</span>
              ) : (
                <button type="button" onClick={() => void act(() => revert(episode.id, v.version))}>
                  {t('episodes.revert', { version: v.version })}
                </button>
              )}
              <p className="muted">{v.title ? `${v.title} — ` : ''}{v.content}</p>
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}
