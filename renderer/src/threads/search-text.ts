/** Local title matching and result excerpts for the search dialog. */

/** A short excerpt of a message around the first word of the query it contains (or its start). */
export function snippet(text: string, query: string, max = 140): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const lower = flat.toLowerCase();
  const hits = query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => lower.indexOf(w))
    .filter((i) => i >= 0);
  const at = hits.length > 0 ? Math.min(...hits) : 0;
  const start = Math.max(0, Math.min(at - Math.floor(max / 3), flat.length - max));
  const end = start + max;
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}

/** Every word of the query appears in the title, in any order, ignoring case. */
export function matchTitle(title: string, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = title.toLowerCase();
  return words.length > 0 && words.every((w) => haystack.includes(w));
}
