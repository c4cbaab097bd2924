/**
 * The window's size and position, remembered across starts in <data folder>/window-state.json.
 * Invariants: a saved state is only ever used after validation; a window is never placed where its title bar cannot
 * be reached (a monitor was unplugged, the resolution changed): then the position is dropped and the OS centres it;
 * its size never exceeds the display it lands on nor goes below the minimum.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_WINDOW_SIZE, MIN_WINDOW_SIZE } from './window-options';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export interface DisplayLike {
  workArea: Rect;
}

export const WINDOW_STATE_FILE = 'window-state.json';

/** How much of the title-bar strip must lie on one display for the window to count as reachable. */
export const TITLE_BAR_HEIGHT = 32;
export const MIN_VISIBLE_WIDTH = 96;

const coordinate = z.number().int().min(-1_000_000).max(1_000_000);
const size = z.number().int().min(1).max(100_000);
const Saved = z.object({ x: coordinate.optional(), y: coordinate.optional(), width: size, height: size, maximized: z.boolean().default(false) });

export const DEFAULT_WINDOW_STATE: WindowState = Object.freeze({ ...DEFAULT_WINDOW_SIZE, maximized: false });

/** Anything read from disk becomes a WindowState or null (unreadable, foreign, or from a future version). */
export function parseWindowState(raw: unknown): WindowState | null {
  const parsed = Saved.safeParse(raw);
  if (!parsed.success) return null;
  const { x, y, width, height, maximized } = parsed.data;
  return x !== undefined && y !== undefined ? { x, y, width, height, maximized } : { width, height, maximized };
}

function intersection(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  };
}

/** True when the title bar strip of `bounds` has a grabbable piece on one display's work area. */
export function isTitleBarReachable(bounds: Rect, displays: readonly DisplayLike[]): boolean {
  const titleBar = { x: bounds.x, y: bounds.y, width: bounds.width, height: Math.min(TITLE_BAR_HEIGHT, bounds.height) };
  const needWidth = Math.min(MIN_VISIBLE_WIDTH, bounds.width);
  return displays.some((d) => {
    const overlap = intersection(titleBar, d.workArea);
    return overlap.width >= needWidth && overlap.height >= titleBar.height;
  });
}

function clampSize(state: WindowState, area: { width: number; height: number }): { width: number; height: number } {
  // A display smaller than the minimum wins over the minimum: the window must fit.
  return {
    width: Math.max(Math.min(MIN_WINDOW_SIZE.width, area.width), Math.min(state.width, area.width)),
    height: Math.max(Math.min(MIN_WINDOW_SIZE.height, area.height), Math.min(state.height, area.height)),
  };
}

/**
 * Fits a saved state to the displays present now. `displays[0]` is the primary display. Without displays (should
 * not happen) the state is kept but the position is dropped.
 */
export function fitToDisplays(state: WindowState | null, displays: readonly DisplayLike[]): WindowState {
  const saved = state ?? DEFAULT_WINDOW_STATE;
  const primary = displays[0];
  if (!primary) return { width: saved.width, height: saved.height, maximized: saved.maximized };
  if (saved.x === undefined || saved.y === undefined) return { ...clampSize(saved, primary.workArea), maximized: saved.maximized };

  const host = displays.find((d) => isTitleBarReachable({ x: saved.x!, y: saved.y!, width: saved.width, height: saved.height }, [d]));
  if (!host) return { ...clampSize(saved, primary.workArea), maximized: saved.maximized };

  const area = host.workArea;
  const { width, height } = clampSize(saved, area);
  // Keep it on the display it was on: pull it back inside the work area where the shrunken size allows.
  const x = Math.min(Math.max(saved.x, area.x), area.x + area.width - width);
  const y = Math.min(Math.max(saved.y, area.y), area.y + area.height - height);
  return { x, y, width, height, maximized: saved.maximized };
}

export interface WindowStateIo {
  read(file: string): string | null;
  /** Must replace the file atomically: a crash mid-write leaves the old state, never half a file. */
  write(file: string, contents: string): void;
}

export const fileIo: WindowStateIo = {
  read(file) {
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  },
  write(file, contents) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, contents);
    fs.renameSync(tmp, file);
  },
};

export interface WindowStateStore {
  load(displays: readonly DisplayLike[]): WindowState;
  save(state: WindowState): void;
}

export function createWindowStateStore(file: string, io: WindowStateIo = fileIo): WindowStateStore {
  return {
    load(displays) {
      const text = io.read(file);
      let raw: unknown = null;
      try {
        raw = text === null ? null : JSON.parse(text);
      } catch {}
      return fitToDisplays(parseWindowState(raw), displays);
    },
    save(state) {
      const valid = parseWindowState(state);
      if (!valid) return;
      try {
        io.write(file, JSON.stringify(valid));
      } catch {
        // Losing the window position is not worth failing a quit for.
      }
    },
  };
}

/** What to save: the normal (restored) bounds even while maximized, so un-maximizing next time lands right. */
export function captureWindowState(window: { getNormalBounds(): Rect; isMaximized(): boolean }): WindowState {
  const b = window.getNormalBounds();
  return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height), maximized: window.isMaximized() };
}
