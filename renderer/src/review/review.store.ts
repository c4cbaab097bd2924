/**
 * The review inbox: what the extractor proposed while memory mode is "ask first" (and anything that reads like an
 * instruction to the assistant). Its count is the badge on the Memories entry, so it is read at start and again
 * whenever an event may have changed it.
 */
import { create } from 'zustand';
import type { Memory, MemoryCategory, ReviewItem } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { Result } from '../../../shared/errors';
import { useAppStore } from '../app/app.store';
import { notConnected } from '../app/not-connected';

const LIMIT = 200;
const RELOAD_DELAY_MS = 200;

export interface ReviewEdit {
  content?: string;
  category?: MemoryCategory;
  importance?: number;
  pinned?: boolean;
  expiresAt?: number | null;
}

interface ReviewState {
  client: Client | null;
  items: ReviewItem[];
  total: number;
  loaded: boolean;
  busy: Record<number, true>;
  init(client: Client): void;
  load(): Promise<void>;
  approve(memoryId: number, edit?: ReviewEdit): Promise<Result<Memory>>;
  reject(memoryId: number): Promise<void>;
}

export const useReviewStore = create<ReviewState>((set, get) => {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let request = 0;
  const later = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = null;
      void get().load();
    }, RELOAD_DELAY_MS);
  };
  const settle = (memoryId: number, busy: boolean) =>
    set((s) => {
      const { [memoryId]: _done, ...rest } = s.busy;
      return { busy: busy ? { ...rest, [memoryId]: true } : rest };
    });

  return {
    client: null,
    items: [],
    total: 0,
    loaded: false,
    busy: {},

    init(client) {
      set({ client });
      const touchesReview = ({ memory }: { memory: Memory }) => {
        if (memory.status === 'review' || get().items.some((m) => m.id === memory.id)) later();
      };
      for (const event of ['memory.created', 'memory.updated', 'memory.deleted', 'memory.restored'] as const) client.on(event, touchesReview);
      client.on('memory.purged', ({ memoryIds }) => {
        if (get().items.some((m) => memoryIds.includes(m.id))) later();
      });
      client.on('memory.imported', later);
      client.on('extraction.completed', ({ review }) => {
        if (review.length > 0) later();
      });
      void get().load();
    },

    async load() {
      const client = get().client;
      if (!client) return;
      const mine = ++request;
      const result = await client.call('review.list', { limit: LIMIT });
      if (mine !== request) return;
      if (result.ok) set({ items: result.value.items, total: result.value.total, loaded: true });
    },

    async approve(memoryId, edit = {}) {
      const client = get().client;
      if (!client) return notConnected;
      settle(memoryId, true);
      const result = await client.call('review.approve', { memoryId, ...edit });
      settle(memoryId, false);
      if (result.ok) {
        set((s) => ({ items: s.items.filter((m) => m.id !== memoryId), total: Math.max(0, s.total - 1) }));
        useAppStore.getState().pushToast({ text: { key: 'review.approved' } });
      }
      return result;
    },

    async reject(memoryId) {
      const client = get().client;
      if (!client) return;
      settle(memoryId, true);
      const result = await client.call('review.reject', { memoryId });
      settle(memoryId, false);
      if (!result.ok) return useAppStore.getState().showError(result.error);
      set((s) => ({ items: s.items.filter((m) => m.id !== memoryId), total: Math.max(0, s.total - 1) }));
      useAppStore.getState().pushToast({ text: { key: 'review.rejected' } });
    },
  };
});
