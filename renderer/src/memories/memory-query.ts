/**
 * What the memory browser's search box, filters and sort ask for, and how that becomes a memory.list or
 * memory.search input. Dates are the user's local days: "from" is the start of that day, "to" includes the whole day.
 * Local days: format/local-day.ts.
 */
import type { MemoryCategory, MemoryStatus, OpInput } from '../../../shared/contract';
import { localDayStart, nextLocalDay } from '../format/local-day';

export type StatusFilter = MemoryStatus | 'all';
export type SortChoice = 'relevance' | 'importance' | 'created' | 'lastUsed' | 'accessCount';
export type PinnedFilter = 'any' | 'pinned' | 'unpinned';

export interface MemoryQuery {
  text: string;
  /** Empty: every category. */
  categories: MemoryCategory[];
  status: StatusFilter;
  pinned: PinnedFilter;
  /** yyyy-mm-dd, '' or text still being typed (DayField): only a real day filters. */
  createdFrom: string;
  createdTo: string;
  sourceThreadId: number | null;
  /** The order without a search; with a search, relevance unless the user picks another. */
  sort: Exclude<SortChoice, 'relevance'>;
  /** With a search text: best matches first (memory.search), else the chosen sort over every match (memory.list). */
  byRelevance: boolean;
}

export const defaultQuery: MemoryQuery = {
  text: '',
  categories: [],
  status: 'active',
  pinned: 'any',
  createdFrom: '',
  createdTo: '',
  sourceThreadId: null,
  sort: 'created',
  byRelevance: true,
};

export const ALL_STATUSES: MemoryStatus[] = ['active', 'archived', 'review', 'superseded', 'rejected', 'trashed'];
export const CATEGORIES: MemoryCategory[] = ['knowledge', 'preference', 'project', 'skill'];
/** memory.search answers with at most this many best matches (no paging). */
export const SEARCH_LIMIT = 100;

export function isSearch(query: MemoryQuery): boolean {
  return query.text.trim() !== '' && query.byRelevance;
}

export function effectiveSort(query: MemoryQuery): SortChoice {
  return isSearch(query) ? 'relevance' : query.sort;
}

type Filters = Omit<OpInput<'memory.list'>, 'query' | 'sort' | 'limit' | 'offset'>;

export function filtersOf(query: MemoryQuery, statusOverride?: MemoryStatus[]): Filters {
  const filters: Filters = { statuses: statusOverride ?? (query.status === 'all' ? ALL_STATUSES : [query.status]) };
  if (query.categories.length > 0 && query.categories.length < CATEGORIES.length) filters.categories = query.categories;
  if (query.pinned !== 'any') filters.pinned = query.pinned === 'pinned';
  const from = localDayStart(query.createdFrom);
  const toDay = localDayStart(query.createdTo);
  if (from !== undefined) filters.createdFrom = from;
  if (toDay !== undefined) filters.createdTo = nextLocalDay(toDay);
  if (query.sourceThreadId !== null) filters.sourceThreadId = query.sourceThreadId;
  return filters;
}

export function listInput(query: MemoryQuery, offset: number, limit: number, statusOverride?: MemoryStatus[]): OpInput<'memory.list'> {
  const text = query.text.trim();
  return { ...filtersOf(query, statusOverride), ...(text ? { query: text.slice(0, 500) } : {}), sort: query.sort, offset, limit };
}

export function searchInput(query: MemoryQuery, statusOverride?: MemoryStatus[]): OpInput<'memory.search'> {
  return { ...filtersOf(query, statusOverride), query: query.text.trim().slice(0, 500), limit: SEARCH_LIMIT };
}

/** How many filters differ from the defaults (shown on the Filters button). */
export function activeFilterCount(query: MemoryQuery): number {
  let n = 0;
  if (query.categories.length > 0 && query.categories.length < CATEGORIES.length) n++;
  if (query.status !== 'active') n++;
  if (query.pinned !== 'any') n++;
  if (query.createdFrom || query.createdTo) n++;
  if (query.sourceThreadId !== null) n++;
  return n;
}

/**
 * The status whose count (memory.stats, on the tab) must equal the total of this list, or null when a search or a
 * filter makes the list a part of it. A list answer that disagrees means the store changed without an event reaching
 * this page (the CLI writes to the same database): the counts are read again.
 */
export function countedStatus(query: MemoryQuery, trash: boolean): 'active' | 'trashed' | null {
  const filters = filtersOf(query, trash ? ['trashed'] : undefined);
  if (query.text.trim() !== '' || Object.keys(filters).length !== 1 || filters.statuses?.length !== 1) return null;
  const status = filters.statuses[0];
  return status === 'active' || status === 'trashed' ? status : null;
}
