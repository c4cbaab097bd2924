/**
 * The memory browser: what is asked (search text, filters, sort, tab), the answer a page at a time around what is on
 * screen (never the whole result: there may be 100,000 memories), the selection and bulk actions, and the counts from
 * memory.stats. Kept live by memory events: an edited memory is patched in place; anything that may add, remove or
 * reorder rows re-reads the pages on screen.
 */
import { create } from 'zustand';
import type { Memory, MemoryCategory, MemoryReason, MemoryStatus, OpInput, OpOutput, PurgedDerived, RemainingCopy } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { ErrorInfo, Result } from '../../../shared/errors';
import { notConnected } from '../app/not-connected';
import { MAX_BULK, PAGE_SIZE, pagesFor, pagesToEvict, rowAt } from './memory-pages';
import { countedStatus, defaultQuery, filtersOf, isSearch, listInput, searchInput, type MemoryQuery } from './memory-query';
import { throttleTrailing } from './throttle';
import { useAppStore } from '../app/app.store';
import { announcePurge } from './purge-notice';

export type MemoryTab = 'browse' | 'review' | 'trash' | 'about' | 'episodes' | 'active';
export type BulkAction = 'delete' | 'archive' | 'unarchive' | 'pin' | 'unpin' | 'recategorize';
export type MemoryStats = OpOutput<'memory.stats'>;

/** Search as you type: at most one search per this interval while keys keep coming (see throttle.ts). */
export const SEARCH_INTERVAL_MS = 150;
/** Bursts of events (an import, a bulk action seen from another window) are read once. */
const REFRESH_DELAY_MS = 150;
const TRASH: MemoryStatus[] = ['trashed'];

interface MemoriesState {
  client: Client | null;
  tab: MemoryTab;
  query: MemoryQuery;
  /** Bumped for every new question; answers to an older one are dropped. */
  generation: number;
  /** Bumped when the answer is a different result (not a live refresh of the same one): the list goes back to the top. */
  resetCount: number;
  /** Null until the first answer. */
  total: number | null;
  pages: Record<number, Memory[]>;
  /** The tab the pages answer (after a switch, the old tab's rows stay on screen until the new answer). */
  rowsTab: MemoryTab | null;
  /** With a search: each hit's score and why it matched. */
  scores: Record<number, { score: number; reason: MemoryReason }>;
  searchMode: 'hybrid' | 'keyword' | null;
  loading: boolean;
  error: ErrorInfo | null;
  selected: ReadonlySet<number>;
  /** The row a shift-click extends from. */
  anchor: number | null;
  stats: MemoryStats | null;
  init(client: Client): void;
  /** The view is shown: read again if anything changed while it was hidden. */
  enter(): void;
  setTab(tab: MemoryTab): void;
  setText(text: string): void;
  setQuery(patch: Partial<MemoryQuery>): void;
  resetQuery(): void;
  reset(): Promise<void>;
  refresh(): Promise<void>;
  /** The rows on screen changed: load the pages they need. */
  showRows(start: number, end: number): void;
  loadStats(): Promise<void>;
  toggle(id: number, index: number): void;
  selectRange(index: number): Promise<void>;
  selectAll(): Promise<boolean>;
  clearSelection(): void;
  bulk(action: BulkAction, category?: MemoryCategory): Promise<void>;
  /**
   * Moves memories to the trash and says so with Undo (which brings them back): the one way the list's Delete, the
   * bulk bar and the editor's "Move to trash" trash a memory. False when the core refused (said as an error).
   */
  trash(ids: number[]): Promise<boolean>;
  restoreSelected(): Promise<void>;
  purgeSelected(): Promise<void>;
  emptyTrash(): Promise<void>;
  /** A memory added by hand (memory.create); the memory.created event shows it. */
  create(input: OpInput<'memory.create'>): Promise<Result<Memory>>;
}

