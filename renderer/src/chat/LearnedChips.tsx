/**
 * Under a user message: what Mnemo learned from it (or is waiting to have approved), each a way into the memory browser.
 * A memory a later message replaced (superseded: "lives in Lisbon" after "I live in Hangzhou") keeps its chip and says
 * what replaced it, with a way to that memory too; its history says the same (VersionHistory.tsx).
 */
import { useEffect } from 'react';
import type { Memory } from '../../../shared/contract';
import { useMemoryRefsStore } from './memory-refs.store';
import { showMemory } from '../app/navigate';
import { useT } from '../i18n/use-t';
import { MemoryIcon } from '../ui/icons';

const NONE: Memory[] = [];

export function LearnedChips({ messageId }: { messageId: number }) {
  const t = useT();
  const learned = useMemoryRefsStore((s) => s.learned[messageId] ?? NONE);
  if (learned.length === 0) return null;
  return (
    <ul className="learned-chips" aria-label={t('learned.label')}>
      {learned.map((m) => (
        <li key={m.id} className={m.status === 'superseded' ? 'learned-replaced' : undefined}>
          <button
            type="button"
            className={`learned-chip ${m.status === 'review' ? 'review' : m.status === 'superseded' ? 'superseded' : ''}`}
            onClick={() => showMemory(m.id)}
            title={m.status === 'review' ? t('learned.reviewHint') : m.status === 'superseded' ? t('learned.supersededHint') : t('learned.hint')}
          >
            <MemoryIcon /> <span className="learned-prefix">{m.status === 'review' ? t('learned.review') : t('learned.learned')}</span>{' '}
            <span className="learned-text">{m.content}</span>
          </button>
          {m.status === 'superseded' && <ReplacedBy memoryId={m.supersededBy} />}
        </li>
      ))}
    </ul>
  );
}

/** "replaced by: …", a button to the memory that replaced it; its text is asked once per screen (memory-refs.store.ts). */
function ReplacedBy({ memoryId }: { memoryId: number | null }) {
  const t = useT();
  const want = useMemoryRefsStore((s) => s.want);
  const successor = useMemoryRefsStore((s) => (memoryId === null ? null : s.byId[memoryId]));
  useEffect(() => {
    if (memoryId !== null) want([memoryId]);
  }, [memoryId, want]);
  // Purged since (or never known): said, with nothing to open.
  if (memoryId === null || successor === null) return <span className="learned-chip superseded">{t('learned.replacedGone')}</span>;
  return (
    <button type="button" className="learned-chip" onClick={() => showMemory(memoryId)} title={t('learned.replacedByHint')}>
      <span className="learned-prefix">{t('learned.replacedBy')}</span> <span className="learned-text">{successor?.content ?? '…'}</span>
    </button>
  );
}
