/**
 * Shown while semantic search is off: why (in the core's words: the folder, the command), that memories are still
 * found by keyword, and for the built-in model a download button with its progress (only ever on request).
 */
import { formatBytes, formatNumber } from '../../format';
import { useMemoriesStore } from '../../stores/memories.store';
import { useStatusStore } from '../../stores/status.store';
import { useLanguage, useT } from '../../use-t';
import { DownloadIcon, WarningIcon } from '../icons';

export function SemanticNotice() {
  const t = useT();
  const language = useLanguage();
  const live = useStatusStore((s) => s.embedding);
  const stats = useMemoriesStore((s) => s.stats);
  const progress = useStatusStore((s) => s.embeddingDownload);
  const download = useStatusStore((s) => s.downloadEmbedding);
  const cancel = useStatusStore((s) => s.cancelEmbeddingDownload);
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
  const percent = progress?.percent ?? 0;
  return (
    <section className="notice warn" aria-label={t('semantic.title')}>
      <WarningIcon />
      <div className="grow">
        <strong>{downloading ? t('semantic.downloading') : t('semantic.off')}</strong>{' '}
        <span className="small">{downloading ? t('semantic.downloadingHint') : t('semantic.keywordStill')}</span>
        {!downloading && (
          // The core's own words name the folder or the command; long, so folded.
          <details className="notice-details small">
            <summary>{t('semantic.why')}</summary>
            {status.message ?? t('semantic.offHint')}
          </details>
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
      {canDownload && (
        <button type="button" className="primary" onClick={() => void download()}>
          <DownloadIcon /> {t('semantic.download')}
        </button>
      )}
      {downloading && (
        <button type="button" onClick={() => void cancel()}>
          {t('semantic.cancel')}
        </button>
      )}
    </section>
  );
}
