/**
 * The memory open in the detail pane: memory.get (the memory, its versions, provenance and the answers that used it),
 * memory.access (the other apps that read or wrote it over MCP) and every change made from there. Read again whenever an event says the open memory changed, so the history is
 * never behind what another window (or the background) did.
 */
import { create } from 'zustand';
import type { McpMemoryAccess, Memory, OpInput, OpOutput } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { ErrorInfo, Result } from '../../../shared/errors';
import { useAppStore } from '../app/app.store';
import { announcePurge } from './purge-notice';
import { useMemoriesStore } from './memories.store';

export type MemoryDetail = OpOutput<'memory.get'>;
export type MemoryPatch = Omit<OpInput<'memory.update'>, 'memoryId'>;

interface DetailState {
  client: Client | null;
  memoryId: number | null;
  detail: MemoryDetail | null;
  /** Which other apps read or wrote it (MCP), most recent first. */
  access: McpMemoryAccess[];
  /** Its access log could not be read (the memory itself still shows). */
  accessError: ErrorInfo | null;
  /** The open memory no longer exists (purged). */
  gone: boolean;
  error: ErrorInfo | null;
  init(client: Client): void;
  open(memoryId: number): void;
  close(): void;
  reload(): Promise<void>;
  update(patch: MemoryPatch): Promise<Result<Memory>>;
  revert(version: number): Promise<void>;
  trash(): Promise<void>;
  restore(): Promise<void>;
  archive(): Promise<void>;
  purge(): Promise<boolean>;
}

const notReady = { ok: false, error: { code: 'SHUTTING_DOWN', message: 'Mnemo is not connected yet.' } } as const;

export const useMemoryDetailStore = create<DetailState>((set, get) => {
  let request = 0;

  async function act(call: (client: Client, memoryId: number) => Promise<Result<unknown>>): Promise<boolean> {
    const { client, memoryId } = get();
    if (!client || memoryId === null) return false;
    const result = await call(client, memoryId);
    if (!result.ok) {
      useAppStore.getState().showError(result.error);
      return false;
    }
    await get().reload();
    return true;
  }

  return {
    client: null,
    memoryId: null,
    detail: null,
    access: [],
    accessError: null,
    gone: false,
    error: null,

    init(client) {
      set({ client });
      const onChange = ({ memory }: { memory: Memory }) => {
        if (memory.id === get().memoryId) void get().reload();
      };
      client.on('memory.updated', onChange);
      client.on('memory.deleted', onChange);
      client.on('memory.restored', onChange);
      client.on('memory.purged', ({ memoryIds }) => {
        if (get().memoryId !== null && memoryIds.includes(get().memoryId!)) set({ gone: true, detail: null });
      });
    },

    open(memoryId) {
      if (memoryId === get().memoryId && get().detail) return;
      const same = get().detail?.memory.id === memoryId;
      set({ memoryId, detail: same ? get().detail : null, access: same ? get().access : [], gone: false, error: null });
      void get().reload();
    },

    close: () => set({ memoryId: null, detail: null, access: [], gone: false, error: null }),

    async reload() {
      const { client, memoryId } = get();
      if (!client || memoryId === null) return;
      const mine = ++request;
      const [result, access] = await Promise.all([client.call('memory.get', { memoryId, usesLimit: 50 }), client.call('memory.access', { memoryId })]);
      if (mine !== request || memoryId !== get().memoryId) return;
      if (result.ok) set({ detail: result.value, access: access.ok ? access.value.entries : [], accessError: access.ok ? null : access.error, gone: false, error: null });
      else if (result.error.code === 'NOT_FOUND') set({ detail: null, gone: true });
      else set({ error: result.error });
    },

    async update(patch) {
      const { client, memoryId } = get();
      if (!client || memoryId === null) return notReady;
      const result = await client.call('memory.update', { memoryId, ...patch });
      if (result.ok) await get().reload();
      return result;
    },

    async revert(version) {
      await act((client, memoryId) => client.call('memory.revert', { memoryId, version }));
    },
    async trash() {
      const memoryId = get().memoryId;
      if (memoryId === null) return;
      // As from the list: said with Undo (memories.store.ts trash).
      if (await useMemoriesStore.getState().trash([memoryId])) await get().reload();
    },
    async restore() {
      await act((client, memoryId) => client.call('memory.restore', { memoryId }));
    },
    async archive() {
      await act((client, memoryId) => client.call('memory.bulk', { action: 'archive', memoryIds: [memoryId] }));
    },
    async purge() {
      const { client, memoryId } = get();
      if (!client || memoryId === null) return false;
      const result = await client.call('memory.purge', { memoryId });
      if (!result.ok) {
        useAppStore.getState().showError(result.error);
        return false;
      }
      set({ memoryId: null, detail: null, access: [], gone: false });
      announcePurge(result.value.purged, result.value.backups.remaining, 'memories', result.value.derived);
      return true;
    },
  };
});
