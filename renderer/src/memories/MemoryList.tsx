/**
 * The virtualized list: only the rows on screen exist in the page (there may be 100,000), pages are asked for as
 * they scroll into view. Keyboard: arrows move, Shift+arrows extend the selection, Space selects, Enter opens,
 * Ctrl/Cmd+A selects all, Delete moves the selection to the trash, Esc clears it.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type MutableRefObject } from 'react';
import type { Memory } from '../../../shared/contract';
import { rowAt, rowTarget } from './memory-pages';
import { useMemoriesStore } from './memories.store';
import { useMemoryDetailStore } from './memory-detail.store';
import { useT } from '../i18n/use-t';
import { isMod } from '../app/shortcuts';
import { MemoryRow, ROW_HEIGHT } from './MemoryRow';

/** Where the keyboard focus goes once a Delete's rows have left the list: the first of `then` still listed (the rows
 * that followed the deleted one, then those above it, nearest first), else the row now at `index`; the owner focuses
 * the empty list when no row is left. By id, not place: other rows may come or go in the same reload. */
export interface FocusAfterDelete {
  index: number;
  gone: ReadonlySet<number>;
  then: number[];
}

export function MemoryList({ label, afterDelete }: { label: string; afterDelete: MutableRefObject<FocusAfterDelete | null> }) {
  const t = useT();
  const hintId = useId();
  const total = useMemoriesStore((s) => s.total) ?? 0;
  const pages = useMemoriesStore((s) => s.pages);
  const scores = useMemoriesStore((s) => s.scores);
  const selected = useMemoriesStore((s) => s.selected);
  const resetCount = useMemoriesStore((s) => s.resetCount);
  const tab = useMemoriesStore((s) => s.tab);
  const rowsTab = useMemoriesStore((s) => s.rowsTab);
  const showRows = useMemoriesStore((s) => s.showRows);
  const toggle = useMemoriesStore((s) => s.toggle);
  const selectRange = useMemoriesStore((s) => s.selectRange);
  const selectAll = useMemoriesStore((s) => s.selectAll);
  const clearSelection = useMemoriesStore((s) => s.clearSelection);
  const bulk = useMemoriesStore((s) => s.bulk);
  const detailId = useMemoryDetailStore((s) => s.memoryId);
  const openDetail = useMemoryDetailStore((s) => s.open);
  const scroller = useRef<HTMLDivElement>(null);
  const [focusIndex, setFocusIndex] = useState(0);
  const wantFocus = useRef<number | null>(null);

  const virtualizer = useVirtualizer({ count: total, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 5 });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    if (last >= first) showRows(first, last);
  }, [first, last, total, pages, showRows]);

  // A new result (another search, filter or sort) starts at its top.
  useEffect(() => {
    if (scroller.current) scroller.current.scrollTop = 0;
    setFocusIndex(0);
  }, [resetCount]);

  // The focused row keeps the list's tab stop when the rows move under it (the list was read again).
  useLayoutEffect(() => {
    const row = document.activeElement?.closest<HTMLElement>('[data-row-index]');
    if (row && scroller.current?.contains(row)) setFocusIndex(Number(row.dataset.rowIndex));
  }, [pages, total]);

  // Keyboard focus follows the focused row once it is rendered (it may first have to scroll into existence).
  useLayoutEffect(() => {
    if (wantFocus.current === null) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-row-index="${wantFocus.current}"] .memory-row-main`);
    if (el) {
      el.focus();
      wantFocus.current = null;
    }
  });

  // After a Delete: wait until the list has been read again (the row at the place is none of the deleted ones), then
  // focus it. The deleted row's button leaves the page with the reload and takes the focus with it; if the user has
  // put the focus somewhere else meanwhile, it stays there.
  useLayoutEffect(() => {
    const after = afterDelete.current;
    if (!after || total === 0) return;
    const active = document.activeElement;
    if (active && active !== document.body && !scroller.current?.contains(active)) {
      afterDelete.current = null;
      return;
    }
    const rows = [...(scroller.current?.querySelectorAll<HTMLElement>('[data-memory-id]') ?? [])];
    const listed = new Map(rows.map((row) => [Number(row.dataset.memoryId), row]));
    if ([...after.gone].some((id) => listed.has(id))) return; // not read again yet
    const row = after.then.map((id) => listed.get(id)).find(Boolean) ?? scroller.current?.querySelector<HTMLElement>(`[data-row-index="${Math.min(after.index, total - 1)}"][data-memory-id]`);
    if (!row) return;
    afterDelete.current = null;
    setFocusIndex(Number(row.dataset.rowIndex));
    row.querySelector<HTMLElement>('.memory-row-main')?.focus();
  });

  const focusRow = useCallback(
    (index: number) => {
      const next = Math.max(0, Math.min(total - 1, index));
      setFocusIndex(next);
      wantFocus.current = next;
      virtualizer.scrollToIndex(next, { align: 'auto' });
    },
    [total, virtualizer],
  );

  const onCheck = useCallback(
    (index: number, memory: Memory, shift: boolean) => {
      setFocusIndex(index);
      if (shift) void selectRange(index);
      else toggle(memory.id, index);
    },
    [selectRange, toggle],
  );

  const onOpen = useCallback(
    (index: number, memory: Memory, e: MouseEvent) => {
      setFocusIndex(index);
      if (e.shiftKey) return void selectRange(index);
      if (e.ctrlKey || e.metaKey) return toggle(memory.id, index);
      useMemoriesStore.setState({ anchor: index });
      openDetail(memory.id);
    },
    [openDetail, selectRange, toggle],
  );

  const onKeyDown = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (total === 0 || !target.classList.contains('memory-row-main')) return;
    // Keys act on the row that has the focus as it is now, read from the row itself: the index kept in state may be
    // stale for a moment (rows move when the list is read again; after a switch the old tab's rows are still shown).
    const row = target.closest<HTMLElement>('[data-row-index]');
    const at = row ? Number(row.dataset.rowIndex) : focusIndex;
    const rowId = row?.dataset.memoryId ? Number(row.dataset.memoryId) : null;
    const pageRows = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW_HEIGHT * 10) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: pageRows, PageUp: -pageRows, Home: -total, End: total };
    const move = moves[e.key];
    if (move !== undefined) {
      e.preventDefault();
      const next = Math.max(0, Math.min(total - 1, at + move));
      if (e.shiftKey) {
        if (useMemoriesStore.getState().anchor === null) useMemoriesStore.setState({ anchor: at });
        void selectRange(next);
      }
      focusRow(next);
      return;
    }
    const memory = rowTarget(pages, rowId, rowsTab, tab);
    if (e.key === ' ' && memory) {
      e.preventDefault();
      toggle(memory.id, at);
    } else if (isMod(e.nativeEvent) && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      void selectAll();
    } else if (e.key === 'Escape' && selected.size > 0) {
      e.preventDefault();
      clearSelection();
    } else if (e.key === 'Delete' && tab === 'browse' && rowsTab === tab) {
      e.preventDefault();
      const gone = selected.size === 0 && memory ? new Set([memory.id]) : new Set(selected);
      if (selected.size === 0 && memory) toggle(memory.id, at);
      const listed = [...(scroller.current?.querySelectorAll<HTMLElement>('[data-memory-id]') ?? [])]
        .map((el) => ({ index: Number(el.dataset.rowIndex), id: Number(el.dataset.memoryId) }))
        .filter((r) => !gone.has(r.id));
      const below = listed.filter((r) => r.index > at).sort((a, b) => a.index - b.index);
      const above = listed.filter((r) => r.index < at).sort((a, b) => b.index - a.index);
      afterDelete.current = { index: at, gone, then: [...below, ...above].map((r) => r.id) };
      void bulk('delete');
    }
  };

  return (
    <>
      <div ref={scroller} className="memory-scroll">
        <div role="list" aria-label={label} aria-describedby={hintId} className="memory-list" style={{ height: virtualizer.getTotalSize() }} onKeyDown={onKeyDown}>
          {items.map((item) => {
            const memory = rowAt(pages, item.index);
            return (
              <MemoryRow
                key={memory ? `m${memory.id}` : `i${item.index}`}
                index={item.index}
                total={total}
                memory={memory}
                selected={memory ? selected.has(memory.id) : false}
                current={memory ? memory.id === detailId : false}
                focusable={item.index === Math.min(focusIndex, total - 1)}
                score={memory ? scores[memory.id] : undefined}
                top={item.start}
                onCheck={onCheck}
                onOpen={onOpen}
                onFocusRow={setFocusIndex}
              />
            );
          })}
        </div>
      </div>
      <p id={hintId} className="list-hint muted small">
        {t('memories.keyboardHint')}
      </p>
    </>
  );
}
