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
  /** How many times this same notice was given while it was on screen ("×5" instead of five copies). */
  count: number;
}

/** One short stack: more notices than this and the oldest one without an action (an Undo) gives way. */
export const MAX_TOASTS = 3;

function sameText(a: Toast['text'], b: Toast['text']): boolean {
  return a.key === b.key && JSON.stringify(a.params ?? {}) === JSON.stringify(b.params ?? {});
}

/** The stack after `toast` arrives: a repeat of a notice on screen counts up in its place; the stack stays short. */
export function addToast(toasts: Toast[], toast: Toast): Toast[] {
  const repeat = toasts.find((t) => sameText(t.text, toast.text));
  if (repeat) return toasts.map((t) => (t === repeat ? { ...toast, id: repeat.id, count: repeat.count + 1 } : t));
  const next = [...toasts, toast];
  while (next.length > MAX_TOASTS) {
    const drop = next.findIndex((t) => !t.action);
    next.splice(drop === -1 ? 0 : drop, 1);
  }
  return next;
}

interface AppState {
  view: View;
  searchOpen: boolean;
  summaryOpen: boolean;
  toasts: Toast[];
  error: ErrorInfo | null;
  /** Settings has edits not saved yet: leaving it asks first instead of throwing them away. */
  settingsUnsaved: boolean;
  /** Where the user asked to go while Settings had unsaved edits (the question is open), else null. */
  pendingView: View | null;
  /** Goes to `view`; from Settings with unsaved edits, asks first (pendingView). */
  setView(view: View): void;
  setSettingsUnsaved(unsaved: boolean): void;
  /** The answer to the question: leave (the edits are discarded with the form) or stay. */
  leaveSettings(leave: boolean): void;
  setSearchOpen(open: boolean): void;
  setSummaryOpen(open: boolean): void;
  /** Returns the id of the toast that shows it (a repeat returns the id of the one already on screen). */
  pushToast(toast: Omit<Toast, 'id' | 'count'>, durationMs?: number): number;
  dismissToast(id: number): void;
  showError(error: ErrorInfo): void;
  dismissError(): void;
}

export const useAppStore = create<AppState>((set, get) => {
  let nextToastId = 1;
  const timers = new Map<number, ReturnType<typeof setTimeout>>();
  return {
    view: 'chat',
    searchOpen: false,
    summaryOpen: false,
    toasts: [],
    error: null,
    settingsUnsaved: false,
    pendingView: null,
    setView(view) {
      const { view: current, settingsUnsaved } = get();
      if (current === 'settings' && view !== 'settings' && settingsUnsaved) set({ pendingView: view });
      else set({ view, pendingView: null });
    },
    setSettingsUnsaved: (settingsUnsaved) => set({ settingsUnsaved }),
    leaveSettings(leave) {
      const target = get().pendingView;
      if (leave && target) set({ view: target, pendingView: null, settingsUnsaved: false });
      else set({ pendingView: null });
    },
    setSearchOpen: (searchOpen) => set({ searchOpen }),
    setSummaryOpen: (summaryOpen) => set({ summaryOpen }),
    pushToast(toast, durationMs = 5000) {
      const toasts = addToast(get().toasts, { ...toast, id: nextToastId++, count: 1 });
      set({ toasts });
      // A repeat keeps the id on screen and starts its time again.
      const id = toasts.find((t) => sameText(t.text, toast.text))!.id;
      clearTimeout(timers.get(id));
      timers.set(id, setTimeout(() => get().dismissToast(id), durationMs));
      return id;
    },
    dismissToast(id) {
      clearTimeout(timers.get(id));
      timers.delete(id);
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },
    showError: (error) => set({ error }),
    dismissError: () => set({ error: null }),
  };
});
