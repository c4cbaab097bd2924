/**
 * The thread list: by last activity, the selected thread, rename, a thread's own model and instructions, delete with
 * undo, and message search.
 * Delete is delayed: the thread disappears at once, and thread.delete is only called when the Undo window has
 * passed, so an undone delete never touches the database.
 */
import { create } from 'zustand';
import type { Message, OpOutput, Thread } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import { useAppStore } from '../app/app.store';

export const UNDO_DELETE_MS = 5000;

export type SearchHit = OpOutput<'thread.search'>['hits'][number];

interface ThreadsState {
  client: Client | null;
  threads: Thread[];
  loaded: boolean;
  selectedId: number | null;
  /** Deleted in the UI, waiting for the Undo window to pass. */
  pendingDeletes: number[];
  /** The message a search result pointed at, to scroll to once its thread is shown. */
  focusMessageId: number | null;
  searchQuery: string;
  searchHits: SearchHit[];
  searching: boolean;
  init(client: Client): Promise<void>;
  reload(): Promise<void>;
  create(options?: { incognito?: boolean }): Promise<Thread | null>;
  select(id: number | null, focusMessageId?: number | null): void;
  rename(id: number, title: string): Promise<boolean>;
  /** null: back to the chatModel setting. */
  setModel(id: number, model: string | null): Promise<boolean>;
  /** Empty: none. A refusal (too long) is returned for the form to show beside the field. */
  setInstructions(id: number, instructions: string): Promise<{ ok: true } | { ok: false; message: string }>;
  /** What the model saw for an answer (chat.context); null when it was not recorded. */
  promptContext(messageId: number): Promise<OpOutput<'chat.context'> | 'failed'>;
  requestDelete(id: number): void;
  undoDelete(id: number): void;
  searchMessages(query: string): Promise<void>;
}

const byActivity = (a: Thread, b: Thread) => b.lastActivityAt - a.lastActivityAt || b.id - a.id;

