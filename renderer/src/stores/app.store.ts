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
  /**
   * The toast lasts exactly its duration, even under the pointer: its action stops working then (a thread's Undo,
   * whose delete runs on its own timer). Other toasts wait while the pointer or focus is on them.
   */
  fixedDuration?: true;
}

interface AppState {
  view: View;
  searchOpen: boolean;
  summaryOpen: boolean;
  toasts: Toast[];
  /** The last Undo offered (Ctrl/Cmd+Z runs it), until it is used or another takes its place. */
  lastUndo: (() => void) | null;
  error: ErrorInfo | null;
  setView(view: View): void;
  setSearchOpen(open: boolean): void;
  setSummaryOpen(open: boolean): void;
  pushToast(toast: Omit<Toast, 'id'>, durationMs?: number): number;
  dismissToast(id: number): void;
  /** The pointer or focus is on the toasts (true): they stay until it leaves, then get their time again. */
  holdToasts(held: boolean): void;
  /** A toast's button: runs its action (once for an Undo: Ctrl/Cmd+Z will not run it again). */
  runToastAction(id: number): void;
  /** Ctrl/Cmd+Z: runs the last Undo offered; false when there is none. */
  undoLast(): boolean;
  showError(error: ErrorInfo): void;
  dismissError(): void;
}

export const useAppStore = create<AppState>((set, get) => {
  let nextToastId = 1;
  let held = false;
  /** The toast whose Undo lastUndo runs. */
  let undoToastId = 0;
  /** Toasts that wait while held: their timer, or (while held) the time they had left. */
  const timers = new Map<number, { timer: ReturnType<typeof setTimeout> | null; leftMs: number; since: number }>();
  const start = (id: number, ms: number) => {
    timers.set(id, { timer: held ? null : setTimeout(() => get().dismissToast(id), ms), leftMs: ms, since: Date.now() });
  };
  return {
    view: 'chat',
    searchOpen: false,
    summaryOpen: false,
    toasts: [],
    lastUndo: null,
    error: null,
    setView: (view) => set({ view }),
    setSearchOpen: (searchOpen) => set({ searchOpen }),
    setSummaryOpen: (summaryOpen) => set({ summaryOpen }),
    pushToast(toast, durationMs = 5000) {
      const id = nextToastId++;
      const action = toast.action;
      const undo =
        action?.label === 'common.undo'
          ? () => {
              action.run();
              get().dismissToast(id);
            }
          : null;
      if (undo) undoToastId = id;
      set((s) => ({ toasts: [...s.toasts, { ...toast, id }], ...(undo ? { lastUndo: undo } : {}) }));
      if (toast.fixedDuration) setTimeout(() => get().dismissToast(id), durationMs);
      else start(id, durationMs);
      return id;
    },
    dismissToast(id) {
      const entry = timers.get(id);
      if (entry?.timer) clearTimeout(entry.timer);
      timers.delete(id);
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
      // The last one closed under the pointer: no pointerleave comes until the pointer moves.
      if (get().toasts.length === 0) held = false;
    },
    holdToasts(hold) {
      if (hold === held) return;
      held = hold;
      const now = Date.now();
      for (const [id, entry] of timers) {
        if (hold) {
          if (entry.timer) clearTimeout(entry.timer);
          timers.set(id, { timer: null, leftMs: Math.max(0, entry.leftMs - (now - entry.since)), since: now });
        } else {
          start(id, entry.leftMs);
        }
      }
    },
    runToastAction(id) {
      const toast = get().toasts.find((t) => t.id === id);
      if (!toast?.action) return;
      if (id === undoToastId) set({ lastUndo: null });
      toast.action.run();
    },
    undoLast() {
      const undo = get().lastUndo;
      if (!undo) return false;
      set({ lastUndo: null });
      undo();
      return true;
    },
    showError: (error) => set({ error }),
    dismissError: () => set({ error: null }),
  };
});
