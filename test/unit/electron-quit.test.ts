import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQuitController, FORCE_WINDOW_MS, SHUTDOWN_DEADLINE_MS, type QuitDeps } from '../../electron/main/quit-controller';

/** A stand-in for Electron's app: quit() emits before-quit again, like the real one, and counts what happened. */
function fakeApp(shutdown: QuitDeps['shutdown']) {
  const events: string[] = [];
  const app = {
    events,
    exitCode: null as number | null,
    requestQuit(): boolean {
      const event = { prevented: false, preventDefault: () => (event.prevented = true) };
      controller.onBeforeQuit(event);
      if (!event.prevented) events.push('quit');
      return event.prevented;
    },
  };
  const logger = { warn: vi.fn(), error: vi.fn() };
  const controller = createQuitController({
    shutdown: () => {
      events.push('shutdown');
      return shutdown();
    },
    quit: () => app.requestQuit(),
    exit: (code) => {
      events.push(`exit ${code}`);
      app.exitCode = code;
    },
    logger,
  });
  return { app, controller, logger };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('quit controller', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('holds the first quit until the core has shut down, then quits for real, once', async () => {
    const d = deferred();
    const { app, controller } = fakeApp(() => d.promise);
    expect(app.requestQuit()).toBe(true);
    expect(controller.state).toBe('stopping');
    expect(app.events).toEqual(['shutdown']);
    d.resolve();
    await vi.waitFor(() => expect(controller.state).toBe('stopped'));
    expect(app.events).toEqual(['shutdown', 'quit']);
    expect(app.exitCode).toBeNull();
    // Later before-quit events (Electron emits more while closing) pass straight through.
    expect(app.requestQuit()).toBe(false);
  });

  it('a second request within the force window exits at once, and the late shutdown changes nothing', async () => {
    const d = deferred();
    const { app, logger } = fakeApp(() => d.promise);
    app.requestQuit();
    vi.advanceTimersByTime(FORCE_WINDOW_MS - 1);
    app.requestQuit();
    expect(app.events).toEqual(['shutdown', 'exit 1']);
    expect(logger.warn).toHaveBeenCalledWith('quit forced before the shutdown finished', { reason: 'second quit request' });
    d.resolve();
    // The controller's handler was attached first, so it has run once this await returns.
    await d.promise;
    expect(app.events).toEqual(['shutdown', 'exit 1']);
  });

  it('a request after the window has passed only starts a new window; the next quick one forces', () => {
    const { app } = fakeApp(() => new Promise(() => {}));
    app.requestQuit();
    vi.advanceTimersByTime(FORCE_WINDOW_MS + 1);
    app.requestQuit();
    expect(app.events).toEqual(['shutdown']);
    vi.advanceTimersByTime(1000);
    app.requestQuit();
    expect(app.events).toEqual(['shutdown', 'exit 1']);
  });

  it('gives up on a shutdown that outlives the deadline (the window is gone; nobody can ask twice)', () => {
    const { app, logger } = fakeApp(() => new Promise(() => {}));
    app.requestQuit();
    vi.advanceTimersByTime(SHUTDOWN_DEADLINE_MS - 1);
    expect(app.events).toEqual(['shutdown']);
    vi.advanceTimersByTime(1);
    expect(app.events).toEqual(['shutdown', 'exit 1']);
    expect(logger.warn).toHaveBeenCalledWith('quit forced before the shutdown finished', { reason: 'shutdown deadline' });
  });

  it('a shutdown that fails, or throws outright, still ends the app, with exit code 1 and the reason logged', async () => {
    const failing = fakeApp(() => Promise.reject(new Error('disk I/O error')));
    failing.app.requestQuit();
    await vi.waitFor(() => expect(failing.app.events).toEqual(['shutdown', 'exit 1']));
    expect(failing.logger.error).toHaveBeenCalledWith('shutdown failed', { error: 'disk I/O error' });

    const throwing = fakeApp(() => {
      throw new Error('boom');
    });
    throwing.app.requestQuit();
    await vi.waitFor(() => expect(throwing.app.events).toEqual(['shutdown', 'exit 1']));
  });

  it('a finished shutdown cancels the deadline', async () => {
    const { app } = fakeApp(() => Promise.resolve());
    app.requestQuit();
    await vi.waitFor(() => expect(app.events).toEqual(['shutdown', 'quit']));
    vi.advanceTimersByTime(SHUTDOWN_DEADLINE_MS * 2);
    expect(app.events).toEqual(['shutdown', 'quit']);
  });
});
