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

/**
 * The memory a key pressed on a list row acts on (Del, Space): the one that row shows, found by its id and never by
 * its place, since rows move under the focus whenever the list is read again (a memory learned meanwhile pushes them
 * down). And only while the rows held answer the tab shown: right after a switch the old tab's rows stay on screen
 * until the new ones arrive. Otherwise none: a key acts on the row the user sees focused, or on nothing.
 */
export function rowTarget<T extends { id: number }>(pages: Readonly<Record<number, readonly T[]>>, rowId: number | null, rowsFor: string | null, tab: string): T | null {
  if (rowId === null || rowsFor !== tab) return null;
  for (const items of Object.values(pages)) {
    const found = items.find((m) => m.id === rowId);
    if (found) return found;
  }
  return null;
}
