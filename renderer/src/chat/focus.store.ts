/**
 * Working memory in the renderer: each open thread's focus and tasks (the panel) and the active work across threads
 * (the Memories screen), kept live by focus.updated (the background model's updates, the user's edits from another
 * window or the CLI). Every edit goes to the core; the panel shows the core's answer, never a local guess.
 */
import { create } from 'zustand';
import type { ActiveWork, FocusEdit, WorkingMemory } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { Result } from '../../../shared/errors';
import { notConnected } from '../app/not-connected';

interface FocusStoreState {
  client: Client | null;
  byThread: Record<number, WorkingMemory>;
  active: ActiveWork[] | null;
  init(client: Client): void;
  load(threadId: number): Promise<void>;
  edit(threadId: number, edit: FocusEdit): Promise<Result<WorkingMemory>>;
  clear(threadId: number): Promise<Result<WorkingMemory>>;
  loadActive(): Promise<void>;
}


export const useFocusStore = create<FocusStoreState>((set, get) => {
  const put = (wm: WorkingMemory) => set((s) => ({ byThread: { ...s.byThread, [wm.threadId]: wm } }));
  return {
    client: null,
    byThread: {},
    active: null,

    init(client) {
      set({ client });
      client.on('focus.updated', ({ workingMemory }) => {
        put(workingMemory);
        if (get().active !== null) void get().loadActive();
      });
      // Another version shown, or a question edited (a new user message on a new path): the working memory that
      // applies may be another (focus.get gives the version shown's), and no focus.updated says so.
      client.on('thread.branchSwitched', ({ threadId }) => {
        if (get().byThread[threadId]) void get().load(threadId);
      });
      client.on('message.created', ({ message }) => {
        if (message.role === 'user' && get().byThread[message.threadId]) void get().load(message.threadId);
      });
      client.on('thread.deleted', ({ threadId }) =>
        set((s) => {
          const { [threadId]: _gone, ...rest } = s.byThread;
          return { byThread: rest, active: s.active?.filter((a) => a.threadId !== threadId) ?? null };
        }),
      );
    },

    async load(threadId) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('focus.get', { threadId });
      if (result.ok) put(result.value);
    },

    async edit(threadId, edit) {
      const client = get().client;
      if (!client) return notConnected;
      const result = await client.call('focus.update', { threadId, edit });
      if (result.ok) put(result.value);
      return result;
    },

    async clear(threadId) {
      const client = get().client;
      if (!client) return notConnected;
      const result = await client.call('focus.clear', { threadId });
      if (result.ok) put(result.value);
      return result;
    },

    async loadActive() {
      const client = get().client;
      if (!client) return;
      const result = await client.call('focus.listActive', {});
      if (result.ok) set({ active: result.value });
    },
  };
});
