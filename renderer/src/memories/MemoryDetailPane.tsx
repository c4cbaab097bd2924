/**
 * The memory open beside the list: edit it, see where it came from (the user's own words and a jump to the message),
 * which answers used it, which other apps read or wrote it (MCP, shown when any did), its whole history with revert,
 * and move it to the trash, restore or purge it.
 */
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { MemoryPatch } from './memory-detail.store';
import { formatNumber, formatTime } from '../format/format';
import { useMemoryDetailStore, type MemoryDetail } from './memory-detail.store';
import { showMessage } from '../app/navigate';
import { useThreadsStore } from '../threads/threads.store';
import { useTimelineStore } from '../timeline/timeline.store';
import { useLanguage, useT } from '../i18n/use-t';
import { ConfirmDialog } from '../ui/Dialog';
import { ArchiveIcon, CloseIcon, ExternalIcon, RestoreIcon, TrashIcon } from '../ui/icons';
import { MemoryEditor } from './MemoryEditor';
import { draftOf, draftReady, expiresAtOf, type MemoryDraft } from './memory-draft';
import { MemoryLinkLine, VersionHistory } from './VersionHistory';
import { CoreError } from '../ui/CoreError';
import type { ErrorInfo } from '../../../shared/errors';
import { accessLine } from '../connected-apps/mcp-access-words';

export function MemoryDetailPane() {
  const t = useT();
  const headingId = useId();
  const detail = useMemoryDetailStore((s) => s.detail);
  const gone = useMemoryDetailStore((s) => s.gone);
  const error = useMemoryDetailStore((s) => s.error);
  const memoryId = useMemoryDetailStore((s) => s.memoryId);
  const closeDetail = useMemoryDetailStore((s) => s.close);
  const pane = useRef<HTMLElement>(null);
  const cameFrom = useRef<Element | null>(null);

  // What had focus when this memory was opened (a list row, a search result), outside the pane.
  useEffect(() => {
    const active = document.activeElement;
    if (active && active !== document.body && !pane.current?.contains(active)) cameFrom.current = active;
  }, [memoryId]);

  // Closing removes the focused control with the pane: focus goes back where it came from, never to the page body
  // (where Escape and Tab would no longer be anywhere near the list).
  const close = () => {
    const target = focusAfterClose(cameFrom.current, memoryId);
    closeDetail();
    target?.focus();
  };

  return (
    <aside
      ref={pane}
      className="detail-pane"
      aria-label={detail ? t('memory.idHint', { id: detail.memory.id }) : t('memory.titleShort')}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !e.defaultPrevented && (e.target as HTMLElement).tagName !== 'TEXTAREA') {
          e.preventDefault();
          close();
        }
      }}
    >
      <header className="side-panel-head">
        {/* Titled by its category, not the internal number (issue 30 walk); the number stays, small, beside it. */}
        <h2 id={headingId}>{detail ? t(`category.${detail.memory.category}`) : t('memory.titleShort')}</h2>
        {detail && (
          <span className="muted small memory-id grow" title={t('memory.idHint', { id: detail.memory.id })}>
            #{detail.memory.id}
          </span>
        )}
        <button type="button" className="icon" onClick={close} aria-label={t('memory.close')}>
          <CloseIcon />
        </button>
      </header>
      {gone ? (
        <p className="muted">{t('memory.gone')}</p>
      ) : error ? (
        <div className="field-error" role="alert">
          <CoreError error={error} />
        </div>
      ) : !detail ? (
        <p className="muted">{t('common.loading')}</p>
      ) : (
        <DetailBody detail={detail} />
      )}
    </aside>
  );
}

/**
 * Where focus goes when the pane closes: the control that opened it while it is still on screen (a row of the list is
 * virtualized and may show another memory by now, so a row counts only if it is this memory's); else this memory's
 * row; else the list's focusable row; else the screen.
 */
function focusAfterClose(cameFrom: Element | null, memoryId: number | null): HTMLElement | null {
  const ownRow = memoryId === null ? null : document.querySelector<HTMLElement>(`[data-memory-id="${memoryId}"] .memory-row-main`);
  const opener = cameFrom instanceof HTMLElement && cameFrom.isConnected ? cameFrom : null;
  const openerIsOtherRow = opener?.classList.contains('memory-row-main') && opener !== ownRow;
  return (
    (opener && !openerIsOtherRow ? opener : null) ??
    ownRow ??
    document.querySelector<HTMLElement>('.memory-row-main[tabindex="0"]') ??
    document.getElementById('main')
  );
}

