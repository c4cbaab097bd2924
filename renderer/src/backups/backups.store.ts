/**
 * Database backups in the settings: the list (newest first), a backup now, and a restore staged for the next start
 * (the core checks the file and backs up the current database first; nothing changes until Mnemo starts again).
 */
import { create } from 'zustand';
import type { BackupInfo, OpOutput } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import { useAppStore } from '../app/app.store';

export type StagedRestore = OpOutput<'db.restore'> & { name: string };

interface BackupsState {
  client: Client | null;
  backups: BackupInfo[];
  folder: string | null;
  lastAutomaticAt: number | null;
  loaded: boolean;
  busy: 'backup' | 'restore' | null;
  /** The backup that replaces the database at the next start, once staged. */
  staged: StagedRestore | null;
  init(client: Client): void;
  load(): Promise<void>;
  backupNow(): Promise<void>;
  restore(name: string): Promise<void>;
}

export const useBackupsStore = create<BackupsState>((set, get) => ({
  client: null,
  backups: [],
  folder: null,
  lastAutomaticAt: null,
  loaded: false,
  busy: null,
  staged: null,

  init(client) {
    set({ client });
    client.on('db.backedUp', () => void get().load());
  },

  async load() {
    const client = get().client;
    if (!client) return;
    const result = await client.call('db.backups', {});
    if (!result.ok) return useAppStore.getState().showError(result.error);
    set({ ...result.value, loaded: true });
  },

  async backupNow() {
    const client = get().client;
    if (!client || get().busy) return;
    set({ busy: 'backup' });
    const result = await client.call('db.backup', {});
    set({ busy: null });
    if (!result.ok) return useAppStore.getState().showError(result.error);
    useAppStore.getState().pushToast({ text: { key: 'backups.saved', params: { name: result.value.name } } });
    await get().load();
  },

  async restore(name) {
    const client = get().client;
    if (!client || get().busy) return;
    set({ busy: 'restore' });
    const result = await client.call('db.restore', { file: name });
    set({ busy: null });
    if (!result.ok) return useAppStore.getState().showError(result.error);
    set({ staged: { ...result.value, name } });
  },
}));
