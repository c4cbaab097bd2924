/**
 * The daily tasks and their order (daily-scheduler.ts runs them one at a time, each when a day has passed since its
 * last run):
 * 1. the automatic backup first: the day's copy holds what maintenance is about to change (merges, decay, the cap).
 *    Old trash maintenance purges is erased from every backup as well, this one included: deleted for good means gone
 *    from the backups too;
 * 2. memory maintenance;
 * 3. the profile, rewritten from what maintenance left (skipped when nothing it reads changed);
 * 4. the working memory's expired rows removed (focus.service.ts).
 * They run on their own only in the long-running hosts (the desktop app, the web host): a CLI command or a test does
 * not back up or maintain unless asked.
 */
import type { AppInfo } from '../../../shared/contract';
import type { DailyTask } from '../runtime/daily-scheduler';

export interface DailyTaskSources {
  backups: { lastAutomaticAt(): number | null; backup(kind: 'automatic'): Promise<unknown> };
  maintenance: { lastRunAt(): number | null; run(): Promise<unknown> };
  profile: { lastDailyAt(): number | null; refreshDaily(): void };
  workingMemoryCleanup: DailyTask;
}

export function dailyTasks(from: DailyTaskSources): DailyTask[] {
  return [
    { name: 'backup', lastRunAt: () => from.backups.lastAutomaticAt(), run: () => from.backups.backup('automatic') },
    { name: 'maintenance', lastRunAt: () => from.maintenance.lastRunAt(), run: () => from.maintenance.run() },
    { name: 'profile', lastRunAt: () => from.profile.lastDailyAt(), run: async () => from.profile.refreshDaily() },
    from.workingMemoryCleanup,
  ];
}

/** Whether the daily tasks run on their own in this host, unless the host says (CoreOptions.dailyTasks). */
export function dailyTasksRunOnTheirOwn(host: AppInfo['host'], asked: boolean | undefined): boolean {
  return asked ?? (host === 'electron' || host === 'web');
}