function DetailBody({ detail }: { detail: MemoryDetail }) {
  const t = useT();
  const language = useLanguage();
  const { memory } = detail;
  const revert = useMemoryDetailStore((s) => s.revert);
  const trash = useMemoryDetailStore((s) => s.trash);
  const restore = useMemoryDetailStore((s) => s.restore);
  const archive = useMemoryDetailStore((s) => s.archive);
  const purge = useMemoryDetailStore((s) => s.purge);
  const undoSummary = useTimelineStore((s) => s.undoSummary);
  const undoHintId = useId();
  const [confirmPurge, setConfirmPurge] = useState(false);
  const canTrash = memory.status !== 'trashed' && memory.status !== 'rejected';
  /** What replaced it last (older cores say nothing: absent). */
  const replacement = detail.replacedBy?.at(-1);

  return (
    <div className="detail-body">
      <p className="detail-status">
        <span className={`badge status-badge ${memory.status}`}>{t(`status.memory.${memory.status}`)}</span>
        {memory.expired && <span className="badge warn">{t('memories.expired')}</span>}
        <span className="muted small">
          {t('memory.createdUpdated', { created: formatTime(memory.createdAt, language), updated: formatTime(memory.updatedAt, language) })}
        </span>
      </p>
      {memory.status === 'trashed' && memory.trashedAt !== null && <p className="notice small">{t('memory.inTrash', { date: formatTime(memory.trashedAt, language) })}</p>}
      {memory.status === 'superseded' && replacement?.memory && <p className="notice small">{t('memory.replacedByNow', { content: replacement.memory.content })}</p>}
      <EditForm detail={detail} />

      <div className="button-row">
        {memory.status === 'active' && (
          <button type="button" className="small" onClick={() => void archive()}>
            <ArchiveIcon /> {t('memories.archive')}
          </button>
        )}
        {(memory.status === 'trashed' || memory.status === 'archived') && (
          <button type="button" className="small" onClick={() => void restore()}>
            <RestoreIcon /> {memory.status === 'trashed' ? t('memories.restore') : t('memories.unarchive')}
          </button>
        )}
        {canTrash && (
          <button type="button" className="small danger" onClick={() => void trash()}>
            <TrashIcon /> {t('memory.delete')}
          </button>
        )}
        {memory.status === 'trashed' && (
          <button type="button" className="small danger" onClick={() => setConfirmPurge(true)}>
            <TrashIcon /> {t('memories.purge')}
          </button>
        )}
      </div>
      {confirmPurge && (
        <ConfirmDialog
          title={t('memory.purgeTitle')}
          body={t('memories.purgeBody')}
          confirm={t('memories.purgeConfirm')}
          onConfirm={() => void purge()}
          onClose={() => setConfirmPurge(false)}
        />
      )}

      <Section title={t('memory.provenance')}>
        <Provenance detail={detail} />
      </Section>
      <Section title={detail.usesTotal > 0 ? t('memory.uses', { count: detail.usesTotal, n: formatNumber(detail.usesTotal, language, 0) }) : t('memory.usesNone')}>
        <Uses detail={detail} />
      </Section>
      <AppAccess />
      <Section title={t('memory.history', { count: detail.versions.length })}>
        {/* A summary maintenance wrote (its first version says so): undone here as on the timeline, by the same call. */}
        {detail.versions[0]?.reason === 'consolidated' && memory.status === 'active' && (
          <p className="button-row">
            <button type="button" className="small" aria-describedby={undoHintId} onClick={() => void undoSummary(memory.id)}>
              <RestoreIcon /> {t('history.undoSummary')}
            </button>
            <span id={undoHintId} className="muted small">
              {t('history.undoSummaryHint')}
            </span>
          </p>
        )}
        {/* A supersede told from this side: the memories it took the place of, each a way there. */}
        {detail.replaces?.map((old) => (
          <MemoryLinkLine key={old.id} memory={old} text={(content) => t('history.replaced', { content })} gone="" open={(content) => t('history.openReplaced', { content })} />
        ))}
        <VersionHistory versions={detail.versions} replacedBy={detail.replacedBy} onRevert={(v) => void revert(v)} />
      </Section>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="detail-section" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

function EditForm({ detail }: { detail: MemoryDetail }) {
  const t = useT();
  const update = useMemoryDetailStore((s) => s.update);
  const { memory } = detail;
  const savedKey = JSON.stringify(draftOf(memory));
  const saved = useMemo(() => JSON.parse(savedKey) as MemoryDraft, [savedKey]);
  const [draft, setDraft] = useState<MemoryDraft>(saved);
  const [state, setState] = useState<{ kind: 'idle' | 'saving' | 'saved' } | { kind: 'error'; error: ErrorInfo }>({ kind: 'idle' });

  // Another memory, or this one changed elsewhere: the form shows what is stored.
  useEffect(() => {
    setDraft(saved);
  }, [saved]);
  useEffect(() => {
    setState({ kind: 'idle' });
  }, [memory.id]);

  const patch = patchOf(saved, draft);
  const dirty = Object.keys(patch).length > 0;
  const valid = draftReady(draft);
  const save = async () => {
    setState({ kind: 'saving' });
    const result = await update(patch);
    setState(result.ok ? { kind: 'saved' } : { kind: 'error', error: result.error });
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (dirty && valid) void save();
      }}
    >
      <MemoryEditor draft={draft} onChange={(d) => (setDraft(d), setState({ kind: 'idle' }))} error={state.kind === 'error' ? state.error : null}>
        <div className="button-row">
          <button type="submit" className="primary" disabled={!dirty || !valid || state.kind === 'saving'}>
            {state.kind === 'saving' ? t('common.saving') : t('common.save')}
          </button>
          <button type="button" disabled={!dirty} onClick={() => setDraft(saved)}>
            {t('common.discard')}
          </button>
          {state.kind === 'saved' && !dirty && <span className="saved">{t('common.saved')}</span>}
        </div>
      </MemoryEditor>
    </form>
  );
}

