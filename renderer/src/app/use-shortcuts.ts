/**
 * App-wide keys: Ctrl/Cmd+N (or Alt+N) new thread, Ctrl/Cmd+Shift+N (or Alt+Shift+N) new incognito thread,
 * Ctrl/Cmd+K search, Ctrl/Cmd+, settings, Ctrl/Cmd+Z the last Undo offered (outside text fields, whose own undo wins),
 * Esc stops the reply of the open thread. A key a focused control already
 * handled (defaultPrevented) is left alone, so Esc first closes a dialog or cancels a rename.
 */
import { useEffect } from 'react';
import { useAppStore } from './app.store';
import { useChatStore } from '../chat/chat.store';
import { replyState } from '../chat/chat-merge';
import { useThreadsStore } from '../threads/threads.store';
import { isAltNew, isMod } from './shortcuts';
import { startNewThread } from './new-thread';

export function useShortcuts(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const key = e.key.toLowerCase();
      const app = useAppStore.getState();
      if ((isMod(e) && key === 'n') || isAltNew(e)) {
        e.preventDefault();
        app.setSearchOpen(false);
        void startNewThread();
      } else if ((isMod(e, { shift: true }) && key === 'n') || isAltNew(e, { shift: true })) {
        e.preventDefault();
        app.setSearchOpen(false);
        void startNewThread({ incognito: true });
      } else if (isMod(e) && key === 'k') {
        e.preventDefault();
        app.setSearchOpen(!app.searchOpen);
      } else if (isMod(e) && key === ',') {
        e.preventDefault();
        app.setView(app.view === 'settings' ? 'chat' : 'settings');
      } else if (isMod(e) && key === 'z' && !isTextField(e.target)) {
        if (app.undoLast()) e.preventDefault();
      } else if (e.key === 'Escape' && !app.searchOpen) {
        const threadId = useThreadsStore.getState().selectedId;
        if (threadId === null) return;
        const chat = useChatStore.getState().threads[threadId];
        if (chat && replyState(chat.messages, chat.sending) !== 'idle') {
          e.preventDefault();
          void useChatStore.getState().stop(threadId);
        }
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement) return true;
  return target instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(target.type);
}
