/**
 * The memory browser never holds the whole result: it holds pages (fixed size, by offset) around what is on screen.
 * Pure helpers: which pages a range of rows needs, which to forget when too many are held, and row ranges for
 * shift-click selection.
 */
export const PAGE_SIZE = 100;
/** Pages kept in memory at most (4,000 rows): scrolling far away forgets the pages farthest from the view. */
export const MAX_PAGES = 40;
/** memory.bulk takes at most this many ids at once. */
export const MAX_BULK = 10_000;

/** Page indexes covering rows [start, end] (inclusive), limited to rows that exist. */
export function pagesFor(start: number, end: number, total: number, pageSize = PAGE_SIZE): number[] {
  if (total <= 0 || end < start) return [];
  const first = Math.max(0, Math.floor(start / pageSize));
  const last = Math.min(Math.floor((total - 1) / pageSize), Math.floor(Math.max(start, end) / pageSize));
  const pages: number[] = [];
  for (let p = first; p <= last; p++) pages.push(p);
  return pages;
}

/** The loaded pages to forget so at most `max` remain, farthest from `focusPage` first. */
export function pagesToEvict(loaded: number[], focusPage: number, max = MAX_PAGES): number[] {
  if (loaded.length <= max) return [];
  return [...loaded].sort((a, b) => Math.abs(b - focusPage) - Math.abs(a - focusPage) || b - a).slice(0, loaded.length - max);
}

/** The rows between two clicked rows, both included, in either order. */
export function rowRange(anchor: number, index: number): { start: number; end: number } {
  return anchor <= index ? { start: anchor, end: index } : { start: index, end: anchor };
}

export function rowAt<T>(pages: Readonly<Record<number, readonly T[]>>, index: number, pageSize = PAGE_SIZE): T | undefined {
  return pages[Math.floor(index / pageSize)]?.[index % pageSize];
}
