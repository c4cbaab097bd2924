/**
 * Memories shown away from the browser: the text behind a receipt's ids and a timeline event's memory (memory.getMany,
 * asked in one batch per moment), the memories excluded from a thread, and what was learned from each user message
 * (memory.list by source). Events keep all of it current; a purged memory becomes null ("no longer exists").
 */
import { create } from 'zustand';
import type { Memory, MemoryStatus } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { Result } from '../../../shared/errors';
import { notConnected } from '../app/not-connected';
import { useAppStore } from '../app/app.store';
import { createLearnedNotices } from './learned-notice';

/**
 * The chips under a user message: what it taught Mnemo that still counts (or waits for review), and what a later
 * message replaced (superseded: its chip says by what, LearnedChips.tsx).
 */
const LEARNED_STATUSES: MemoryStatus[] = ['active', 'review', 'archived', 'superseded'];
const LEARNED_PAGE = 500;

interface RefsState {
  client: Client | null;
  /** undefined: not asked yet; null: does not exist (any more). */
  byId: Record<number, Memory | null>;
  exclusions: Record<number, number[]>;
  /** By user message id. */
  learned: Record<number, Memory[]>;
  learnedThreads: Record<number, true>;
  init(client: Client): void;
  want(ids: number[]): void;
  loadExclusions(threadId: number): Promise<void>;
  exclude(threadId: number, memoryId: number): Promise<void>;
  include(threadId: number, memoryId: number): Promise<void>;
  /**
   * A forget's Undo and its picker (ForgetNotices.tsx): these memories to the trash, or back from it (memory.bulk);
   * the events that follow update what is shown. Resolves false when it failed (the error is shown).
   */
  trashMany(ids: number[]): Promise<boolean>;
  restoreMany(ids: number[]): Promise<boolean>;
  /** A receipt's outdated memory: to the trash (memory.delete), or true only until `expiresAt` (memory.update). */
  trashOne(memoryId: number): Promise<Result<unknown>>;
  expireAt(memoryId: number, expiresAt: number): Promise<Result<unknown>>;
  loadLearned(threadId: number): Promise<void>;
  refreshLearned(messageId: number): Promise<void>;
  /** After a reconnect: events may have been missed. */
  reloadAll(): Promise<void>;
}

