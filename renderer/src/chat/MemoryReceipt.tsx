/**
 * Under an answer: which long-term memories it used and why, in words (pinned, similar meaning, the words it matched, recent;
 * the score on hover), with each memory's text, and quick actions: wrong (open it in the editor), outdated (delete it or let it expire), and
 * "not in this thread" (thread.excludeMemory; shown as excluded, with a way back). Above them, the searches the model ran
 * with the memory tools and what each returned (ToolSearchList.tsx), and the earlier conversations of the time the
 * question asked about that the prompt carried (RecalledEpisodeList.tsx).
 */
import { DayField } from '../ui/DayField';
import { useEffect, useId, useState } from 'react';
import type { EpisodeRef, Memory, ToolSearch } from '../../../shared/contract';
import type { Result } from '../../../shared/errors';
import type { MessageKey } from '../i18n/i18n';
import { formatNumber } from '../format/format';
import { localDayStart, nextLocalDay, toDateInput } from '../format/local-day';
import { receiptReason } from './receipt-reason';
import type { MemoryUse } from './chat-merge';
import { useMemoryRefsStore } from './memory-refs.store';
import { showMemory } from '../app/navigate';
import { useAppStore } from '../app/app.store';
import { useLanguage, useT } from '../i18n/use-t';
import { MemoryIcon } from '../ui/icons';
import { InlineField } from '../ui/InlineField';
import { RecalledEpisodeList } from './RecalledEpisodeList';
import { ToolSearchList } from './ToolSearchList';

const REASONS = ['pinned', 'semantic', 'keyword', 'recency'] as const;
const NO_EXCLUSIONS: number[] = [];

export function MemoryReceipt({ memories, searches = [], recalled = [], threadId }: { memories: MemoryUse[]; searches?: ToolSearch[]; recalled?: EpisodeRef[]; threadId: number }) {
  const t = useT();
  const want = useMemoryRefsStore((s) => s.want);
  const excluded = useMemoryRefsStore((s) => s.exclusions[threadId] ?? NO_EXCLUSIONS);
  const counts = REASONS.map((reason) => ({ reason, count: memories.filter((m) => m.reason === reason).length })).filter((c) => c.count > 0);
  const ids = memories.map((m) => m.memoryId).join(',');

  useEffect(() => {
    want(ids.split(',').map(Number));
  }, [ids, want]);

  return (
    <details className="receipt">
      <summary>
        {/* The first thing the answer drew on leads (memories, else searches, else earlier conversations); the others follow. */}
        <MemoryIcon />{' '}
        {memories.length > 0 || (searches.length === 0 && recalled.length === 0)
          ? t('receipt.summary', { count: memories.length })
          : searches.length > 0
            ? t('receipt.searchesSummary', { count: searches.length })
            : t('receipt.recalled.summary', { count: recalled.length })}
        {memories.length > 0 && searches.length > 0 && <span className="receipt-searches-count"> · {t('receipt.searchesSummary', { count: searches.length })}</span>}
        {recalled.length > 0 && (memories.length > 0 || searches.length > 0) && <span className="receipt-recalled-count"> · {t('receipt.recalled.summary', { count: recalled.length })}</span>}
        <span className="receipt-reasons">
          {counts.map(({ reason, count }) => (
            <span key={reason} className={`reason reason-${reason}`}>
              {t(`receipt.reason.${reason}`)} × {count}
            </span>
          ))}
        </span>
      </summary>
      {searches.length > 0 && <ToolSearchList searches={searches} />}
      {recalled.length > 0 && <RecalledEpisodeList episodes={recalled} />}
      <ul className="receipt-list">
        {memories.map((use) => (
          <ReceiptItem key={use.memoryId} use={use} threadId={threadId} excluded={excluded.includes(use.memoryId)} />
        ))}
      </ul>
    </details>
  );
}

