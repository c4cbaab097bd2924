/** Time, behind a port so tests can move it (clock jumps, expiry, half-lives) without sleeping. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
