/** Hands the one client to every store and wires what happens after a reconnect (re-read everything shown). */
import type { Client } from '../../../shared/client';
import { useBackupsStore } from '../backups/backups.store';
import { useChatStore } from '../chat/chat.store';
import { useConnectedAppsStore } from '../connected-apps/connected-apps.store';
import { useEpisodesStore } from '../memories/episodes.store';
import { useFocusStore } from '../chat/focus.store';
import { useMemoriesStore } from '../memories/memories.store';
import { useMemoryDetailStore } from '../memories/memory-detail.store';
import { useMemoryRefsStore } from '../chat/memory-refs.store';
import { useProfileStore } from '../memories/profile.store';
import { useReviewStore } from '../review/review.store';
import { useSettingsStore } from '../settings/settings.store';
import { useStatusStore } from '../status/status.store';
import { useThreadsStore } from '../threads/threads.store';
import { useTimelineStore } from '../timeline/timeline.store';
import { useTransferStore } from '../transfer/transfer.store';

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