export const useThreadsStore = create<ThreadsState>((set, get) => {
  const deleteTimers = new Map<number, ReturnType<typeof setTimeout>>();
  /** Threads that were open when deleted: Undo opens them again. */
  const wasSelected = new Set<number>();
  let searchRequest = 0;

  function put(thread: Thread): void {
    set((s) => ({ threads: [thread, ...s.threads.filter((t) => t.id !== thread.id)].sort(byActivity) }));
  }

  function onMessageCreated(message: Message): void {
    set((s) => ({
      threads: s.threads
        .map((t) => (t.id === message.threadId ? { ...t, lastActivityAt: Math.max(t.lastActivityAt, message.createdAt), messageCount: t.messageCount + 1 } : t))
        .sort(byActivity),
    }));
  }

  async function deleteNow(id: number): Promise<void> {
    deleteTimers.delete(id);
    wasSelected.delete(id);
    const client = get().client;
    if (!client) return;
    const result = await client.call('thread.delete', { threadId: id });
    set((s) => ({ pendingDeletes: s.pendingDeletes.filter((p) => p !== id) }));
    if (result.ok || result.error.code === 'NOT_FOUND') {
      set((s) => ({ threads: s.threads.filter((t) => t.id !== id) }));
    } else {
      useAppStore.getState().showError(result.error);
    }
  }

  return {
    client: null,
    threads: [],
    loaded: false,
    selectedId: null,
    pendingDeletes: [],
    focusMessageId: null,
    searchQuery: '',
    searchHits: [],
    searching: false,

    async init(client) {
      set({ client });
      client.on('thread.created', ({ thread }) => put(thread));
      client.on('thread.updated', ({ thread }) => put(thread));
      client.on('thread.deleted', ({ threadId }) =>
        set((s) => ({
          threads: s.threads.filter((t) => t.id !== threadId),
          selectedId: s.selectedId === threadId ? null : s.selectedId,
        })),
      );
      client.on('message.created', ({ message }) => onMessageCreated(message));
      await get().reload();
    },

    async reload() {
      const client = get().client;
      if (!client) return;
      const result = await client.call('thread.list', { limit: 1000 });
      if (!result.ok) return useAppStore.getState().showError(result.error);
      const threads = result.value.threads;
      set((s) => ({
        threads,
        loaded: true,
        selectedId: s.selectedId !== null && threads.some((t) => t.id === s.selectedId) ? s.selectedId : null,
      }));
    },

    async create(options = {}) {
      const client = get().client;
      if (!client) return null;
      const incognito = options.incognito ?? false;
      // An empty thread of the same kind is reused: pressing "New" twice should not leave empty threads behind.
      const current = get().threads.find((t) => t.id === get().selectedId);
      if (current && current.messageCount === 0 && current.incognito === incognito) {
        useAppStore.getState().setView('chat');
        return current;
      }
      const result = await client.call('thread.create', { incognito });
      if (!result.ok) {
        useAppStore.getState().showError(result.error);
        return null;
      }
      put(result.value);
      set({ selectedId: result.value.id, focusMessageId: null });
      useAppStore.getState().setView('chat');
      return result.value;
    },

    select(id, focusMessageId = null) {
      set({ selectedId: id, focusMessageId });
      useAppStore.getState().setView('chat');
    },

    async rename(id, title) {
      const client = get().client;
      const trimmed = title.trim();
      const thread = get().threads.find((t) => t.id === id);
      if (!client || !thread || trimmed === '' || trimmed === thread.title) return false;
      const result = await client.call('thread.rename', { threadId: id, title: trimmed });
      if (!result.ok) {
        useAppStore.getState().showError(result.error);
        return false;
      }
      put(result.value);
      return true;
    },

    async setModel(id, model) {
      const client = get().client;
      if (!client) return false;
      const result = await client.call('thread.setModel', { threadId: id, model });
      if (!result.ok) {
        useAppStore.getState().showError(result.error);
        return false;
      }
      put(result.value);
      return true;
    },

    async setInstructions(id, instructions) {
      const client = get().client;
      if (!client) return { ok: false, message: '' };
      const result = await client.call('thread.setInstructions', { threadId: id, instructions });
      if (!result.ok) return { ok: false, message: result.error.message };
      put(result.value);
      return { ok: true };
    },

    async promptContext(messageId) {
      const client = get().client;
      if (!client) return 'failed';
      const result = await client.call('chat.context', { messageId });
      if (!result.ok) {
        useAppStore.getState().showError(result.error);
        return 'failed';
      }
      return result.value;
    },

    requestDelete(id) {
      if (deleteTimers.has(id)) return;
      const visible = get().threads.filter((t) => !get().pendingDeletes.includes(t.id));
      const index = visible.findIndex((t) => t.id === id);
      const thread = visible[index];
      if (!thread) return;
      if (get().selectedId === id) wasSelected.add(id);
      set((s) => {
        // The selection moves to the neighbour, as in a mail client.
        const neighbour = visible[index + 1] ?? visible[index - 1] ?? null;
        return { pendingDeletes: [...s.pendingDeletes, id], selectedId: s.selectedId === id ? (neighbour?.id ?? null) : s.selectedId };
      });
      deleteTimers.set(id, setTimeout(() => void deleteNow(id), UNDO_DELETE_MS));
      const toastId = useAppStore.getState().pushToast(
        {
          text: thread.title ? { key: 'threads.deleted', params: { title: thread.title } } : { key: 'threads.deletedUntitled' },
          action: {
            label: 'common.undo',
            run: () => {
              get().undoDelete(id);
              useAppStore.getState().dismissToast(toastId);
            },
          },
          fixedDuration: true,
        },
        UNDO_DELETE_MS,
      );
    },

    undoDelete(id) {
      const timer = deleteTimers.get(id);
      if (!timer) return;
      clearTimeout(timer);
      deleteTimers.delete(id);
      const reopen = wasSelected.delete(id);
      set((s) => ({ pendingDeletes: s.pendingDeletes.filter((p) => p !== id), selectedId: reopen ? id : s.selectedId }));
    },

    async searchMessages(query) {
      const client = get().client;
      const request = ++searchRequest;
      const trimmed = query.trim();
      set({ searchQuery: query });
      if (!client || trimmed === '') return set({ searchHits: [], searching: false });
      set({ searching: true });
      const result = await client.call('thread.search', { query: trimmed, limit: 30 });
      // A slower answer to an older query must not replace a newer one.
      if (request !== searchRequest) return;
      set({ searching: false, searchHits: result.ok ? result.value.hits : [] });
    },
  };
});

/** Threads as the sidebar shows them: without those waiting for their delete. */
export function visibleThreads(threads: Thread[], pendingDeletes: number[]): Thread[] {
  return pendingDeletes.length === 0 ? threads : threads.filter((t) => !pendingDeletes.includes(t.id));
}