export const useMemoriesStore = create<MemoriesState>((set, get) => {
  const inflight = new Set<string>();
  let visible = { start: 0, end: 0 };
  /** A reset is on its way: the old rows stay on screen (no flash of placeholders) and nothing else is fetched. */
  let resetting = false;
  let stale = true;
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  let statsTimer: ReturnType<typeof setTimeout> | null = null;
  const search = throttleTrailing<void>(SEARCH_INTERVAL_MS, () => void get().reset());

  const statusOverride = () => (get().tab === 'trash' ? TRASH : undefined);
  const shown = () => useAppStore.getState().view === 'memories';

  function scheduleRefresh(): void {
    if (!shown()) {
      stale = true;
      return;
    }
    if (refreshTimer) clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      void get().refresh();
    }, REFRESH_DELAY_MS);
  }

  function scheduleStats(): void {
    if (statsTimer) clearTimeout(statsTimer);
    statsTimer = setTimeout(() => {
      statsTimer = null;
      void get().loadStats();
    }, REFRESH_DELAY_MS);
  }

  /** A list total that disagrees with the tab's count: something changed that no event told this page about. */
  function checkCounts(total: number): void {
    const status = countedStatus(get().query, get().tab === 'trash');
    const stats = get().stats;
    if (status !== null && stats !== null && stats.byStatus[status] !== total) scheduleStats();
  }

  /** Whether a memory still belongs in the answer shown (else the rows are read again). */
  function matches(memory: Memory): boolean {
    const filters = filtersOf(get().query, statusOverride());
    if (filters.statuses && !filters.statuses.includes(memory.status)) return false;
    if (filters.categories && !filters.categories.includes(memory.category)) return false;
    if (filters.pinned !== undefined && filters.pinned !== memory.pinned) return false;
    return true;
  }

  function patchMemory(memory: Memory): boolean {
    let found = false;
    const pages = { ...get().pages };
    for (const [key, items] of Object.entries(pages)) {
      const i = items.findIndex((m) => m.id === memory.id);
      if (i < 0) continue;
      found = true;
      const next = items.slice();
      next[i] = memory;
      pages[Number(key)] = next;
    }
    if (found) set({ pages });
    return found;
  }

  async function fetchPage(page: number, generation: number): Promise<{ items: Memory[]; total: number } | null> {
    const client = get().client;
    const key = `${generation}:${page}`;
    if (!client || inflight.has(key)) return null;
    inflight.add(key);
    const result = await client.call('memory.list', listInput(get().query, page * PAGE_SIZE, PAGE_SIZE, statusOverride()));
    inflight.delete(key);
    if (generation !== get().generation) return null;
    if (!result.ok) {
      set({ error: result.error, loading: false });
      return null;
    }
    return result.value;
  }

  function storePage(page: number, answer: { items: Memory[]; total: number }): void {
    set((s) => {
      const pages = { ...s.pages, [page]: answer.items };
      for (const p of pagesToEvict(Object.keys(pages).map(Number), Math.floor(visible.start / PAGE_SIZE))) delete pages[p];
      return { pages, total: answer.total };
    });
    checkCounts(answer.total);
  }

  /** Ids of rows [start, end], from the pages held or read in large pages for the purpose (not kept). */
  async function idsOf(start: number, end: number): Promise<number[] | null> {
    const client = get().client;
    if (!client) return null;
    const ids: number[] = [];
    let i = start;
    while (i <= end) {
      const held = rowAt(get().pages, i);
      if (held) {
        ids.push(held.id);
        i++;
        continue;
      }
      const limit = Math.min(500, end - i + 1);
      const result = await client.call('memory.list', listInput(get().query, i, limit, statusOverride()));
      if (!result.ok) {
        useAppStore.getState().showError(result.error);
        return null;
      }
      if (result.value.items.length === 0) break;
      ids.push(...result.value.items.map((m) => m.id));
      i += result.value.items.length;
    }
    return ids;
  }

  function announce(key: 'memories.bulk.done' | 'memories.bulk.doneSkipped' | 'memories.bulk.trashed' | 'memories.bulk.trashedSkipped', changed: number, skipped: number, undo?: () => void): void {
    useAppStore.getState().pushToast({
      text: { key, params: { count: changed, skipped } },
      ...(undo ? { action: { label: 'common.undo' as const, run: undo } } : {}),
    });
  }

  /** restore or purge many, one memory.bulk transaction per MAX_BULK ids; how many changed (and, for a purge, the
   * backups that could not be changed). */
  async function bulkAll(action: 'restore' | 'purge', ids: number[]): Promise<{ changed: number; remaining: RemainingCopy[]; derived: PurgedDerived }> {
    const client = get().client;
    let changed = 0;
    const remaining: RemainingCopy[] = [];
    const derived = { summaries: 0, profileLines: 0 };
    if (!client) return { changed, remaining, derived };
    for (let i = 0; i < ids.length; i += MAX_BULK) {
      const result = await client.call('memory.bulk', { action, memoryIds: ids.slice(i, i + MAX_BULK) });
      if (!result.ok) {
        useAppStore.getState().showError(result.error);
        break;
      }
      changed += result.value.changed;
      remaining.push(...(result.value.backups?.remaining ?? []));
      derived.summaries += result.value.derived?.summaries ?? 0;
      derived.profileLines += result.value.derived?.profileLines ?? 0;
    }
    return { changed, remaining, derived };
  }

  return {
    client: null,
    tab: 'browse',
    query: defaultQuery,
    generation: 0,
    resetCount: 0,
    total: null,
    pages: {},
    rowsTab: null,
    scores: {},
    searchMode: null,
    loading: false,
    error: null,
    selected: new Set(),
    anchor: null,
    stats: null,

    init(client) {
      set({ client });
      client.on('memory.updated', ({ memory }) => {
        if (!patchMemory(memory) || !matches(memory)) scheduleRefresh();
        scheduleStats();
      });
      for (const event of ['memory.created', 'memory.deleted', 'memory.restored', 'memory.imported'] as const) {
        client.on(event, () => {
          scheduleRefresh();
          scheduleStats();
        });
      }
      client.on('memory.purged', ({ memoryIds }) => {
        const gone = new Set(memoryIds);
        set((s) => ({ selected: new Set([...s.selected].filter((id) => !gone.has(id))) }));
        scheduleRefresh();
        scheduleStats();
      });
      client.on('embedding.statusChanged', () => scheduleStats());
      client.on('embedding.reindexProgressed', () => scheduleStats());
    },

    enter() {
      if (stale || get().total === null) {
        stale = false;
        void get().reset();
      }
      void get().loadStats();
    },

    setTab(tab) {
      if (tab === get().tab) return;
      set({ tab, selected: new Set(), anchor: null });
      if (tab === 'browse' || tab === 'trash') void get().reset();
    },

    setText(text) {
      // A new search starts with the best matches first, whatever order the list had before.
      set((s) => ({ query: { ...s.query, text, byRelevance: s.query.text.trim() === '' ? true : s.query.byRelevance } }));
      search();
    },

    setQuery(patch) {
      search.cancel();
      set((s) => ({ query: { ...s.query, ...patch }, selected: new Set(), anchor: null }));
      void get().reset();
    },

    resetQuery() {
      search.cancel();
      set({ query: defaultQuery, selected: new Set(), anchor: null });
      void get().reset();
    },

    async reset() {
      const client = get().client;
      if (!client) return;
      const generation = get().generation + 1;
      resetting = true;
      stale = false;
      const tab = get().tab;
      set({ generation, loading: true, error: null });
      const query = get().query;
      if (isSearch(query)) {
        const result = await client.call('memory.search', searchInput(query, statusOverride()));
        if (generation !== get().generation) return;
        resetting = false;
        if (!result.ok) return set({ loading: false, error: result.error });
        const scores: MemoriesState['scores'] = {};
        for (const hit of result.value.hits) scores[hit.memory.id] = { score: hit.score, reason: hit.reason };
        set((s) => ({
          pages: { 0: result.value.hits.map((h) => h.memory) },
          rowsTab: tab,
          total: result.value.hits.length,
          scores,
          searchMode: result.value.mode,
          loading: false,
          resetCount: s.resetCount + 1,
        }));
        return;
      }
      const answer = await fetchPage(0, generation);
      if (generation !== get().generation) return;
      resetting = false;
      if (!answer) return;
      visible = { start: 0, end: 0 };
      set((s) => ({ pages: { 0: answer.items }, rowsTab: tab, total: answer.total, scores: {}, searchMode: null, loading: false, resetCount: s.resetCount + 1 }));
      checkCounts(answer.total);
    },

    async refresh() {
      if (get().client === null || resetting || get().total === null) return;
      if (isSearch(get().query)) {
        // Same question, fresh answer; without scrolling back (the result of a search is one short page).
        const before = get().resetCount;
        await get().reset();
        set({ resetCount: before });
        return;
      }
      const generation = get().generation + 1;
      set({ generation });
      const total = get().total ?? 0;
      const wanted = pagesFor(visible.start, visible.end, Math.max(total, 1));
      const loaded = await Promise.all((wanted.length > 0 ? wanted : [0]).map(async (page) => [page, await fetchPage(page, generation)] as const));
      if (generation !== get().generation) return;
      const pages: Record<number, Memory[]> = {};
      let latest = get().total;
      for (const [page, answer] of loaded) {
        if (!answer) continue;
        pages[page] = answer.items;
        latest = answer.total;
      }
      set({ pages, total: latest, loading: false });
      if (latest !== null) checkCounts(latest);
    },

    showRows(start, end) {
      visible = { start, end };
      if (resetting || isSearch(get().query)) return;
      const { total, pages, generation } = get();
      if (total === null) return;
      for (const page of pagesFor(start, end, total)) {
        if (pages[page]) continue;
        void fetchPage(page, generation).then((answer) => {
          if (answer && generation === get().generation) storePage(page, answer);
        });
      }
    },

    async loadStats() {
      const client = get().client;
      if (!client) return;
      const result = await client.call('memory.stats', {});
      if (result.ok) set({ stats: result.value });
    },

    toggle(id, index) {
      set((s) => {
        const selected = new Set(s.selected);
        if (selected.has(id)) selected.delete(id);
        else selected.add(id);
        return { selected, anchor: index };
      });
    },

    async selectRange(index) {
      const anchor = get().anchor ?? index;
      const start = Math.min(anchor, index);
      const end = Math.max(anchor, index);
      if (end - start + 1 > MAX_BULK) {
        useAppStore.getState().pushToast({ text: { key: 'memories.select.tooMany', params: { max: MAX_BULK } } });
        return;
      }
      const ids = await idsOf(start, end);
      if (!ids) return;
      set((s) => ({ selected: new Set([...s.selected, ...ids]) }));
    },

    async selectAll() {
      const total = get().total ?? 0;
      if (total > MAX_BULK) {
        useAppStore.getState().pushToast({ text: { key: 'memories.select.tooMany', params: { max: MAX_BULK } } });
        return false;
      }
      const ids = await idsOf(0, total - 1);
      if (!ids) return false;
      set({ selected: new Set(ids), anchor: null });
      return true;
    },

    clearSelection: () => set({ selected: new Set(), anchor: null }),

    async bulk(action, category) {
      const client = get().client;
      const ids = [...get().selected];
      if (!client || ids.length === 0) return;
      if (action === 'delete') {
        if (await get().trash(ids)) set({ selected: new Set(), anchor: null });
        return;
      }
      const result =
        action === 'recategorize'
          ? await client.call('memory.bulk', { action, category: category ?? 'knowledge', memoryIds: ids })
          : await client.call('memory.bulk', { action, memoryIds: ids });
      if (!result.ok) return useAppStore.getState().showError(result.error);
      set({ selected: new Set(), anchor: null });
      const { changed, skipped } = result.value;
      announce(skipped > 0 ? 'memories.bulk.doneSkipped' : 'memories.bulk.done', changed, skipped);
    },

    async trash(ids) {
      const client = get().client;
      if (!client) return false;
      const result = await client.call('memory.bulk', { action: 'delete', memoryIds: ids });
      if (!result.ok) {
        useAppStore.getState().showError(result.error);
        return false;
      }
      const { changed, skipped } = result.value;
      // The trash is the undo of a delete; the button saves a trip there (one transaction, whatever the count).
      const undo = changed > 0 ? () => void bulkAll('restore', ids) : undefined;
      announce(skipped > 0 ? 'memories.bulk.trashedSkipped' : 'memories.bulk.trashed', changed, skipped, undo);
      return true;
    },

    async restoreSelected() {
      const ids = [...get().selected];
      if (ids.length === 0) return;
      set({ selected: new Set(), anchor: null });
      const restored = (await bulkAll('restore', ids)).changed;
      useAppStore.getState().pushToast({ text: { key: 'memories.trash.restored', params: { count: restored } } });
    },

    async purgeSelected() {
      const ids = [...get().selected];
      if (ids.length === 0) return;
      set({ selected: new Set(), anchor: null });
      const { changed, remaining, derived } = await bulkAll('purge', ids);
      announcePurge(changed, remaining, 'memories', derived);
    },

    async create(input) {
      const client = get().client;
      return client ? client.call('memory.create', input) : notConnected;
    },

    async emptyTrash() {
      const client = get().client;
      if (!client) return;
      const result = await client.call('memory.emptyTrash', {});
      if (!result.ok) return useAppStore.getState().showError(result.error);
      set({ selected: new Set(), anchor: null });
      announcePurge(result.value.purged, result.value.backups.remaining, 'memories', result.value.derived);
    },
  };
});
