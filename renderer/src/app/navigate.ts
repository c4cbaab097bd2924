/** Moves between views to show one thing: a memory in the browser's detail pane, or a message in its thread. */
import { useAppStore } from './app.store';
import { useChatStore } from '../chat/chat.store';
import { useMemoriesStore } from '../memories/memories.store';
import { useMemoryDetailStore } from '../memories/memory-detail.store';
import { useThreadsStore } from '../threads/threads.store';

export function showMemory(memoryId: number): void {
  const tab = useMemoriesStore.getState().tab;
  if (tab === 'review' || tab === 'about' || tab === 'episodes') useMemoriesStore.getState().setTab('browse');
  useMemoryDetailStore.getState().open(memoryId);
  useAppStore.getState().setView('memories');
}

/** The memory browser, newest first: where several memories just learned are. */
export function showMemories(): void {
  const memories = useMemoriesStore.getState();
  if (memories.tab !== 'browse') memories.setTab('browse');
  useAppStore.getState().setView('memories');
}

/** The memory browser searching for `text` (from Ctrl+K, which searches conversations). */
export function searchMemories(text: string): void {
  showMemories();
  useMemoriesStore.getState().setText(text);
}

/** A message edited away (on another version) is shown by switching the thread to its version first. */
export function showMessage(threadId: number, messageId: number | null): void {
  if (messageId === null) return useThreadsStore.getState().select(threadId, null);
  void useChatStore
    .getState()
    .reveal(messageId)
    .then(() => useThreadsStore.getState().select(threadId, messageId));
}
