/** One row of the memory list: a checkbox to select it and a button that opens it in the detail pane. */
import { memo, type MouseEvent } from 'react';
import type { Memory, MemoryReason } from '../../../shared/contract';
import { formatNumber, formatRelativeTime } from '../format/format';
import { useLanguage, useT } from '../i18n/use-t';
import { PinIcon } from '../ui/icons';
import { importanceText } from './memory-draft';

export const ROW_HEIGHT = 60;

interface Props {
  index: number;
  total: number;
  memory: Memory | undefined;
  selected: boolean;
  current: boolean;
  focusable: boolean;
  score: { score: number; reason: MemoryReason } | undefined;
  top: number;
  onCheck(index: number, memory: Memory, shift: boolean): void;
  onOpen(index: number, memory: Memory, e: MouseEvent): void;
  onFocusRow(index: number): void;
}

export const MemoryRow = memo(function MemoryRow({ index, total, memory, selected, current, focusable, score, top, onCheck, onOpen, onFocusRow }: Props) {
  const t = useT();
  const language = useLanguage();
  const style = { transform: `translateY(${top}px)`, height: ROW_HEIGHT };
  if (!memory) {
    return (
      <div role="listitem" aria-posinset={index + 1} aria-setsize={total} aria-busy="true" className="memory-row placeholder" style={style} data-row-index={index}>
        <span className="skeleton" aria-hidden="true" />
        <span className="visually-hidden">{t('common.loading')}</span>
      </div>
    );
  }
  const importance = importanceText(memory.importance, t, language);
  const className = ['memory-row', selected ? 'selected' : '', current ? 'current' : '', memory.status !== 'active' ? `status-${memory.status}` : ''].filter(Boolean).join(' ');
  return (
    <div role="listitem" aria-posinset={index + 1} aria-setsize={total} className={className} style={style} data-row-index={index} data-memory-id={memory.id}>
      <input
        type="checkbox"
        className="row-check"
        tabIndex={-1}
        checked={selected}
        aria-label={t('memories.selectOne', { content: memory.content.slice(0, 80) })}
        // The click (not the change) carries the Shift key; the checked state always comes from the store.
        onClick={(e) => onCheck(index, memory, e.shiftKey)}
        onChange={() => undefined}
      />
      <button type="button" className="memory-row-main" tabIndex={focusable ? 0 : -1} aria-current={current ? 'true' : undefined} onFocus={() => onFocusRow(index)} onClick={(e) => onOpen(index, memory, e)}>
        <span className="memory-row-content">
          {memory.pinned && (
            <span className="pin" title={t('memories.pinned')}>
              <PinIcon filled />
              <span className="visually-hidden">{t('memories.pinned')}</span>
            </span>
          )}
          <span className="memory-row-text">{memory.content}</span>
        </span>
        <span className="memory-row-meta">
          <span className={`cat cat-${memory.category}`}>{t(`category.${memory.category}`)}</span>
          <span title={`${t('memories.importance')} ${importance.exact}`}>
            <span className="importance-bar" aria-hidden="true">
              <span style={{ width: `${Math.round(memory.importance * 100)}%` }} />
            </span>
            <span className="visually-hidden">{t('memories.importance')} </span>
            {importance.word}
          </span>
          <span>{formatRelativeTime(memory.createdAt, Date.now(), language)}</span>
          {memory.accessCount > 0 && <span>{t('memories.usedTimes', { count: memory.accessCount })}</span>}
          {memory.status !== 'active' && <span className={`badge status-badge ${memory.status}`}>{t(`status.memory.${memory.status}`)}</span>}
          {memory.expired && <span className="badge warn">{t('memories.expired')}</span>}
          {score && (
            <span className={`reason reason-${score.reason}`}>
              {t(`receipt.reason.${score.reason}`)} · {formatNumber(score.score, language, 2)}
            </span>
          )}
        </span>
      </button>
    </div>
  );
});
