import fs from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { processStateOf } from '../../electron/core/jobs/lease-owner';

/** The state letter of a process in /proc (Linux): 'R', 'S', 'Z' (zombie)...; null when it has none (gone, or no /proc). */
export function processState(pid: number): string | null {
  try {
    return processStateOf(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Polls until the process is in `state`: a signal is delivered at once, its effect is seen a moment later. */
export async function waitForState(pid: number, state: string): Promise<void> {
  while (processState(pid) !== state) await sleep(10);
}
