import { expect } from 'vitest';

/**
 * Waits for a real condition (a request arrived, a job is done, a worker exited), never for time to pass: checks it
 * every few milliseconds and fails naming `what` when it does not hold within 30 s.
 */
export async function until(check: () => boolean | Promise<boolean>, what = 'the condition'): Promise<void> {
  await expect.poll(check, { timeout: 30_000, interval: 5, message: `waiting for ${what}` }).toBe(true);
}
