/**
 * Under an answer: which long-term memories it used and why (pinned, semantic, keyword, recency), with the score.
 * The memory phase adds each memory's text and quick actions (wrong, outdated, not in this thread).
 */
import type { MemoryUse } from '../stores/chat-merge';
import { formatNumber } from '../format';
import { useLanguage, useT } from '../use-t';
import { MemoryIcon } from './icons';

const REASONS = ['pinned', 'semantic', 'keyword', 'recency'] as const;

export function MemoryReceipt({ memories }: { memories: MemoryUse[] }) {
  const t = useT();
  const language = useLanguage();
  const counts = REASONS.map((reason) => ({ reason, count: memories.filter((m) => m.reason === reason).length })).filter((c) => c.count > 0);
  return (
    <details className="receipt">
      <summary>
        <MemoryIcon /> {t('receipt.summary', { count: memories.length })}
        <span className="receipt-reasons">
          {counts.map(({ reason, count }) => (
            <span key={reason} className={`reason reason-${reason}`}>
              {t(`receipt.reason.${reason}`)} × {count}
            </span>
          ))}
        </span>
      </summary>
      <ul className="receipt-list">
        {memories.map((m) => (
          <li key={m.memoryId}>
            <span className="receipt-id">{t('receipt.memory', { id: m.memoryId })}</span>
            <span className={`reason reason-${m.reason}`}>{t(`receipt.reason.${m.reason}`)}</span>
            <span className="muted">{t('receipt.score', { score: formatNumber(m.score, language, 2) })}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}
