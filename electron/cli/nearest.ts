/** "Did you mean": the known word closest to what was typed, for setting keys and option names alike. */

/** Edit distance: names are short, so the plain quadratic table is enough. */
export function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/**
 * The candidate nearest to `typed` (case ignored), or null when none is near enough to be a likely slip: more than
 * half the typed word would have to change (a suggestion then would only confuse). `always` skips that limit.
 */
export function nearest(typed: string, candidates: readonly string[], always = false): string | null {
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(typed.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [c, d];
  }
  if (always) return best;
  return best !== null && bestDistance <= Math.max(2, Math.ceil(typed.length / 2)) ? best : null;
}
