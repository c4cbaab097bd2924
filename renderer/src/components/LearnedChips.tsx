/** Under a user message: what Mnemo learned from it (or is waiting to have approved), each a way into the memory browser. */
import type { Memory } from '../../../shared/contract';
import { useMemoryRefsStore } from '../stores/memory-refs.store';
import { showMemory } from '../stores/navigate';
import { useT } from '../use-t';
import { MemoryIcon } from './icons';

const NONE: Memory[] = [];

export function LearnedChips({ messageId }: { messageId: number }) {
  const t = useT();
  const learned = useMemoryRefsStore((s) => s.learned[messageId] ?? NONE);
  if (learned.length === 0) return null;
  return (
    <ul className="learned-chips" aria-label={t('learned.label')}>
      {learned.map((m) => (
        <li key={m.id}>
          <button
            type="button"
            className={m.status === 'review' ? 'learned-chip review' : 'learned-chip'}
            onClick={() => showMemory(m.id)}
            title={m.status === 'review' ? t('learned.reviewHint') : t('learned.hint')}
          >
            <MemoryIcon /> <span className="learned-prefix">{m.status === 'review' ? t('learned.review') : t('learned.learned')}</span>{' '}
            <span className="learned-text">{m.content}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
