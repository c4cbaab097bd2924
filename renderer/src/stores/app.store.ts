/**
 * What the window shows: the current view, open dialogs and panels, notifications (toasts, some with an action such
 * as Undo) and the last unexpected error. No client calls here: these are the user's choices about the screen.
 */
import { create } from 'zustand';
import type { ErrorInfo } from '../../../shared/errors';
import type { MessageKey } from '../i18n';

export type View = 'chat' | 'settings' | 'memories' | 'timeline';

export interface Toast {
  id: number;
  text: { key: MessageKey; params?: Record<string, string | number> };
  action?: { label: MessageKey; run: () => void };
}

interface AppState {
  view: View;
  searchOpen: boolean;
  summaryOpen: boolean;
  toasts: Toast[];
  error: ErrorInfo | null;
  setView(view: View): void;
  setSearchOpen(open: boolean): void;
  setSummaryOpen(open: boolean): void;
  pushToast(toast: Omit<Toast, 'id'>, durationMs?: number): number;
  dismissToast(id: number): void;
  showError(error: ErrorInfo): void;
  dismissError(): void;
}

export const useAppStore = create<AppState>((set, get) => {
  let nextToastId = 1;
  return {
    view: 'chat',
    searchOpen: false,
    summaryOpen: false,
    toasts: [],
    error: null,
    setView: (view) => set({ view }),
    setSearchOpen: (searchOpen) => set({ searchOpen }),
    setSummaryOpen: (summaryOpen) => set({ summaryOpen }),
    pushToast(toast, durationMs = 5000) {
      const id = nextToastId++;
      set((s) => ({ toasts: [...s.toasts, { ...toast, id }] }));
      setTimeout(() => get().dismissToast(id), durationMs);
      return id;
    },
    dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
    showError: (error) => set({ error }),
    dismissError: () => set({ error: null }),
  };
});
