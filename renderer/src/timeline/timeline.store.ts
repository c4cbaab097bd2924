/**
 * The timeline: events newest first, a page at a time going back (`before`), filtered by kind and category; the
 * activity chart's buckets; a jump to a day (the stream restarts from the end of that day); and "as of" a date.
 * The events table has no event of its own: memory events mean new rows at the top, read when the newest page is shown.
 */
import { create } from 'zustand';
import type { MemoryCategory, OpOutput, TimelineEvent } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { ErrorInfo } from '../../../shared/errors';
import { activityEdges } from './activity-chart';
import { localDayStart, nextLocalDay } from '../format/local-day';
import { KIND_FILTERS, type KindFilter } from './timeline-format';
import { useAppStore } from '../app/app.store';
import { useMemoryRefsStore } from '../chat/memory-refs.store';
import { currentTimeZone } from '../settings/settings.store';

const PAGE = 100;
const REFRESH_DELAY_MS = 300;
export type ActivityBucket = OpOutput<'timeline.activity'>['buckets'][number];
export type AsOf = OpOutput<'memory.asOf'>;
/** A memory as it was at an event, with the version before (what the event changed). */
export type EventVersion = NonNullable<OpOutput<'timeline.versions'>['items'][number]>;

interface TimelineState {
  client: Client | null;
  kind: KindFilter;
  category: MemoryCategory | 'all';
  /** Null: from the newest; else the stream starts before this time (a day picked on the chart). */
  from: number | null;
  events: TimelineEvent[];
  /** By event id: the memory as it was then; null when it is gone (deleted forever); absent while asked. */
  versions: Record<number, EventVersion | null>;
  hasMore: boolean;
  loading: boolean;
  error: ErrorInfo | null;
  bucket: 'day' | 'week';
  activity: ActivityBucket[];
  /** The bucket the chart jumped to (the stream shows what happened up to its end). */
  jumpedTo: { start: number; end: number } | null;
  asOfDate: string;
  asOf: AsOf | null;
  init(client: Client): void;
  enter(): void;
  load(): Promise<void>;
  loadMore(): Promise<void>;
  setKind(kind: KindFilter): void;
  setCategory(category: MemoryCategory | 'all'): void;
  jumpTo(start: number, end: number): void;
  backToLatest(): void;
  setBucket(bucket: 'day' | 'week'): void;
  loadActivity(): Promise<void>;
  setAsOfDate(value: string): void;
  loadMoreAsOf(): Promise<void>;
  /** Undoes a summary maintenance wrote (memory.unconsolidate): the memories it replaced come back. */
  undoSummary(memoryId: number): Promise<void>;
  /** By failure event id: its job put back in the queue ('queued'), or the core's refusal (gone, already retried). */
  retries: Record<number, 'queued' | ErrorInfo>;
  /** Puts a failed job back in the queue (queue.retry), for the failure event that recorded it. */
  retryJob(eventId: number, jobId: number): Promise<void>;
}

