/**
 * Export (JSON with every field and the history, or a readable Markdown profile) and import with a preview: the
 * dry run says for every item whether it is new, already there, in conflict or unreadable (and, when the active total
 * goes past the cap, that imported memories never count against it), and only then the import writes. A file is read
 * in the page (File.text()): nothing is uploaded anywhere but to Mnemo itself.
 */
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import type { ImportItem, ThreadImportItem, ThreadImportReport } from '../../../shared/contract';
import { formatNumber } from '../format/format';
import { importCapNotice } from './import-cap-notice';
import { previewText } from './preview-text';
import { useTransferStore, type ExportFormat, type ExportKind } from './transfer.store';
import { InlineField } from '../ui/InlineField';
import { useLanguage, useT } from '../i18n/use-t';
import { DownloadIcon, UploadIcon } from '../ui/icons';
import { CategoryOptions } from '../memories/public';
import { CoreError } from '../ui/CoreError';

/** Items listed in the preview; the counts cover all of them. */
const PREVIEW_ROWS = 200;

/**
 * A button that is busy stays focusable (aria-disabled, clicks ignored): a disabled or removed button drops focus to
 * the page body, outside the dialog, where Escape no longer closes it and Tab starts behind it.
 */
const busyProps = (busy: boolean) => (busy ? { 'aria-disabled': true as const } : {});

export function TransferPanel() {
  return (
    <div className="transfer">
      <ExportPart />
      <ImportPart />
    </div>
  );
}