export const useMemoryRefsStore = create<RefsState>((set, get) => {
  const asked = new Set<number>();
  let batch: Set<number> | null = null;

  async function fetchMany(ids: number[]): Promise<void> {
    const client = get().client;
    if (!client || ids.length === 0) return;
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      const result = await client.call('memory.getMany', { memoryIds: chunk });
      if (!result.ok) {
        for (const id of chunk) asked.delete(id);
        continue;
      }
      const found = new Map(result.value.items.map((m) => [m.id, m]));
      set((s) => {
        const byId = { ...s.byId };
        for (const id of chunk) byId[id] = found.get(id) ?? null;
        return { byId };
      });
    }
  }

  function putMemory(memory: Memory): void {
    set((s) => {
      const patch: Partial<RefsState> = {};
      if (s.byId[memory.id] !== undefined) patch.byId = { ...s.byId, [memory.id]: memory };
      const messageId = memory.sourceMessageId;
      const threadLoaded = memory.sourceThreadId !== null && s.learnedThreads[memory.sourceThreadId];
      if (messageId !== null && (threadLoaded || s.learned[messageId])) {
        const others = (s.learned[messageId] ?? []).filter((m) => m.id !== memory.id);
        patch.learned = { ...s.learned, [messageId]: LEARNED_STATUSES.includes(memory.status) ? [...others, memory].sort((a, b) => a.id - b.id) : others };
      }
      return patch;
    });
  }

  function groupBySource(items: Memory[]): Record<number, Memory[]> {
    const out: Record<number, Memory[]> = {};
    for (const m of items) if (m.sourceMessageId !== null) (out[m.sourceMessageId] ??= []).push(m);
    for (const list of Object.values(out)) list.sort((a, b) => a.id - b.id);
    return out;
  }

  const announceLearned = createLearnedNotices();

  async function bulk(action: 'delete' | 'restore', memoryIds: number[]): Promise<boolean> {
    const client = get().client;
    if (!client || memoryIds.length === 0) return false;
    const result = await client.call('memory.bulk', { action, memoryIds });
    if (!result.ok) useAppStore.getState().showError(result.error);
    return result.ok;
  }

  return {
    client: null,
    byId: {},
    exclusions: {},
    learned: {},
    learnedThreads: {},

    init(client) {
      set({ client });
      for (const event of ['memory.created', 'memory.updated', 'memory.deleted', 'memory.restored'] as const) {
        client.on(event, ({ memory }) => putMemory(memory));
      }
      client.on('memory.purged', ({ memoryIds }) =>
        set((s) => {
          const gone = new Set(memoryIds);
          const byId = { ...s.byId };
          for (const id of memoryIds) if (byId[id] !== undefined) byId[id] = null;
          const learned: Record<number, Memory[]> = {};
          for (const [key, list] of Object.entries(s.learned)) learned[Number(key)] = list.filter((m) => !gone.has(m.id));
          return { byId, learned };
        }),
      );
      client.on('extraction.completed', ({ userMessageId }) => {
        if (userMessageId !== null) void get().refreshLearned(userMessageId);
      });
      // A memory learned with high importance: worth telling the user at once, unless it is on screen already.
      client.on('memory.learned', ({ memory }) => announceLearned(memory));
      client.on('thread.deleted', ({ threadId }) =>
        set((s) => {
          const { [threadId]: _e, ...exclusions } = s.exclusions;
          const { [threadId]: _l, ...learnedThreads } = s.learnedThreads;
          return { exclusions, learnedThreads };
        }),
      );
    },

    want(ids) {
      const missing = ids.filter((id) => !asked.has(id));
      if (missing.length === 0) return;
      for (const id of missing) asked.add(id);
      // Every receipt on screen asks during the same render: one request for all of them.
      if (batch) {
        for (const id of missing) batch.add(id);
        return;
      }
      batch = new Set(missing);
      queueMicrotask(() => {
        const ids = [...(batch ?? [])];
        batch = null;
        void fetchMany(ids);
      });
    },

    async loadExclusions(threadId) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('thread.exclusions', { threadId });
      if (result.ok) set((s) => ({ exclusions: { ...s.exclusions, [threadId]: result.value.memoryIds } }));
    },

    async exclude(threadId, memoryId) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('thread.excludeMemory', { threadId, memoryId });
      if (!result.ok) return useAppStore.getState().showError(result.error);
      set((s) => ({ exclusions: { ...s.exclusions, [threadId]: [...(s.exclusions[threadId] ?? []).filter((id) => id !== memoryId), memoryId] } }));
    },

    async include(threadId, memoryId) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('thread.includeMemory', { threadId, memoryId });
      if (!result.ok) return useAppStore.getState().showError(result.error);
      set((s) => ({ exclusions: { ...s.exclusions, [threadId]: (s.exclusions[threadId] ?? []).filter((id) => id !== memoryId) } }));
    },

    async trashMany(ids) {
      return bulk('delete', ids);
    },

    async restoreMany(ids) {
      return bulk('restore', ids);
    },

    async trashOne(memoryId) {
      const client = get().client;
      return client ? client.call('memory.delete', { memoryId }) : notConnected;
    },

    async expireAt(memoryId, expiresAt) {
      const client = get().client;
      return client ? client.call('memory.update', { memoryId, expiresAt }) : notConnected;
    },

    async loadLearned(threadId) {
      const client = get().client;
      if (!client) return;
      set((s) => ({ learnedThreads: { ...s.learnedThreads, [threadId]: true } }));
      const items: Memory[] = [];
      for (let offset = 0; ; offset += LEARNED_PAGE) {
        const result = await client.call('memory.list', { sourceThreadId: threadId, statuses: LEARNED_STATUSES, sort: 'created', limit: LEARNED_PAGE, offset });
        if (!result.ok) return;
        items.push(...result.value.items);
        if (items.length >= result.value.total || result.value.items.length === 0) break;
      }
      const grouped = groupBySource(items);
      set((s) => {
        const learned = { ...s.learned };
        // Messages of this thread with nothing learned (any more) lose their chips.
        for (const m of Object.values(s.learned).flat()) if (m.sourceThreadId === threadId && m.sourceMessageId !== null && !grouped[m.sourceMessageId]) learned[m.sourceMessageId] = [];
        return { learned: { ...learned, ...grouped } };
      });
    },

    async refreshLearned(messageId) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('memory.list', { sourceMessageId: messageId, statuses: LEARNED_STATUSES, sort: 'created', limit: 100 });
      if (result.ok) set((s) => ({ learned: { ...s.learned, [messageId]: [...result.value.items].sort((a, b) => a.id - b.id) } }));
    },

    async reloadAll() {
      const ids = Object.keys(get().byId).map(Number);
      asked.clear();
      get().want(ids);
      await Promise.all([
        ...Object.keys(get().exclusions).map((id) => get().loadExclusions(Number(id))),
        ...Object.keys(get().learnedThreads).map((id) => get().loadLearned(Number(id))),
      ]);
    },
  };
});
