import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { watchPower, type PowerSource } from '../../electron/main/power-watch';

/** A powerMonitor whose battery state the test sets, and whose events it fires (or, as on Linux, does not). */
function fakePower(onBattery: boolean) {
  const listeners = new Map<string, Set<() => void>>();
  const source: PowerSource & { battery: boolean; fire(event: string): void; listening(): number } = {
    battery: onBattery,
    isOnBatteryPower: () => source.battery,
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)!.add(listener);
    },
    off: (event, listener) => listeners.get(event)?.delete(listener),
    fire: (event) => listeners.get(event)?.forEach((l) => l()),
    listening: () => [...listeners.values()].reduce((n, set) => n + set.size, 0),
  };
  return source;
}

describe('watchPower', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('reports the state at the start, then each change an event announces, once', () => {
    const power = fakePower(false);
    const reports: boolean[] = [];
    watchPower(power, (b) => reports.push(b));
    power.battery = true;
    power.fire('on-battery');
    power.fire('on-battery');
    power.battery = false;
    power.fire('on-ac');
    expect(reports).toEqual([false, true, false]);
  });

  it('without events (Linux; Windows going on battery) a slow look finds the change', () => {
    const power = fakePower(false);
    const reports: boolean[] = [];
    watchPower(power, (b) => reports.push(b), { pollMs: 1000 });
    power.battery = true;
    vi.advanceTimersByTime(999);
    expect(reports).toEqual([false]);
    vi.advanceTimersByTime(1);
    expect(reports).toEqual([false, true]);
    vi.advanceTimersByTime(5000);
    expect(reports).toEqual([false, true]);
  });

  it('a failed look keeps the last state; stopping removes the listeners and the timer', () => {
    const power = fakePower(true);
    const reports: boolean[] = [];
    const stop = watchPower(power, (b) => reports.push(b), { pollMs: 1000 });
    power.isOnBatteryPower = () => {
      throw new Error('no battery service');
    };
    vi.advanceTimersByTime(3000);
    expect(reports).toEqual([true]);
    stop();
    expect(power.listening()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });
});
