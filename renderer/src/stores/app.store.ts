/**
 * App-wide state: connection, app info, settings-derived language, threads, and the last error shown in a banner.
 * Only this store talks to the client; components read state and call actions.
 */
import { create } from 'zustand';
import type { AppInfo, Thread } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { ErrorInfo } from '../../../shared/errors';
import type { Language } from '../i18n';

interface AppState {
  client: Client | null;
  connected: boolean;
  info: AppInfo | null;
  language: Language;
  threads: Thread[];
  selectedThreadId: number | null;
  error: ErrorInfo | null;
  init(client: Client): Promise<void>;
  setConnected(connected: boolean): void;
  createThread(): Promise<void>;
  selectThread(id: number): void;
  dismissError(): void;
}

export const useAppStore = create<AppState>((set, get) => ({
  client: null,
  connected: false,
  info: null,
  language: 'en',
  threads: [],
  selectedThreadId: null,
  error: null,

  async init(client) {
    set({ client });
    client.on('thread.created', ({ thread }) => set((s) => ({ threads: [thread, ...s.threads.filter((t) => t.id !== thread.id)] })));
    client.on('thread.updated', ({ thread }) => set((s) => ({ threads: s.threads.map((t) => (t.id === thread.id ? thread : t)) })));
    client.on('thread.deleted', ({ threadId }) =>
      set((s) => ({
        threads: s.threads.filter((t) => t.id !== threadId),
        selectedThreadId: s.selectedThreadId === threadId ? null : s.selectedThreadId,
      })),
    );
    client.on('settings.changed', () => void loadSettings());
    const [info, threads] = await Promise.all([client.call('app.info', {}), client.call('thread.list', {})]);
    if (!info.ok) return set({ error: info.error });
    if (!threads.ok) return set({ error: threads.error });
    set({ info: info.value, threads: threads.value.threads, connected: true });
    await loadSettings();

    async function loadSettings() {
      const settings = await client.call('settings.get', {});
      if (settings.ok) set({ language: settings.value.language });
    }
  },
  setConnected: (connected) => set({ connected }),
  async createThread() {
    const client = get().client;
    if (!client) return;
    const result = await client.call('thread.create', {});
    if (!result.ok) return set({ error: result.error });
    set((s) => ({ selectedThreadId: result.value.id, threads: [result.value, ...s.threads.filter((t) => t.id !== result.value.id)] }));
  },
  selectThread: (id) => set({ selectedThreadId: id }),
  dismissError: () => set({ error: null }),
}));
