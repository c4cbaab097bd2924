/**
 * "New thread" as the user has it. Until the core has created the thread, the composer still shows the thread the
 * user was in, and someone who clicks New and starts typing at once (Ctrl+N, then the first words) types into that
 * thread's draft. What they typed since the click belongs to the new thread: once it exists, it moves there, and the
 * old thread keeps its draft as it was. A draft the user changed otherwise meanwhile (not only added to) stays put.
 */
import { useChatStore } from '../chat/chat.store';
import { useThreadsStore } from '../threads/threads.store';

export async function startNewThread(options: { incognito?: boolean } = {}): Promise<void> {
  const from = useThreadsStore.getState().selectedId;
  const before = from === null ? '' : (useChatStore.getState().drafts[from] ?? '');
  const thread = await useThreadsStore.getState().create(options);
  if (!thread || from === null || thread.id === from) return;
  const chat = useChatStore.getState();
  const now = chat.drafts[from] ?? '';
  if (now === before || !now.startsWith(before)) return;
  chat.setDraft(from, before);
  chat.setDraft(thread.id, (chat.drafts[thread.id] ?? '') + now.slice(before.length));
}
