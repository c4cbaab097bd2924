/**
 * What the window shows: the current view, open dialogs and panels, notifications (toasts, some with an action such
 * as Undo) and the last unexpected error. No client calls here: these are the user's choices about the screen.
 */
import { create } from 'zustand';
import type { ErrorInfo } from '../../../shared/errors';
import type { MessageKey } from '../i18n/i18n';

export type View = 'chat' | 'settings' | 'memories' | 'timeline';

export interface Toast {
  id: number;
  text: { key: MessageKey; params?: Record<string, string | number> };
  action?: { label: MessageKey; run: () => void };
  /** How many times this same notice was given while it was on screen ("×5" instead of five copies). */
  count: number;
  /**
   * The toast lasts exactly its duration, even under the pointer: its action stops working then (a thread's Undo,
   * whose delete runs on its own timer). Other toasts wait while the pointer or focus is on them.
   */
  fixedDuration?: true;
  /** Notices of one kind ("Mnemo learned…"): a new one takes the place of the one on screen instead of stacking. */
  group?: string;
}

/** One short stack: more notices than this and the oldest one without an action (an Undo) gives way. */
export const MAX_TOASTS = 3;

function sameText(a: Toast['text'], b: Toast['text']): boolean {
  return a.key === b.key && JSON.stringify(a.params ?? {}) === JSON.stringify(b.params ?? {});
}

/** The toast on screen that `toast` takes the place of: the same notice again, or one of its group. */
function placeOf(toasts: Toast[], toast: Omit<Toast, 'id' | 'count'>): Toast | undefined {
  return toasts.find((t) => sameText(t.text, toast.text)) ?? (toast.group === undefined ? undefined : toasts.find((t) => t.group === toast.group));
}

/**
 * The stack after `toast` arrives: a repeat of a notice on screen counts up in its place, a notice of the same group
 * replaces it there; the stack stays short.
 */
export function addToast(toasts: Toast[], toast: Toast): Toast[] {
  const place = placeOf(toasts, toast);
  if (place) {
    const count = sameText(place.text, toast.text) ? place.count + 1 : 1;
    return toasts.map((t) => (t === place ? { ...toast, id: place.id, count } : t));
  }
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
  /** The last Undo offered (Ctrl/Cmd+Z runs it), until it is used or another takes its place. */
  lastUndo: (() => void) | null;
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
  /** The pointer or focus is on the toasts (true): they stay until it leaves, then get their time again. */
  holdToasts(held: boolean): void;
  /**
   * A toast's button: runs its action, and the toast goes (its Undo done, its Show shown: nothing left to offer).
   * Once for an Undo: Ctrl/Cmd+Z will not run it again.
   */
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
      const action = toast.action;
      // A repeat, or another of its group, keeps the id on screen and starts its time again.
      const id = placeOf(get().toasts, toast)?.id ?? nextToastId++;
      const toasts = addToast(get().toasts, { ...toast, id, count: 1 });
      const undo =
        action?.label === 'common.undo'
          ? () => {
              action.run();
              get().dismissToast(id);
            }
          : null;
      if (undo) undoToastId = id;
      set({ toasts, ...(undo ? { lastUndo: undo } : {}) });
      const running = timers.get(id);
      if (running?.timer) clearTimeout(running.timer);
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
      get().dismissToast(id);
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
