/**
 * The activity chart: its buckets in the user's calendar, and its geometry (one bar per bucket, scaled to the
 * busiest bucket; no chart library).
 */
import { addDays, dayOf, isoWeekday, startOfDay } from '../../../shared/calendar-day';

export interface Bucket {
  start: number;
  learned: number;
  changed: number;
}

export interface Bar {
  start: number;
  x: number;
  width: number;
  /** Learned on top of changed, stacked from the baseline. */
  learnedHeight: number;
  changedHeight: number;
  total: number;
}

/** Bars fill `width`; each gets at least 1 px of gap; the tallest reaches `height`. Empty buckets keep a 1 px stub. */
export function layoutBars(buckets: readonly Bucket[], width: number, height: number): Bar[] {
  if (buckets.length === 0 || width <= 0 || height <= 0) return [];
  const max = Math.max(1, ...buckets.map((b) => b.learned + b.changed));
  const slot = width / buckets.length;
  const barWidth = Math.max(1, slot - Math.max(1, slot * 0.2));
  return buckets.map((b, i) => {
    const total = b.learned + b.changed;
    const scale = height / max;
    return {
      start: b.start,
      x: i * slot + (slot - barWidth) / 2,
      width: barWidth,
      learnedHeight: b.learned * scale,
      changedHeight: b.changed * scale,
      total,
    };
  });
}

/**
 * Edges of the chart's buckets in the user's time zone (timeZone: selectTimeZone), oldest first, ending with the
 * start of the day after `now`: 84 days, or 52 weeks from Monday. Each edge is the start of a calendar day
 * (shared/calendar-day.ts), so a day of a daylight-saving change is 23 or 25 hours long, as the user lives it.
 */
export function activityEdges(now: number, bucket: 'day' | 'week', timeZone: string): number[] {
  let end = addDays(dayOf(now, timeZone), 1);
  // Weeks end on the Monday after this week (isoWeekday: Monday 0 ... Sunday 6).
  if (bucket === 'week') end = addDays(end, (7 - isoWeekday(end)) % 7);
  const step = bucket === 'week' ? 7 : 1;
  const count = bucket === 'week' ? 52 : 84;
  const edges: number[] = [];
  for (let i = count; i >= 0; i--) edges.push(startOfDay(addDays(end, -i * step), timeZone));
  return edges;
}
