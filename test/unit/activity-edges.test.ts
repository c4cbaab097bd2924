// The chart's calendar is the user's: run in a zone with daylight saving (Berlin: 2026-03-29 has 23 hours,
// 2026-10-25 has 25). Vitest runs each test file in its own process, and Node applies a TZ set at runtime.
process.env.TZ = 'Europe/Berlin';

import { describe, expect, it } from 'vitest';
import { activityEdges } from '../../renderer/src/timeline/activity-chart';

const HOUR = 3_600_000;
const local = (at: number) => {
  const d = new Date(at);
  return [d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getDay()];
};

describe('activityEdges', () => {
  it('days: 84 buckets from local midnight to local midnight, ending after today, 23 or 25 hours across a change', () => {
    const now = new Date(2026, 2, 30, 10, 15).getTime(); // Monday 30 March 2026, 10:15 in Berlin
    const edges = activityEdges(now, 'day', 'Europe/Berlin');
    expect(edges).toHaveLength(85);
    expect(edges.every((e) => local(e)[3] === 0 && local(e)[4] === 0)).toBe(true);
    expect(local(edges[84]!).slice(0, 3)).toEqual([2026, 3, 31]);
    expect(edges[84]! > now && edges[83]! <= now).toBe(true);
    expect(edges[84]! - edges[83]!).toBe(24 * HOUR);
    expect(edges[83]! - edges[82]!).toBe(23 * HOUR); // 29 March: clocks go forward
    expect(edges[82]! - edges[81]!).toBe(24 * HOUR);
    const autumn = activityEdges(new Date(2026, 9, 26, 8).getTime(), 'day', 'Europe/Berlin');
    expect(autumn[84]! - autumn[83]!).toBe(24 * HOUR);
    expect(autumn[83]! - autumn[82]!).toBe(25 * HOUR); // 25 October: clocks go back
    expect(autumn[82]! - autumn[81]!).toBe(24 * HOUR);
    expect(new Set(edges).size).toBe(edges.length);
  });

  it('weeks: 52 buckets from Monday to Monday, the last one holding today', () => {
    for (const [y, m, d] of [[2026, 2, 30], [2026, 3, 5], [2026, 3, 4], [2026, 9, 25]] as const) {
      const now = new Date(y, m, d, 23, 59).getTime();
      const edges = activityEdges(now, 'week', 'Europe/Berlin');
      expect(edges).toHaveLength(53);
      expect(edges.every((e) => local(e)[5] === 1 && local(e)[3] === 0)).toBe(true);
      expect(edges[52]! > now && edges[51]! <= now).toBe(true);
    }
  });
});
