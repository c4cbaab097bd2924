import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_WINDOW_SIZE, MIN_WINDOW_SIZE } from '../../electron/main/window-options';
import {
  captureWindowState,
  createWindowStateStore,
  fitToDisplays,
  isTitleBarReachable,
  parseWindowState,
  type DisplayLike,
  type Rect,
  type WindowState,
  type WindowStateIo,
} from '../../electron/main/window-state';

const laptop: DisplayLike = { workArea: { x: 0, y: 25, width: 1440, height: 875 } };
const rightMonitor: DisplayLike = { workArea: { x: 1440, y: 0, width: 2560, height: 1440 } };

function memoryIo(initial: Record<string, string> = {}): WindowStateIo & { files: Record<string, string> } {
  const files = { ...initial };
  return {
    files,
    read: (file) => files[file] ?? null,
    write: (file, contents) => {
      files[file] = contents;
    },
  };
}

const inside = (r: Rect, area: Rect) => r.x >= area.x && r.y >= area.y && r.x + r.width <= area.x + area.width && r.y + r.height <= area.y + area.height;

describe('parseWindowState', () => {
  it('accepts what Mnemo saves and refuses anything else', () => {
    expect(parseWindowState({ x: 10, y: 20, width: 900, height: 700, maximized: true })).toEqual({ x: 10, y: 20, width: 900, height: 700, maximized: true });
    expect(parseWindowState({ width: 900, height: 700 })).toEqual({ width: 900, height: 700, maximized: false });
    // Half a position is no position.
    expect(parseWindowState({ x: 10, width: 900, height: 700 })).toEqual({ width: 900, height: 700, maximized: false });
    for (const bad of [null, 'x', [], {}, { width: '900', height: 700 }, { width: 0, height: 700 }, { width: 900.5, height: 700 }, { width: Number.NaN, height: 1 }, { width: 1e9, height: 700 }, { x: 1e12, y: 0, width: 900, height: 700 }]) {
      expect(parseWindowState(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});

describe('fitToDisplays', () => {
  it('keeps a window where it was when that display is still there', () => {
    const saved: WindowState = { x: 1600, y: 100, width: 1200, height: 900, maximized: false };
    expect(fitToDisplays(saved, [laptop, rightMonitor])).toEqual(saved);
  });

  it('drops the position when the display it was on is gone (the OS centres it) and fits the size to the primary', () => {
    const saved: WindowState = { x: 1600, y: 100, width: 2400, height: 1300, maximized: true };
    expect(fitToDisplays(saved, [laptop])).toEqual({ width: 1440, height: 875, maximized: true });
  });

  it('pulls a partly off-screen window back onto its display and shrinks one larger than it', () => {
    expect(fitToDisplays({ x: 1000, y: 500, width: 1000, height: 800, maximized: false }, [laptop])).toEqual({ x: 440, y: 100, width: 1000, height: 800, maximized: false });
    expect(fitToDisplays({ x: -10, y: 25, width: 3000, height: 2000, maximized: false }, [laptop])).toEqual({ x: 0, y: 25, width: 1440, height: 875, maximized: false });
  });

  it('treats a title bar above the top of every display as unreachable', () => {
    expect(isTitleBarReachable({ x: 100, y: -500, width: 800, height: 600 }, [laptop])).toBe(false);
    expect(fitToDisplays({ x: 100, y: -500, width: 800, height: 600, maximized: false }, [laptop])).toEqual({ width: 800, height: 600, maximized: false });
  });

  it('starts with the default size, within the primary display, when nothing was saved', () => {
    expect(fitToDisplays(null, [rightMonitor])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
    expect(fitToDisplays(null, [{ workArea: { x: 0, y: 0, width: 1024, height: 600 } }])).toEqual({ width: 1024, height: 600, maximized: false });
  });

  it('grows a saved size below the minimum back to the minimum, unless the display is smaller still', () => {
    expect(fitToDisplays({ width: 100, height: 100, maximized: false }, [laptop])).toEqual({ ...MIN_WINDOW_SIZE, maximized: false });
    expect(fitToDisplays({ width: 100, height: 100, maximized: false }, [{ workArea: { x: 0, y: 0, width: 640, height: 400 } }])).toEqual({
      width: 640,
      height: 400,
      maximized: false,
    });
  });

  it('always returns a window that is wholly on one display, or no position at all', () => {
    const area = fc.record({ x: fc.integer({ min: -5000, max: 5000 }), y: fc.integer({ min: -3000, max: 3000 }), width: fc.integer({ min: 320, max: 6000 }), height: fc.integer({ min: 240, max: 4000 }) });
    const saved = fc.record(
      { x: fc.integer({ min: -20000, max: 20000 }), y: fc.integer({ min: -20000, max: 20000 }), width: fc.integer({ min: 1, max: 20000 }), height: fc.integer({ min: 1, max: 20000 }), maximized: fc.boolean() },
      { requiredKeys: ['width', 'height', 'maximized'] },
    );
    fc.assert(
      fc.property(saved, fc.array(area.map((workArea) => ({ workArea })), { minLength: 1, maxLength: 3 }), (state, displays) => {
        const fitted = fitToDisplays(parseWindowState(state), displays);
        expect(fitted.maximized).toBe(state.maximized);
        if (fitted.x === undefined || fitted.y === undefined) {
          expect(fitted.width).toBeLessThanOrEqual(Math.max(displays[0]!.workArea.width, 1));
          expect(fitted.height).toBeLessThanOrEqual(Math.max(displays[0]!.workArea.height, 1));
        } else {
          const rect = { x: fitted.x, y: fitted.y, width: fitted.width, height: fitted.height };
          const host = displays.find((d) => inside(rect, d.workArea));
          expect(host, JSON.stringify({ state, displays, fitted })).toBeDefined();
          expect(isTitleBarReachable(rect, displays)).toBe(true);
          expect(fitted.width).toBeGreaterThanOrEqual(Math.min(MIN_WINDOW_SIZE.width, host!.workArea.width));
        }
      }),
    );
  });
});

describe('window state store', () => {
  const file = '/data/window-state.json';

  it('round-trips what it saved, refitted to the displays present at load', () => {
    const io = memoryIo();
    const store = createWindowStateStore(file, io);
    store.save({ x: 1600, y: 100, width: 1200, height: 900, maximized: true });
    expect(JSON.parse(io.files[file]!)).toEqual({ x: 1600, y: 100, width: 1200, height: 900, maximized: true });
    expect(store.load([laptop, rightMonitor])).toEqual({ x: 1600, y: 100, width: 1200, height: 900, maximized: true });
    expect(store.load([laptop])).toEqual({ width: 1200, height: 875, maximized: true });
  });

  it('starts from the defaults when the file is missing, not JSON, or not a window state', () => {
    for (const contents of [undefined, '{', '"hello"', '{"width":-1,"height":5}']) {
      const store = createWindowStateStore(file, memoryIo(contents === undefined ? {} : { [file]: contents }));
      expect(store.load([rightMonitor])).toEqual({ ...DEFAULT_WINDOW_SIZE, maximized: false });
    }
  });

  it('never writes an invalid state and never lets a failed write escape', () => {
    const io = memoryIo();
    const store = createWindowStateStore(file, io);
    store.save({ x: 0, y: 0, width: Number.NaN, height: 10, maximized: false });
    expect(io.files).toEqual({});
    const failing = createWindowStateStore(file, { read: () => null, write: () => {
      throw new Error('EACCES');
    } });
    expect(() => failing.save({ width: 900, height: 700, maximized: false })).not.toThrow();
  });

  it('captures the restored bounds of a maximized window, rounded', () => {
    const state = captureWindowState({ getNormalBounds: () => ({ x: 10.4, y: 20.6, width: 900.2, height: 700.7 }), isMaximized: () => true });
    expect(state).toEqual({ x: 10, y: 21, width: 900, height: 701, maximized: true });
  });
});
