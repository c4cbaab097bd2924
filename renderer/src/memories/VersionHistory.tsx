/** Every version of a memory, newest first: what changed (a word diff of the text, the other fields in words), who
 * changed it and why, what replaced it when a version retired it (with a way there), and a way back to any earlier
 * one (memory.revert writes it again as a new version). */
import { useState } from 'react';
import type { MemoryLink, MemoryVersion } from '../../../shared/contract';
import { formatTime } from '../format/format';
import { showMemory } from '../app/navigate';
import { diffWords } from './word-diff';
import { fieldChanges } from './field-changes';
import type { MessageKey } from '../i18n/i18n';
import { useLanguage, useT, type Translate } from '../i18n/use-t';
import { ConfirmDialog } from '../ui/Dialog';
import { ExternalIcon, RestoreIcon } from '../ui/icons';

/** A version that retired the memory, and what replaced it then (null: deleted since). */
export interface Replacement {
  version: number;
  memory: MemoryLink | null;
}

export function VersionHistory({ versions, replacedBy = [], onRevert }: { versions: MemoryVersion[]; replacedBy?: Replacement[]; onRevert(version: number): void }) {
  const t = useT();
  const language = useLanguage();
  const [confirm, setConfirm] = useState<MemoryVersion | null>(null);
  const newest = versions[versions.length - 1];
  const shown = [...versions].reverse();
  return (
    <ol className="versions">
      {shown.map((v) => {
        const previous = versions[versions.findIndex((x) => x.version === v.version) - 1];
        return (
          <li key={v.version} className="version">
            <div className="version-head">
              <strong>{t('history.version', { version: v.version })}</strong>
              <span className="badge">{reasonLabel(v.reason, t)}</span>
              {newest && v.version !== newest.version && (
                <button type="button" className="ghost small push-right" onClick={() => setConfirm(v)} aria-label={t('history.revertTo', { version: v.version })}>
                  <RestoreIcon /> {t('history.revert')}
                </button>
              )}
            </div>
            <p className="muted small version-by">
              {t(`history.origin.${v.origin}`)} · {formatTime(v.createdAt, language)}
            </p>
            {previous && previous.content !== v.content ? <WordDiff before={previous.content} after={v.content} /> : !previous ? <p className="version-text">{v.content}</p> : null}
            {previous && <FieldChanges before={previous} after={v} />}
            {replacedBy
              .filter((r) => r.version === v.version)
              .map((r) => (
                <MemoryLinkLine key={r.memory?.id ?? 'gone'} memory={r.memory} text={(content) => t('history.replacedBy', { content })} gone={t('history.replacedByGone')} open={(content) => t('history.openReplacement', { content })} />
              ))}
          </li>
        );
      })}
      {confirm && (
        <ConfirmDialog
          title={t('history.revertTitle', { version: confirm.version })}
          body={t('history.revertBody', { content: confirm.content.length > 200 ? `${confirm.content.slice(0, 199)}…` : confirm.content })}
          confirm={t('history.revert')}
          onConfirm={() => onRevert(confirm.version)}
          onClose={() => setConfirm(null)}
        />
      )}
    </ol>
  );
}

/** One line naming another memory of this one's story, with a way to open it; `gone` when it was deleted since. */
export function MemoryLinkLine({ memory, text, gone, open }: { memory: MemoryLink | null; text(content: string): string; gone: string; open(content: string): string }) {
  const t = useT();
  if (!memory) return <p className="muted small">{gone}</p>;
  return (
    <p className="small source-line">
      <span className="grow">{text(memory.content)}</span>
      <button type="button" className="ghost small" onClick={() => showMemory(memory.id)} aria-label={open(memory.content)}>
        <ExternalIcon /> {t('memory.open')}
      </button>
    </p>
  );
}

export function WordDiff({ before, after }: { before: string; after: string }) {
  const t = useT();
  return (
    <p className="version-text diff" aria-label={t('history.diffLabel')}>
      {diffWords(before, after).map((part, i) =>
        part.kind === 'same' ? (
          <span key={i}>{part.text}</span>
        ) : part.kind === 'removed' ? (
          <del key={i} title={t('history.removed')}>
            {part.text}
          </del>
        ) : (
          <ins key={i} title={t('history.added')}>
            {part.text}
          </ins>
        ),
      )}
    </p>
  );
}

function FieldChanges({ before, after }: { before: MemoryVersion; after: MemoryVersion }) {
  const t = useT();
  const language = useLanguage();
  const changes = fieldChanges(before, after, t, language);
  if (changes.length === 0) return null;
  return <p className="muted small version-fields">{changes.join(' · ')}</p>;
}

const REASONS: Record<string, MessageKey> = {
  created: 'history.reason.created',
  edited: 'history.reason.edited',
  pinned: 'history.reason.pinned',
  unpinned: 'history.reason.unpinned',
  recategorized: 'history.reason.recategorized',
  deleted: 'history.reason.deleted',
  restored: 'history.reason.restored',
  archived: 'history.reason.archived',
  unarchived: 'history.reason.unarchived',
  reverted: 'history.reason.reverted',
  merged: 'history.reason.merged',
  superseded: 'history.reason.superseded',
  confirmed: 'history.reason.confirmed',
  approved: 'history.reason.approved',
  'approved-edited': 'history.reason.approvedEdited',
  rejected: 'history.reason.rejected',
  imported: 'history.reason.imported',
  decayed: 'history.reason.decayed',
  'over the cap': 'history.reason.overCap',
  consolidated: 'history.reason.consolidated',
  unconsolidated: 'history.reason.unconsolidated',
};

/** The core's reason words, in the interface language; an unknown one (from a newer core) is shown as it is. */
function reasonLabel(reason: string, t: Translate): string {
  const key = REASONS[reason];
  return key ? t(key) : reason;
}
