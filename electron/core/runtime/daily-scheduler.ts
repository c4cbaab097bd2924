/**
 * Runs daily housekeeping (the automatic backup, then memory maintenance) in a long-running host: shortly after start
 * when the last run is older than a day, then whenever a periodic check finds it due again. The last run of each task
 * is read from where the task leaves its trace (the backup files, the timeline), so nothing extra is stored and a
 * restored database carries its own history.
 *
 * Checks are frequent and cheap rather than one 24-hour timer: a laptop asleep at the due time catches up when it wakes.
 * Tasks run one at a time, in order; a failing task is logged and does not stop the others. stop() waits for a running
 * task, so the database is never closed under one.
 */
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';

export interface DailyTask {
  name: string;
  lastRunAt(): number | null;
  run(): unknown;
}

export interface DailyScheduler {
  start(): void;
  /** Runs the tasks that are due now; resolves with their names. */
  runDue(): Promise<string[]>;
  stop(): Promise<void>;
}

export const DAY_MS = 86_400_000;

export function createDailyScheduler(opts: {
  clock: Clock;
  logger: Logger;
  tasks: DailyTask[];
  everyMs?: number;
  checkEveryMs?: number;
  /** Delay of the first check, so start-up (window, first answers) goes first. */
  firstCheckAfterMs?: number;
}): DailyScheduler {
  const { clock, logger, tasks } = opts;
  const everyMs = opts.everyMs ?? DAY_MS;
  let current: Promise<string[]> = Promise.resolve([]);
  let stopped = false;
  const timers: Array<ReturnType<typeof setTimeout>> = [];

  async function runDueNow(): Promise<string[]> {
    const ran: string[] = [];
    for (const task of tasks) {
      if (stopped) break;
      try {
        const last = task.lastRunAt();
        if (last !== null && clock.now() - last < everyMs) continue;
        await task.run();
        ran.push(task.name);
      } catch (e) {
        logger.error('daily task failed', { task: task.name, code: (e as { code?: string }).code ?? 'error' });
      }
    }
    return ran;
  }

  function runDue(): Promise<string[]> {
    // Chained, so two checks never run the same task twice at once.
    current = current.then(runDueNow, runDueNow);
    return current;
  }

  return {
    start() {
      if (stopped || timers.length > 0) return;
      const first = setTimeout(() => void runDue(), opts.firstCheckAfterMs ?? 15_000);
      const periodic = setInterval(() => void runDue(), opts.checkEveryMs ?? 3_600_000);
      first.unref?.();
      periodic.unref?.();
      timers.push(first, periodic);
    },
    runDue,
    async stop() {
      stopped = true;
      for (const t of timers.splice(0)) clearTimeout(t);
      await current.catch(() => undefined);
    },
  };
}
