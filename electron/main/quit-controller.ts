/**
 * Graceful quit. The first quit request (menu, Cmd/Ctrl+Q, last window closed, SIGINT/SIGTERM, which Electron turns
 * into app.quit()) is held back while the core shuts down: it stops taking work, lets the running job finish or
 * release its lease, checkpoints the WAL and closes the database. Then the app quits for real.
 *
 * A second request within FORCE_WINDOW_MS of the previous one forces the exit, and so does a shutdown that outlives
 * SHUTDOWN_DEADLINE_MS (with the window gone the user could not ask twice). Forcing is safe for the data: SQLite in
 * WAL mode with synchronous=FULL loses no committed transaction, and a job whose lease is not released is claimed
 * again once the lease expires (fencing token). It only skips the tidy-up, so the exit code is 1.
 */
export const FORCE_WINDOW_MS = 3_000;
export const SHUTDOWN_DEADLINE_MS = 30_000;

export interface QuitDeps {
  /** Stops accepting work and disposes the core. */
  shutdown(): Promise<void>;
  /** app.quit(): emits before-quit again, which is let through once the shutdown is done. */
  quit(): void;
  /** app.exit(code): immediate, no further events; the host also ends the core process. */
  exit(code: number): void;
  logger?: { warn(message: string, fields?: Record<string, unknown>): void; error(message: string, fields?: Record<string, unknown>): void };
  now?: () => number;
  forceWindowMs?: number;
  deadlineMs?: number;
}

export type QuitState = 'running' | 'stopping' | 'stopped';

export interface QuitController {
  /** Wire to app.on('before-quit'). */
  onBeforeQuit(event: { preventDefault(): void }): void;
  readonly state: QuitState;
}

export function createQuitController(deps: QuitDeps): QuitController {
  const now = deps.now ?? (() => Date.now());
  const forceWindowMs = deps.forceWindowMs ?? FORCE_WINDOW_MS;
  const deadlineMs = deps.deadlineMs ?? SHUTDOWN_DEADLINE_MS;
  let state: QuitState = 'running';
  let lastRequestAt = 0;
  let deadline: ReturnType<typeof setTimeout> | undefined;

  const finish = (how: () => void) => {
    if (state === 'stopped') return;
    state = 'stopped';
    if (deadline !== undefined) clearTimeout(deadline);
    how();
  };
  const force = (reason: string) =>
    finish(() => {
      deps.logger?.warn('quit forced before the shutdown finished', { reason });
      deps.exit(1);
    });

  return {
    get state() {
      return state;
    },
    onBeforeQuit(event) {
      if (state === 'stopped') return;
      event.preventDefault();
      const at = now();
      if (state === 'stopping') {
        if (at - lastRequestAt <= forceWindowMs) force('second quit request');
        else lastRequestAt = at;
        return;
      }
      state = 'stopping';
      lastRequestAt = at;
      deadline = setTimeout(() => force('shutdown deadline'), deadlineMs);
      let shutdown: Promise<void>;
      try {
        shutdown = deps.shutdown();
      } catch (e) {
        shutdown = Promise.reject(e);
      }
      shutdown.then(
        () => finish(() => deps.quit()),
        (e: unknown) =>
          finish(() => {
            deps.logger?.error('shutdown failed', { error: (e as Error)?.message });
            deps.exit(1);
          }),
      );
    },
  };
}
