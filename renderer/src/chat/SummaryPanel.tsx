/** The thread's running summary (what Mnemo keeps of older messages), readable and editable. */
import { useEffect, useId, useState } from 'react';
import { formatTime } from '../format/format';
import { useAppStore } from '../app/app.store';
import { useChatStore } from './chat.store';
import { useSettingsStore } from '../settings/settings.store';
import { useLanguage, useT } from '../i18n/use-t';
import { CloseIcon } from '../ui/icons';
import type { ErrorInfo } from '../../../shared/errors';
import { CoreError } from '../ui/CoreError';

export function SummaryPanel({ threadId }: { threadId: number }) {
  const t = useT();
  const language = useLanguage();
  const headingId = useId();
  const textId = useId();
  const summary = useChatStore((s) => s.summaries[threadId]);
  const loadSummary = useChatStore((s) => s.loadSummary);
  const saveSummary = useChatStore((s) => s.saveSummary);
  const close = useAppStore((s) => s.setSummaryOpen);
  const thresholds = useSettingsStore((s) => s.settings?.summary ?? null);
  // The conversation shown ends here; when it changes (a switch, an edit, a new message) the summary may describe
  // another version of it, or stop doing so: read it again.
  const leafId = useChatStore((s) => s.threads[threadId]?.messages.at(-1)?.id ?? null);
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [result, setResult] = useState<{ ok: true } | { ok: false; error: ErrorInfo } | null>(null);

  useEffect(() => {
    setDraft(null);
    setResult(null);
  }, [threadId]);
  useEffect(() => {
    void loadSummary(threadId);
  }, [threadId, leafId, loadSummary]);

  const text = draft ?? summary?.content ?? '';
  const dirty = draft !== null && draft !== (summary?.content ?? '');
  const save = async () => {
    setSaving(true);
    const r = await saveSummary(threadId, text);
    setSaving(false);
    setResult(r.ok ? { ok: true } : { ok: false, error: r.error });
    if (r.ok) setDraft(null);
  };

  return (
    <aside
      className="side-panel"
      aria-labelledby={headingId}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault();
          close(false);
        }
      }}
    >
      <header className="side-panel-head">
        <h2 id={headingId}>{t('summary.title')}</h2>
        <button type="button" className="icon" onClick={() => close(false)} aria-label={t('summary.close')}>
          <CloseIcon />
        </button>
      </header>
      {summary === undefined ? (
        <p className="muted">{t('common.loading')}</p>
      ) : (
        <>
          {summary === null ? (
            <p className="muted">{t('summary.none', { messages: thresholds?.minNewMessages ?? 10, tokens: thresholds?.minNewTokens ?? 3000 })}</p>
          ) : (
            <p className="muted small">
              {t('summary.covers', { count: summary.coveredCount })} · {formatTime(summary.updatedAt, language)}
              {summary.editedByUser && <> · {t('summary.edited')}</>}
            </p>
          )}
          {summary?.otherVersion && (
            <p className="pending-marker" role="note">
              {summary.editedByUser ? t('summary.otherVersionEdited') : t('summary.otherVersion')}
            </p>
          )}
          {summary && summary.pendingCount > 0 && (
            <p className="pending-marker" role="note">
              {t('summary.pending', { count: summary.pendingCount })}
            </p>
          )}
          <label htmlFor={textId} className="field-label">
            {t('summary.label')}
          </label>
          <textarea
            id={textId}
            className="summary-text"
            value={text}
            onChange={(e) => {
              setDraft(e.target.value);
              setResult(null);
            }}
            placeholder={t('summary.placeholder')}
          />
          <p className="muted small">{t('summary.editHint')}</p>
          <div className="button-row">
            {/* A summary of another version is made this one's by saving it, changed or not. */}
            <button type="button" className="primary" onClick={() => void save()} disabled={!(dirty || summary?.otherVersion) || saving}>
              {saving ? t('common.saving') : t('common.save')}
            </button>
            <button type="button" onClick={() => setDraft(null)} disabled={!dirty || saving}>
              {t('common.discard')}
            </button>
            {result && <span className={result.ok ? 'saved' : 'field-error'}>{result.ok ? t('common.saved') : <CoreError error={result.error} />}</span>}
          </div>
        </>
      )}
    </aside>
  );
}