function ExportPart() {
  const t = useT();
  const id = useId();
  const exporting = useTransferStore((s) => s.exporting);
  const lastExport = useTransferStore((s) => s.lastExport);
  const error = useTransferStore((s) => s.exportError);
  const exportMemories = useTransferStore((s) => s.exportMemories);
  const exportThreads = useTransferStore((s) => s.exportThreads);
  const [kind, setKind] = useState<ExportKind>('memories');
  const [format, setFormat] = useState<ExportFormat>('json');
  const [archived, setArchived] = useState(false);
  const [trashed, setTrashed] = useState(false);
  return (
    <section className="transfer-part" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('transfer.export')}</h3>
      <fieldset className="field radio-group">
        <legend>{t('transfer.what')}</legend>
        {(['memories', 'threads'] as const).map((k) => (
          <label key={k} className="radio">
            <input type="radio" name={`${id}-kind`} checked={kind === k} onChange={() => setKind(k)} /> {t(`transfer.what.${k}`)}
          </label>
        ))}
      </fieldset>
      <fieldset className="field radio-group stacked">
        <legend>{t('transfer.format')}</legend>
        {(['json', 'md'] as const).map((f) => (
          <label key={f} className="radio">
            <input type="radio" name={`${id}-format`} checked={format === f} onChange={() => setFormat(f)} />
            <span>
              <strong>{t(`transfer.format.${f}`)}</strong>
              <span className="muted small block">{t(kind === 'threads' ? `transfer.threadFormat.${f}Hint` : `transfer.format.${f}Hint`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {kind === 'memories' && (
        <>
          <label className="check">
            <input type="checkbox" checked={archived} onChange={(e) => setArchived(e.target.checked)} /> {t('transfer.includeArchived')}
          </label>
          <label className="check">
            <input type="checkbox" checked={trashed} onChange={(e) => setTrashed(e.target.checked)} /> {t('transfer.includeTrashed')}
          </label>
        </>
      )}
      <div className="button-row">
        <button
          type="button"
          className="primary"
          {...busyProps(exporting)}
          onClick={() => !exporting && void (kind === 'threads' ? exportThreads(format) : exportMemories(format, { archived, trashed }))}
        >
          <DownloadIcon /> {exporting ? t('transfer.exporting') : t('transfer.exportButton')}
        </button>
        {lastExport && !exporting && (
          <span className="saved" role="status">
            {t(lastExport.kind === 'threads' ? 'transfer.exportedThreads' : 'transfer.exported', { count: lastExport.count, file: lastExport.filename })}
          </span>
        )}
      </div>
      {error && (
        <div className="field-error" role="alert">
          <CoreError error={error} />
        </div>
      )}
    </section>
  );
}

function ImportPart() {
  const t = useT();
  const id = useId();
  const language = useLanguage();
  const text = useTransferStore((s) => s.text);
  const source = useTransferStore((s) => s.source);
  const options = useTransferStore((s) => s.options);
  const checking = useTransferStore((s) => s.checking);
  const importing = useTransferStore((s) => s.importing);
  const progress = useTransferStore((s) => s.progress);
  const report = useTransferStore((s) => s.report);
  const threadReport = useTransferStore((s) => s.threadReport);
  const error = useTransferStore((s) => s.importError);
  const setText = useTransferStore((s) => s.setText);
  const setOptions = useTransferStore((s) => s.setOptions);
  const check = useTransferStore((s) => s.check);
  const runImport = useTransferStore((s) => s.runImport);
  const clear = useTransferStore((s) => s.clear);
  const [readError, setReadError] = useState<string | null>(null);
  const textField = useRef<HTMLTextAreaElement>(null);
  const reportRegion = useRef<HTMLDivElement>(null);
  const imported = useRef(false);
  const busy = checking || importing;

  // The import button goes away with the preview it belonged to: focus moves to the result it produced.
  useEffect(() => {
    const done = threadReport ?? report;
    if (!imported.current || !done || done.dryRun) return;
    imported.current = false;
    reportRegion.current?.focus();
  }, [report, threadReport]);
  const toWrite = threadReport ? threadReport.new : report ? report.new + (options.onConflict === 'import' ? report.conflicting : 0) : 0;
  const dryRun = threadReport?.dryRun ?? report?.dryRun ?? false;

  return (
    <section className="transfer-part" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('transfer.import')}</h3>
      <p className="muted small">{t('transfer.importHint')}</p>
      <div className="field">
        <label htmlFor={`${id}-file`}>{t('transfer.file')}</label>
        <input
          id={`${id}-file`}
          type="file"
          accept=".json,.md,.markdown,.txt,application/json,text/markdown,text/plain"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            setReadError(null);
            file.text().then(
              (content) => setText(content, file.name),
              () => setReadError(t('transfer.readFailed', { file: file.name })),
            );
          }}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>{source ? t('transfer.textFrom', { file: source }) : t('transfer.paste')}</label>
        <textarea ref={textField} id={`${id}-text`} rows={6} value={text} placeholder={t('transfer.pastePlaceholder')} onChange={(e) => setText(e.target.value)} spellCheck={false} />
      </div>
      <div className="editor-row">
        <InlineField label={t('transfer.defaultCategory')}>
          {(id) => (
            <select id={id} value={options.defaultCategory} onChange={(e) => setOptions({ defaultCategory: e.target.value as typeof options.defaultCategory })}>
              <CategoryOptions />
            </select>
          )}
        </InlineField>
        <label className="check">
          <input type="checkbox" checked={options.onConflict === 'import'} onChange={(e) => setOptions({ onConflict: e.target.checked ? 'import' : 'skip' })} />
          {t('transfer.importConflicts')}
        </label>
      </div>
      <div className="button-row">
        <button type="button" disabled={text.trim() === ''} {...busyProps(busy)} onClick={() => !busy && void check()}>
          {checking ? t('transfer.checking') : t('transfer.check')}
        </button>
        {dryRun && (
          <button
            type="button"
            className="primary"
            disabled={toWrite === 0}
            {...busyProps(busy)}
            onClick={() => {
              if (busy) return;
              imported.current = true;
              void runImport();
            }}
          >
            <UploadIcon /> {importing ? t('transfer.importing') : t(threadReport ? 'transfer.importThreadsButton' : 'transfer.importButton', { count: toWrite })}
          </button>
        )}
        {(text || report || threadReport) && (
          <button
            type="button"
            className="ghost"
            {...busyProps(busy)}
            onClick={() => {
              if (busy) return;
              // This button goes away with what it clears: focus moves to the empty text to start again.
              clear();
              textField.current?.focus();
            }}
          >
            {t('transfer.clear')}
          </button>
        )}
      </div>
      {progress && progress.total > 0 && (
        <div className="progress" role="progressbar" aria-label={t('transfer.progress')} aria-valuemin={0} aria-valuemax={progress.total} aria-valuenow={progress.done}>
          <div className="progress-fill" style={{ width: `${Math.round((progress.done / progress.total) * 100)}%` }} />
        </div>
      )}
      {(error || readError) && (
        <div className="field-error" role="alert">
          {error ? <CoreError error={error} /> : readError}
        </div>
      )}
      {threadReport && <ThreadReport report={threadReport} regionRef={reportRegion} />}
      {report && (
        <div ref={reportRegion} tabIndex={-1} className="import-report" role="region" aria-label={report.dryRun ? t('transfer.preview') : t('transfer.result')}>
          <p className="report-summary">
            <strong>{report.dryRun ? t('transfer.previewTitle') : t('transfer.doneTitle', { count: report.written, n: formatNumber(report.written, language, 0) })}</strong>
          </p>
          <ul className="report-counts">
            <li className="outcome-new">{t('transfer.count.new', { count: report.new })}</li>
            <li className="outcome-duplicate">{t('transfer.count.duplicate', { count: report.duplicate })}</li>
            <li className="outcome-conflict">{t('transfer.count.conflict', { count: report.conflicting })}</li>
            <li className="outcome-invalid">{t('transfer.count.invalid', { count: report.invalid })}</li>
          </ul>
          {!report.nearDuplicateCheck && <p className="muted small">{t('transfer.noNearCheck')}</p>}
          {importCapNotice(report, language).map(({ key, params }) => (
            <p key={key} className="small">
              {t(key, params)}
            </p>
          ))}
          <table className="report-items">
            <thead>
              <tr>
                <th scope="col">{t('transfer.col.line')}</th>
                <th scope="col">{t('transfer.col.outcome')}</th>
                <th scope="col">{t('transfer.col.content')}</th>
              </tr>
            </thead>
            <tbody>
              {report.items.slice(0, PREVIEW_ROWS).map((item, i) => (
                <ReportRow key={i} item={item} />
              ))}
            </tbody>
          </table>
          {report.items.length > PREVIEW_ROWS && <p className="muted small">{t('transfer.moreItems', { count: report.items.length - PREVIEW_ROWS })}</p>}
        </div>
      )}
    </section>
  );
}

function ReportRow({ item }: { item: ImportItem }) {
  const t = useT();
  const language = useLanguage();
  const shown = previewText(item.content);
  return (
    <tr className={`outcome-${item.outcome}`}>
      <td>{item.line ?? (item.index !== undefined ? item.index + 1 : '')}</td>
      <td>
        <span className={`badge outcome ${item.outcome}`}>{t(`transfer.outcome.${item.outcome}`)}</span>
        {item.imported && <span className="muted small"> {t('transfer.importedAnyway')}</span>}
      </td>
      <td>
        {shown.text || <span className="muted">{t('transfer.noContent')}</span>}
        {shown.cut && <span className="muted small"> {t('transfer.cutLength', { n: formatNumber(shown.length, language, 0) })}</span>}
        {item.category && <span className="muted small"> · {t(`category.${item.category}`)}</span>}
        {item.reason && <span className="muted small block">{item.reason}</span>}
      </td>
    </tr>
  );
}

/** The preview or result of importing a conversation export: one row per conversation. */
function ThreadReport({ report, regionRef }: { report: ThreadImportReport; regionRef: RefObject<HTMLDivElement | null> }) {
  const t = useT();
  return (
    <div ref={regionRef} tabIndex={-1} className="import-report" role="region" aria-label={report.dryRun ? t('transfer.preview') : t('transfer.result')}>
      <p className="report-summary">
        <strong>{report.dryRun ? t('transfer.previewTitle') : t('transfer.threadsDone', { count: report.written })}</strong>
      </p>
      <ul className="report-counts">
        <li className="outcome-new">{t('transfer.count.new', { count: report.new })}</li>
        <li className="outcome-duplicate">{t('transfer.count.duplicate', { count: report.duplicate })}</li>
        <li className="outcome-invalid">{t('transfer.count.invalid', { count: report.invalid })}</li>
      </ul>
      <p className="muted small">{t('transfer.threadsNotLearned')}</p>
      <table className="report-items">
        <thead>
          <tr>
            <th scope="col">{t('transfer.col.line')}</th>
            <th scope="col">{t('transfer.col.outcome')}</th>
            <th scope="col">{t('transfer.col.thread')}</th>
          </tr>
        </thead>
        <tbody>
          {report.items.slice(0, PREVIEW_ROWS).map((item) => (
            <ThreadReportRow key={item.index} item={item} />
          ))}
        </tbody>
      </table>
      {report.items.length > PREVIEW_ROWS && <p className="muted small">{t('transfer.moreItems', { count: report.items.length - PREVIEW_ROWS })}</p>}
    </div>
  );
}

function ThreadReportRow({ item }: { item: ThreadImportItem }) {
  const t = useT();
  return (
    <tr className={`outcome-${item.outcome}`}>
      <td>{item.index + 1}</td>
      <td>
        <span className={`badge outcome ${item.outcome}`}>{t(`transfer.outcome.${item.outcome}`)}</span>
      </td>
      <td>
        {item.title || <span className="muted">{t('threads.untitled')}</span>}
        <span className="muted small"> · {t('transfer.threadMessages', { count: item.messages })}</span>
        {item.otherVersions > 0 && <span className="muted small"> · {t('transfer.threadOtherVersions', { count: item.otherVersions })}</span>}
        {item.reason && <span className="muted small block">{item.reason}</span>}
      </td>
    </tr>
  );
}
