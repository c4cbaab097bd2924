/**
 * The Episodes tab: the newest episodes (or those about a search), or the deleted ones (the trash: restore, delete
 * forever), kept live by episode.updated / episode.deleted (the background model writes them while the tab is open),
 * and the open episode's versions for the editor. A delete offers Undo (a restore).
 */
import { create } from 'zustand';
import type { Episode, EpisodeVersion } from '../../../shared/contract';

type EpisodeStatus = Episode['status'];
import type { Client } from '../../../shared/client';
import type { Result } from '../../../shared/errors';
import { useAppStore } from '../app/app.store';
import { announcePurge } from './purge-notice';

const PAGE = 50;

interface EpisodesState {
  client: Client | null;
  episodes: Episode[];
  loaded: boolean;
  query: string;
  /** Which episodes the tab lists: the active ones or the trash. */
  view: EpisodeStatus;
  nextCursor: string | null;
  /** The episode whose versions are shown, with them. */
  versions: { id: number; items: EpisodeVersion[] } | null;
  init(client: Client): void;
  load(): Promise<void>;
  more(): Promise<void>;
  setQuery(query: string): void;
  setView(view: EpisodeStatus): void;
  save(id: number, title: string, content: string): Promise<Result<Episode>>;
  /** To the trash (with Undo), or with forever, for good (backups included). */
  remove(id: number, forever?: boolean): Promise<Result<unknown>>;
  restore(id: number): Promise<Result<Episode>>;
  showVersions(id: number | null): Promise<void>;
  revert(id: number, version: number): Promise<Result<Episode>>;
}

const notReady: Result<never> = { ok: false, error: { code: 'SHUTTING_DOWN', message: 'Mnemo is not connected yet.' } };

export const useEpisodesStore = create<EpisodesState>((set, get) => {
  let request = 0;
  const replace = (episode: Episode) => {
    const list = get().episodes;
    if (episode.status !== get().view) set({ episodes: list.filter((e) => e.id !== episode.id) }); // restored, or trashed
    else if (list.some((e) => e.id === episode.id)) set({ episodes: list.map((e) => (e.id === episode.id ? episode : e)) });
    else if (get().query === '') void get().load(); // a new one: its place in the order is the core's to say
  };

  return {
    client: null,
    episodes: [],
    loaded: false,
    query: '',
    view: 'active',
    nextCursor: null,
    versions: null,

    init(client) {
      set({ client });
      client.on('episode.updated', ({ episode }) => {
        replace(episode);
        if (get().versions?.id === episode.id) void get().showVersions(episode.id);
      });
      client.on('episode.deleted', ({ id }) => set({ episodes: get().episodes.filter((e) => e.id !== id), ...(get().versions?.id === id ? { versions: null } : {}) }));
      client.on('thread.deleted', ({ threadId }) => set({ episodes: get().episodes.filter((e) => e.threadId !== threadId) }));
      client.on('thread.updated', ({ thread }) => set({ episodes: get().episodes.map((e) => (e.threadId === thread.id ? { ...e, threadTitle: thread.title } : e)) }));
    },

    async load() {
      const client = get().client;
      if (!client) return;
      const mine = ++request;
      const query = get().query.trim();
      const result = await client.call('episode.list', { limit: PAGE, status: get().view, ...(query ? { query } : {}) });
      if (mine !== request || !result.ok) return;
      set({ episodes: result.value.episodes, nextCursor: result.value.nextCursor, loaded: true });
    },

    async more() {
      const { client, nextCursor } = get();
      if (!client || nextCursor === null) return;
      const mine = request;
      const result = await client.call('episode.list', { limit: PAGE, status: get().view, cursor: nextCursor });
      if (mine !== request || !result.ok) return;
      set({ episodes: [...get().episodes, ...result.value.episodes], nextCursor: result.value.nextCursor });
    },

    setQuery(query) {
      set({ query });
      void get().load();
    },

    setView(view) {
      set({ view, episodes: [], loaded: false, nextCursor: null, versions: null });
      void get().load();
    },

    async save(id, title, content) {
      const client = get().client;
      if (!client) return notReady;
      const result = await client.call('episode.update', { id, title, content });
      if (result.ok) replace(result.value);
      return result;
    },

    async remove(id, forever = false) {
      const client = get().client;
      if (!client) return notReady;
      const result = await client.call('episode.delete', { id, forever });
      if (!result.ok) return result;
      set({ episodes: get().episodes.filter((e) => e.id !== id) });
      if (result.value.backups) announcePurge(1, result.value.backups.remaining, 'episodes');
      else useAppStore.getState().pushToast({ text: { key: 'episodes.trashed' }, action: { label: 'common.undo', run: () => void get().restore(id) } });
      return result;
    },

    async restore(id) {
      const client = get().client;
      if (!client) return notReady;
      const result = await client.call('episode.restore', { id });
      if (result.ok) replace(result.value);
      return result;
    },

    async showVersions(id) {
      const client = get().client;
      if (!client || id === null) return set({ versions: null });
      const result = await client.call('episode.get', { id });
      if (result.ok) set({ versions: { id, items: result.value.versions } });
    },

    async revert(id, version) {
      const client = get().client;
      if (!client) return notReady;
      const result = await client.call('episode.revert', { id, version });
      if (result.ok) {
        replace(result.value);
        void get().showVersions(id);
      }
      return result;
    },
  };
});
