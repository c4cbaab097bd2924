/**
 * Under an answer: what a request to forget did (electron/core/chat/forget-in-chat.ts), never a silent deletion.
 * What went to the trash, with Undo (back from the trash, memory.bulk restore); several matches, each with a
 * checkbox, and "Forget selected" (to the trash, with Undo then); or that nothing matched. What is shown follows each
 * memory's status as it is now (memory-refs.store.ts, kept current by events), so an Undo here, in the memory browser
 * or from the terminal all show the same.
 */
import { useEffect, useState } from 'react';
import type { ForgetNotice, Memory } from '../../../shared/contract';
import { useMemoryRefsStore } from './memory-refs.store';
import { useT } from '../i18n/use-t';

export function ForgetNotices({ notices }: { notices: ForgetNotice[] }) {
  return (
    <div className="forget-notices">
      {notices.map((n, i) => (
        <ForgetNoticeView key={i} notice={n} />
      ))}
    </div>
  );
}

function ForgetNoticeView({ notice }: { notice: ForgetNotice }) {
  const t = useT();
  const want = useMemoryRefsStore((s) => s.want);
  const byId = useMemoryRefsStore((s) => s.byId);
  const ids = [...notice.trashed, ...notice.candidates];
  const key = ids.join(',');
  useEffect(() => {
    if (key) want(key.split(',').map(Number));
  }, [key, want]);

  if (ids.length === 0) {
    return (
      <p className="forget-notice" role="status">
        {t('forget.none', { request: notice.request })}
      </p>
    );
  }
  // What is in the trash now, of this notice: forgotten here, or picked by the user afterwards.
  const inTrash = ids.filter((id) => byId[id]?.status === 'trashed');
  const toPick = notice.candidates.filter((id) => byId[id] !== null && byId[id]?.status !== 'trashed');
  return (
    <section className="forget-notice" aria-label={t('forget.label')}>
      {inTrash.length > 0 && <Forgotten ids={inTrash} byId={byId} />}
      {notice.trashed.length > 0 && inTrash.length === 0 && <p role="status">{restoredOrGone(notice.trashed, byId) ? t('forget.restored') : t('forget.gone')}</p>}
      {toPick.length > 0 && <Picker request={notice.request} ids={toPick} byId={byId} />}
    </section>
  );
}

/** True while some of them still exist (they came back); false when all were deleted forever. */
function restoredOrGone(ids: readonly number[], byId: Record<number, Memory | null>): boolean {
  return ids.some((id) => byId[id] !== null);
}

function Forgotten({ ids, byId }: { ids: number[]; byId: Record<number, Memory | null> }) {
  const t = useT();
  const restoreMany = useMemoryRefsStore((s) => s.restoreMany);
  const [busy, setBusy] = useState(false);
  return (
    <div className="forget-done" role="status">
      <span className="forget-title">{t('forget.forgotten')}</span>
      <ul className="forget-list">
        {ids.map((id) => (
          <li key={id}>{byId[id]?.content ?? t('receipt.memory', { id })}</li>
        ))}
      </ul>
      <button
        type="button"
        className="small"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void restoreMany(ids).finally(() => setBusy(false));
        }}
      >
        {t('forget.undo')}
      </button>
    </div>
  );
}

function Picker({ request, ids, byId }: { request: string; ids: number[]; byId: Record<number, Memory | null> }) {
  const t = useT();
  const trashMany = useMemoryRefsStore((s) => s.trashMany);
  const [picked, setPicked] = useState<ReadonlySet<number>>(new Set());
  const [busy, setBusy] = useState(false);
  const chosen = ids.filter((id) => picked.has(id));
  return (
    <fieldset className="forget-pick">
      <legend>{t('forget.pick', { request })}</legend>
      {ids.map((id) => (
        <label key={id} className="forget-candidate">
          <input
            type="checkbox"
            checked={picked.has(id)}
            onChange={(e) => {
              const next = new Set(picked);
              if (e.target.checked) next.add(id);
              else next.delete(id);
              setPicked(next);
            }}
          />{' '}
          {byId[id]?.content ?? t('receipt.memory', { id })}
        </label>
      ))}
      <button
        type="button"
        className="small"
        disabled={busy || chosen.length === 0}
        onClick={() => {
          setBusy(true);
          void trashMany(chosen).finally(() => {
            setBusy(false);
            setPicked(new Set());
          });
        }}
      >
        {t('forget.forgetSelected')}
      </button>
    </fieldset>
  );
}
