/** Geometry of the activity chart: one bar per bucket, scaled to the busiest bucket (no chart library). */
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
