/**
 * Cooperative time slicing for long synchronous loops on the thread that answers calls (the web host's, the desktop
 * core process's). better-sqlite3 and most of the core are synchronous, so a loop over thousands of rows holds every
 * other call until it ends (issue 11: a status call waited 97 s behind an import). A loop that calls
 * `await slicer.yield()` between steps gives the event loop a turn whenever its slice has used the budget.
 *
 * Invariant: yield() never runs inside a transaction's callback (better-sqlite3 transactions are synchronous and must
 * not span turns: another call's writes would join them). Callers slice between transactions, or loops that only read.
 */

/** Long enough that yielding costs little throughput, short enough that a waiting call is answered promptly. */
export const SLICE_BUDGET_MS = 20;

export interface TimeSlicer {
  /** Whether the current slice has used its budget (a transaction-sized loop can end its batch here). */
  spent(): boolean;
  /** Gives pending I/O and other calls a turn (setImmediate) when the slice is spent, then starts a new slice. */
  yield(): Promise<void>;
}

export function createTimeSlicer(budgetMs = SLICE_BUDGET_MS, now: () => number = () => performance.now()): TimeSlicer {
  let started = now();
  const spent = () => now() - started >= budgetMs;
  return {
    spent,
    async yield() {
      if (!spent()) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
      started = now();
    },
  };
}
