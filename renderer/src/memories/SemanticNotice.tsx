/**
 * Shown while semantic search is off, as compact as it can be (the list must show below it): a title that says memories
 * are still found by keyword; why it is off, in one sentence a user can act on (EmbeddingOffReason: the core's own
 * words, which name files and folders, folded under it), that memories are still found by keyword, a failed download and its reason,
 * and the ways to turn it on: for the built-in model a download button with its progress (only ever on request),
 * and an embedding model the model server (Ollama or an OpenAI-compatible one) already has. A failed download says so
 * in the UI's language, its reason folded.
 */
import { formatBytes, formatNumber } from '../format/format';
import { useAppStore } from '../app/app.store';
import { useMemoriesStore } from './memories.store';
import { useSettingsStore } from '../settings/settings.store';
import { useStatusStore } from '../status/status.store';
import { useLanguage, useT } from '../i18n/use-t';
import { EmbeddingOffReason } from '../status/public';
import { DownloadIcon, WarningIcon } from '../ui/icons';

export function SemanticNotice() {
  const t = useT();
  const language = useLanguage();
  const live = useStatusStore((s) => s.embedding);
  const stats = useMemoriesStore((s) => s.stats);
  const progress = useStatusStore((s) => s.embeddingDownload);
  const download = useStatusStore((s) => s.downloadEmbedding);
  const cancel = useStatusStore((s) => s.cancelEmbeddingDownload);
  const failure = useStatusStore((s) => s.embeddingDownloadFailure);
  // A selector returning a new array would re-render forever: pick the list, then filter.
  const installed = useStatusStore((s) => s.models?.models);
  const server = useStatusStore((s) => s.models?.api === 'openai');
  const updateSettings = useSettingsStore((s) => s.update);
  const showError = useAppStore((s) => s.showError);
  const status = live ?? stats?.semanticSearch ?? null;
  if (!status || status.state === 'ready' || status.state === 'loading') {
    const missing = stats?.vectors.missing ?? 0;
    if (status?.state === 'ready' && missing > 0) {
      return (
        <p className="notice" aria-live="polite">
          {t('semantic.indexing', { count: missing, n: formatNumber(missing, language, 0) })}
        </p>
      );
    }
    return null;
  }
  const downloading = status.state === 'downloading';
  const canDownload = status.provider === 'onnx' && !downloading;
  const useOllama = status.provider === 'onnx' && !downloading ? installed?.find((m) => m.embedding)?.name : undefined;
  const percent = progress?.percent ?? 0;
  return (
    <section className="notice warn" aria-label={t('semantic.title')}>
      <WarningIcon />
      <div className="grow">
        {/* The title is a sentence of its own on its own line (issue 30 walk: it ran into the next one); while off,
            one sentence says what to do, the core's words folded under it. */}
        <strong className="block">{downloading ? t('semantic.downloading') : t('semantic.keywordStill')}</strong>
        {downloading && <span className="small block">{t('semantic.downloadingHint')}</span>}
        {!downloading && failure !== null && (
          // The core's reason is English and technical (an address, a network error): folded under the sentence.
          <div className="field-error small" role="alert">
            {t('semantic.downloadFailed', { reason: t('semantic.downloadFailedHint') })}
            {failure && (
              <details className="notice-details">
                <summary>{t('semantic.details')}</summary>
                <span lang="en">{failure}</span>
              </details>
            )}
          </div>
        )}
        {!downloading && failure === null && (
          <div className="small">
            <EmbeddingOffReason status={status} />
          </div>
        )}
        {downloading && (
          <div className="pull">
            <div className="progress" role="progressbar" aria-label={t('semantic.progress')} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
              <div className="progress-fill" style={{ width: `${percent}%` }} />
            </div>
            <span className="muted small">
              {progress ? `${percent}% · ${formatBytes(progress.loadedBytes, language)} / ${formatBytes(progress.totalBytes, language)} · ${progress.file}` : t('setup.pullStarting')}
            </span>
          </div>
        )}
      </div>
      {(canDownload || useOllama || downloading) && (
        <div className="notice-actions">
          {canDownload && (
            <button type="button" className="primary" onClick={() => void download()}>
              <DownloadIcon /> {t('semantic.download')}
            </button>
          )}
          {useOllama && (
            <button
              type="button"
              onClick={() =>
                void updateSettings({ embeddingProvider: 'ollama', embeddingModel: useOllama }).then((r) => {
                  if (!r.ok) showError(r.error);
                })
              }
            >
              {t(server ? 'semantic.useServer' : 'semantic.useOllama', { model: useOllama })}
            </button>
          )}
          {downloading && (
            <button type="button" onClick={() => void cancel()}>
              {t('semantic.cancel')}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
