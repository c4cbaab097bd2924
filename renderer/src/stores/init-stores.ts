/** Hands the one client to every store and wires what happens after a reconnect (re-read everything shown). */
import type { Client } from '../../../shared/client';
import { useChatStore } from './chat.store';
import { useSettingsStore } from './settings.store';
import { useStatusStore } from './status.store';
import { useThreadsStore } from './threads.store';

export function initStores(client: Client): void {
  useChatStore.getState().init(client);
  void useSettingsStore.getState().init(client);
  void useThreadsStore.getState().init(client);
  useStatusStore.getState().init(client, () => {
    void useSettingsStore.getState().load();
    void useThreadsStore.getState().reload();
    void useChatStore.getState().reloadLoaded();
    void useStatusStore.getState().refreshAll();
  });
}