export const useTimelineStore = create<TimelineState>((set, get) => {
  let request = 0;
  let stale = true;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** The zone the chart's buckets were cut in: a zone changed in the settings meanwhile redraws them. */
  let activityZone = '';

  function listInput(before: number | null, beforeId?: number) {
    const kinds = KIND_FILTERS[get().kind];
    const category = get().category;
    return {
      limit: PAGE,
      ...(before !== null ? { before } : {}),
      ...(beforeId !== undefined ? { beforeId } : {}),
      ...(kinds.length > 0 ? { kinds: [...kinds] } : {}),
      ...(category !== 'all' ? { categories: [category] } : {}),
    };
  }

  function wantMemories(events: TimelineEvent[]): void {
    const about = events.filter((e) => e.memoryId !== null && e.kind !== 'purged');
    useMemoryRefsStore.getState().want(about.map((e) => e.memoryId!));
    void loadVersions(about);
  }

  async function loadVersions(events: TimelineEvent[]): Promise<void> {
    const client = get().client;
    const wanted = events.filter((e) => !(e.id in get().versions));
    if (!client || wanted.length === 0) return;
    const refs = wanted.map((e) => ({ memoryId: e.memoryId!, at: e.createdAt, ...(typeof e.data.version === 'number' ? { version: e.data.version } : {}) }));
    const result = await client.call('timeline.versions', { refs });
    if (!result.ok) return;
    set((s) => {
      const versions = { ...s.versions };
      wanted.forEach((e, i) => (versions[e.id] = result.value.items[i] ?? null));
      return { versions };
    });
  }

  function onMemoryEvent(): void {
    if (useAppStore.getState().view !== 'timeline') {
      stale = true;
      return;
    }
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      if (get().from === null) void get().load();
      void get().loadActivity();
    }, REFRESH_DELAY_MS);
  }

  return {
    client: null,
    kind: 'all',
    category: 'all',
    from: null,
    events: [],
    versions: {},
    hasMore: false,
    loading: false,
    error: null,
    bucket: 'day',
    activity: [],
    jumpedTo: null,
    asOfDate: '',
    asOf: null,
    retries: {},

    init(client) {
      set({ client });
      for (const event of ['memory.created', 'memory.updated', 'memory.deleted', 'memory.restored', 'memory.purged', 'memory.imported', 'summary.updated'] as const) {
        client.on(event, onMemoryEvent);
      }
    },

    enter() {
      if (stale || get().events.length === 0) {
        stale = false;
        void get().load();
        void get().loadActivity();
      } else if (activityZone !== currentTimeZone()) void get().loadActivity();
    },

    async load() {
      const client = get().client;
      if (!client) return;
      const mine = ++request;
      set({ loading: true, error: null });
      const result = await client.call('timeline.list', listInput(get().from));
      if (mine !== request) return;
      if (!result.ok) return set({ loading: false, error: result.error });
      wantMemories(result.value.events);
      set({ events: result.value.events, hasMore: result.value.hasMore, loading: false });
    },

    async loadMore() {
      const client = get().client;
      const last = get().events[get().events.length - 1];
      if (!client || !last || get().loading || !get().hasMore) return;
      const mine = ++request;
      set({ loading: true });
      // The page continues right after the last event shown (its time and id), so a burst of events written at one
      // instant (a bulk delete) is neither skipped nor repeated.
      const result = await client.call('timeline.list', listInput(last.createdAt, last.id));
      const seen = new Set(get().events.map((e) => e.id));
      if (mine !== request) return;
      if (!result.ok) return set({ loading: false, error: result.error });
      const fresh = result.value.events.filter((e) => !seen.has(e.id));
      wantMemories(fresh);
      set((s) => ({ events: [...s.events, ...fresh], hasMore: result.value.hasMore, loading: false }));
    },

    setKind(kind) {
      set({ kind });
      void get().load();
    },
    setCategory(category) {
      set({ category });
      void get().load();
    },
    jumpTo(start, end) {
      set({ from: end, jumpedTo: { start, end } });
      void get().load();
    },
    backToLatest() {
      set({ from: null, jumpedTo: null });
      void get().load();
    },
    setBucket(bucket) {
      set({ bucket });
      void get().loadActivity();
    },

    async loadActivity() {
      const client = get().client;
      if (!client) return;
      const bucket = get().bucket;
      // The user's days (weeks from Monday): the last 12 weeks by day, or the last year by week.
      activityZone = currentTimeZone();
      const result = await client.call('timeline.activity', { edges: activityEdges(Date.now(), bucket, activityZone) });
      if (result.ok && get().bucket === bucket) set({ activity: result.value.buckets });
    },

    setAsOfDate(value) {
      set({ asOfDate: value, asOf: null });
      const day = localDayStart(value);
      const client = get().client;
      if (day === undefined || !client) return;
      // "What Mnemo believed on that day": as of the end of it.
      void client.call('memory.asOf', { at: nextLocalDay(day) - 1, limit: 200 }).then((result) => {
        if (get().asOfDate !== value) return;
        if (result.ok) set({ asOf: result.value });
        else useAppStore.getState().showError(result.error);
      });
    },

    async loadMoreAsOf() {
      const client = get().client;
      const current = get().asOf;
      const day = localDayStart(get().asOfDate);
      if (!client || !current || day === undefined) return;
      const value = get().asOfDate;
      const result = await client.call('memory.asOf', { at: nextLocalDay(day) - 1, limit: 200, offset: current.items.length });
      if (get().asOfDate !== value || !result.ok) return;
      set({ asOf: { items: [...current.items, ...result.value.items], total: result.value.total } });
    },
    async undoSummary(memoryId) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('memory.unconsolidate', { memoryId });
      if (!result.ok) {
        useAppStore.getState().showError(result.error);
        return;
      }
      useAppStore.getState().pushToast({ text: { key: 'timeline.undoSummaryDone', params: { count: result.value.restored.length } } });
    },
    async retryJob(eventId, jobId) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('queue.retry', { jobId });
      set((s) => ({ retries: { ...s.retries, [eventId]: result.ok ? 'queued' : result.error } }));
    },
  };
});
