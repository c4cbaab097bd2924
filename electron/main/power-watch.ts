/**
 * Tells the core whether the computer runs on battery, for settings.learningNeedsPower (the model lane holds
 * background model work on battery when the user asked for it). Electron's powerMonitor answers
 * isOnBatteryPower() on every platform, but its events do not come everywhere: 'on-battery' only on macOS, 'on-ac' on
 * macOS and Windows, neither on Linux (electron.d.ts, Electron 45). So the events report a change at once where they
 * exist, and a slow look every `pollMs` catches it where they do not. Only a change is reported, and the state at
 * the start.
 */

/** The part of Electron's powerMonitor used here (a fake in tests). */
export interface PowerSource {
  isOnBatteryPower(): boolean;
  on(event: 'on-battery' | 'on-ac' | 'resume', listener: () => void): unknown;
  off(event: 'on-battery' | 'on-ac' | 'resume', listener: () => void): unknown;
}

const EVENTS = ['on-battery', 'on-ac', 'resume'] as const;

/** Returns a function that stops watching. */
export function watchPower(source: PowerSource, report: (onBattery: boolean) => void, options: { pollMs?: number } = {}): () => void {
  let last: boolean | null = null;
  const look = () => {
    let now: boolean;
    try {
      now = source.isOnBatteryPower();
    } catch {
      return; // no answer this time: the last one stands
    }
    if (now === last) return;
    last = now;
    report(now);
  };
  look();
  for (const event of EVENTS) source.on(event, look);
  const timer = setInterval(look, options.pollMs ?? 30_000);
  timer.unref?.();
  return () => {
    clearInterval(timer);
    for (const event of EVENTS) source.off(event, look);
  };
}
