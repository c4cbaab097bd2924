/** Hands the one client to every store and wires what happens after a reconnect (re-read everything shown). */
import type { Client } from '../../../shared/client';
import { useBackupsStore } from './backups.store';
import { useChatStore } from './chat.store';
import { useConnectedAppsStore } from './connected-apps.store';
import { useEpisodesStore } from './episodes.store';
import { useFocusStore } from './focus.store';
import { useMemoriesStore } from './memories.store';
import { useMemoryDetailStore } from './memory-detail.store';
import { useMemoryRefsStore } from './memory-refs.store';
import { useProfileStore } from './profile.store';
import { useReviewStore } from './review.store';
import { useSettingsStore } from './settings.store';
import { useStatusStore } from './status.store';
import { useThreadsStore } from './threads.store';
import { useTimelineStore } from './timeline.store';
import { useTransferStore } from './transfer.store';

export function initStores(client: Client): void {
  useChatStore.getState().init(client);
  void useSettingsStore.getState().init(client);
  void useThreadsStore.getState().init(client);
  useMemoriesStore.getState().init(client);
  useMemoryDetailStore.getState().init(client);
  useMemoryRefsStore.getState().init(client);
  useReviewStore.getState().init(client);
  useProfileStore.getState().init(client);
  useEpisodesStore.getState().init(client);
  useFocusStore.getState().init(client);
  useTimelineStore.getState().init(client);
  useTransferStore.getState().init(client);
  useBackupsStore.getState().init(client);
  useConnectedAppsStore.getState().init(client);
  useStatusStore.getState().init(client, () => {
    void useSettingsStore.getState().load();
    void useThreadsStore.getState().reload();
    void useChatStore.getState().reloadLoaded();
    void useStatusStore.getState().refreshAll();
    void useMemoriesStore.getState().refresh();
    void useMemoriesStore.getState().loadStats();
    void useMemoryDetailStore.getState().reload();
    void useMemoryRefsStore.getState().reloadAll();
    void useReviewStore.getState().load();
    void useProfileStore.getState().load();
    void useEpisodesStore.getState().load();
    useFocusStore.setState({ byThread: {}, active: null });
    void useTimelineStore.getState().load();
    if (useConnectedAppsStore.getState().loaded) void useConnectedAppsStore.getState().load();
  });
}
