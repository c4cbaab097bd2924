/**
 * Search as you type: a keystroke after a pause searches at once (nothing to wait for), keystrokes that follow
 * within `intervalMs` of the last search are folded into one search at the end of that interval. So a single edit
 * answers as fast as the core can, and fast typing asks at most once per interval, always ending with the last text.
 */
export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface Throttled<A> {
  (arg: A): void;
  cancel(): void;
}

export function throttleTrailing<A>(intervalMs: number, run: (arg: A) => void, timers: Timers = realTimers): Throttled<A> {
  let lastRun = Number.NEGATIVE_INFINITY;
  let pending: { arg: A } | null = null;
  let handle: unknown = null;
  const fire = () => {
    handle = null;
    if (!pending) return;
    const { arg } = pending;
    pending = null;
    lastRun = timers.now();
    run(arg);
  };
  const throttled = ((arg: A) => {
    pending = { arg };
    const wait = lastRun + intervalMs - timers.now();
    if (wait <= 0 && handle === null) fire();
    else if (handle === null) handle = timers.setTimeout(fire, Math.max(0, wait));
  }) as Throttled<A>;
  throttled.cancel = () => {
    if (handle !== null) timers.clearTimeout(handle);
    handle = null;
    pending = null;
  };
  return throttled;
}