function ReceiptItem({ use, threadId, excluded }: { use: MemoryUse; threadId: number; excluded: boolean }) {
  const t = useT();
  const language = useLanguage();
  const textId = useId();
  const memory = useMemoryRefsStore((s) => s.byId[use.memoryId]);
  const exclude = useMemoryRefsStore((s) => s.exclude);
  const include = useMemoryRefsStore((s) => s.include);
  const [outdated, setOutdated] = useState(false);

  return (
    <li className={excluded ? 'receipt-item excluded' : 'receipt-item'}>
      <div className="receipt-line">
        <span id={textId} className="receipt-text">
          {memory ? memory.content : memory === null ? t('receipt.gone', { id: use.memoryId }) : t('receipt.memory', { id: use.memoryId })}
        </span>
        {/* Why, in words: a bare score reads as weakness (a pinned memory scores below any keyword hit). */}
        <span className={`reason reason-${use.reason}`} title={t('receipt.scoreHint', { score: formatNumber(use.score, language, 2) })}>
          {receiptReason(use, language)}
        </span>
        {memory && memory.status !== 'active' && <span className="badge">{t(`status.memory.${memory.status}`)}</span>}
        {memory?.expired && <span className="badge warn">{t('memories.expired')}</span>}
        {excluded && <span className="badge">{t('receipt.excluded')}</span>}
      </div>
      {memory && (
        <div className="receipt-actions">
          <button type="button" className="ghost small" aria-describedby={textId} title={t('receipt.wrongHint')} onClick={() => showMemory(memory.id)}>
            {t('receipt.wrong')}
          </button>
          {memory.status !== 'trashed' && (
            <button type="button" className={outdated ? 'ghost small active' : 'ghost small'} aria-describedby={textId} aria-expanded={outdated} onClick={() => setOutdated(!outdated)}>
              {t('receipt.outdated')}
            </button>
          )}
          {excluded ? (
            <button type="button" className="ghost small" aria-describedby={textId} onClick={() => void include(threadId, memory.id)}>
              {t('receipt.include')}
            </button>
          ) : (
            <button type="button" className="ghost small" aria-describedby={textId} title={t('receipt.excludeHint')} onClick={() => void exclude(threadId, memory.id)}>
              {t('receipt.exclude')}
            </button>
          )}
        </div>
      )}
      {memory && outdated && memory.status !== 'trashed' && <OutdatedActions memory={memory} onDone={() => setOutdated(false)} />}
    </li>
  );
}

/** An outdated memory: gone for good (to the trash), no longer true from now, or true until a chosen day. */
function OutdatedActions({ memory, onDone }: { memory: Memory; onDone(): void }) {
  const t = useT();
  const trashOne = useMemoryRefsStore((s) => s.trashOne);
  const expireAt = useMemoryRefsStore((s) => s.expireAt);
  const [date, setDate] = useState(toDateInput(Date.now() + 7 * 86_400_000));
  const run = async (call: () => Promise<Result<unknown>>, done: MessageKey) => {
    const result = await call();
    if (!result.ok) return useAppStore.getState().showError(result.error);
    useAppStore.getState().pushToast({ text: { key: done } });
    onDone();
  };
  const day = localDayStart(date);
  return (
    <div className="outdated-actions" role="group" aria-label={t('receipt.outdatedLabel')}>
      <button type="button" className="small danger" onClick={() => void run(() => trashOne(memory.id), 'receipt.deletedToast')}>
        {t('receipt.delete')}
      </button>
      <button type="button" className="small" onClick={() => void run(() => expireAt(memory.id, Date.now()), 'receipt.expiredToast')}>
        {t('receipt.expireNow')}
      </button>
      <InlineField label={t('receipt.validUntil')} className="small">
        {(id) => <DayField id={id} value={date} onChange={setDate} />}
      </InlineField>
      <button
        type="button"
        className="small"
        disabled={day === undefined}
        onClick={() => day !== undefined && void run(() => expireAt(memory.id, nextLocalDay(day) - 1), 'receipt.expirySetToast')}
      >
        {t('receipt.setExpiry')}
      </button>
    </div>
  );
}