/** Only the fields that differ from what is stored. */
function patchOf(saved: MemoryDraft, draft: MemoryDraft): MemoryPatch {
  const patch: MemoryPatch = {};
  if (draft.content.trim() !== saved.content) patch.content = draft.content.trim();
  if (draft.category !== saved.category) patch.category = draft.category;
  if (draft.importance !== saved.importance) patch.importance = draft.importance;
  if (draft.pinned !== saved.pinned) patch.pinned = draft.pinned;
  if (draft.expires !== saved.expires) patch.expiresAt = expiresAtOf(draft.expires);
  return patch;
}

function Provenance({ detail }: { detail: MemoryDetail }) {
  const t = useT();
  const { provenance } = detail;
  const origin = detail.versions[0]?.origin ?? 'user';
  return (
    <div className="provenance">
      {/* An app's memory is stored as learned ('extraction'): the app that wrote it is its source. */}
      <p className="small">{provenance.writtenBy ? t('memory.writtenBy', { app: provenance.writtenBy.app }) : t(`memory.origin.${origin}`)}</p>
      {provenance.evidence && (
        <blockquote className="evidence">
          <span className="visually-hidden">{t('memory.evidence')}: </span>“{provenance.evidence}”
        </blockquote>
      )}
      {provenance.file && <p className="small">{t('memory.fromFile', { name: provenance.file })}</p>}
      {provenance.threadId !== null &&
        (provenance.threadTitle === null ? (
          <p className="muted small">{t('memory.threadDeleted')}</p>
        ) : (
          <p className="small source-line">
            <span className="grow">{t('memory.fromThread', { title: provenance.threadTitle || t('threads.untitled') })}</span>
            <button type="button" className="small" onClick={() => showMessage(provenance.threadId!, provenance.messageId)}>
              <ExternalIcon /> {t('memory.openSource')}
            </button>
          </p>
        ))}
      {provenance.messageEdited && <p className="muted small">{t('memory.fromEditedMessage')}</p>}
    </div>
  );
}

/** The other apps that read or wrote this memory, one line each ("LM Studio read this 3 times, last at 10:02"). */
function AppAccess() {
  const t = useT();
  const language = useLanguage();
  const access = useMemoryDetailStore((s) => s.access);
  const error = useMemoryDetailStore((s) => s.accessError);
  if (access.length === 0 && !error) return null;
  const now = Date.now();
  return (
    <Section title={t('memory.access.title')}>
      {error ? (
        <div className="field-error" role="alert">
          <CoreError error={error} />
        </div>
      ) : (
        <ul className="uses app-access-log">
          {access.map((entry) => (
            <li key={entry.client} className="small">
              {accessLine(entry, now, t, language)}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function Uses({ detail }: { detail: MemoryDetail }) {
  const t = useT();
  const language = useLanguage();
  const threads = useThreadsStore((s) => s.threads);
  if (detail.uses.length === 0) return <p className="muted small">{t('memory.usesNoneHint')}</p>;
  return (
    <ul className="uses">
      {detail.uses.map((use) => {
        const title = threads.find((th) => th.id === use.threadId)?.title;
        return (
          <li key={use.messageId}>
            <span className="grow">
              <span className="block">{title === undefined ? t('memory.threadDeletedShort') : title || t('threads.untitled')}</span>
              <span className="muted small">
                {formatTime(use.at, language)} · <span className={`reason reason-${use.reason}`}>{t(`receipt.reason.${use.reason}`)}</span> ·{' '}
                {t('receipt.score', { score: formatNumber(use.score, language, 2) })}
              </span>
            </span>
            {title !== undefined && (
              <button type="button" className="ghost small" onClick={() => showMessage(use.threadId, use.messageId)} aria-label={t('memory.openAnswer', { date: formatTime(use.at, language) })}>
                <ExternalIcon /> {t('memory.open')}
              </button>
            )}
          </li>
        );
      })}
      {detail.usesTotal > detail.uses.length && <li className="muted small">{t('memory.usesMore', { count: detail.usesTotal - detail.uses.length })}</li>}
    </ul>
  );
}
