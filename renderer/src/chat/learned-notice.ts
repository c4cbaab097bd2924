/**
 * "Mnemo learned…": which learning deserves a notice. Learning from a message in the thread on screen is already
 * shown under that message ("Learned: …"), so it gets none. Learning elsewhere (another thread, another window, while
 * the user is in Memories or Settings) gets one notice that counts up ("Mnemo learned 3 things") instead of a stack.
 */
import type { Memory } from '../../../shared/contract';
import { useAppStore, type Toast } from '../app/app.store';
import { showMemories, showMemory } from '../app/navigate';
import { useThreadsStore } from '../threads/threads.store';

const LEARNED_GROUP = 'learned';
const LEARNED_NOTICE_MS = 8000;
const SHOWN_CHARS = 80;

/** The notice for what was learned since the last one went: the memory itself, or how many, with a way to see them. */
export function learnedNotice(learned: Memory[]): Omit<Toast, 'id' | 'count'> {
  const show = { label: 'memories.show' as const };
  if (learned.length === 1) {
    const memory = learned[0]!;
    const content = memory.content.length > SHOWN_CHARS ? `${memory.content.slice(0, SHOWN_CHARS - 1)}…` : memory.content;
    return { text: { key: 'memories.learnedToast', params: { content } }, action: { ...show, run: () => showMemory(memory.id) }, group: LEARNED_GROUP };
  }
  return { text: { key: 'memories.learnedManyToast', params: { count: learned.length } }, action: { ...show, run: showMemories }, group: LEARNED_GROUP };
}

/** The thread whose messages (and their "Learned:" chips) are on screen, else null. */
function threadOnScreen(): number | null {
  return useAppStore.getState().view === 'chat' ? useThreadsStore.getState().selectedId : null;
}

/** Tells the user about memories learned one at a time (memory.learned), unless they are already in view. */
export function createLearnedNotices(): (memory: Memory) => void {
  let since: Memory[] = [];
  let toastId = 0;
  return (memory) => {
    if (memory.sourceThreadId !== null && memory.sourceThreadId === threadOnScreen()) return;
    const app = useAppStore.getState();
    if (!app.toasts.some((t) => t.id === toastId)) since = [];
    since = [...since, memory];
    toastId = app.pushToast(learnedNotice(since), LEARNED_NOTICE_MS);
  };
}
