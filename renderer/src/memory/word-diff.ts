/**
 * A word diff between two versions of a memory, for the version history. Tokens are words, runs of spaces and single
 * punctuation marks; each Chinese/Japanese/Korean character is a token of its own (those scripts have no spaces, and
 * a changed character should not mark the whole sentence). Invariant: the `same` and `removed` parts, in order, spell
 * the old text; the `same` and `added` parts spell the new one.
 */
export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}_'’-]+|\s+|./gsu;
/** Beyond this many cells the table is not built: the whole text shows as replaced (memories are at most 4000 chars). */
const MAX_CELLS = 4_000_000;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function diffWords(before: string, after: string): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  push('same', a.slice(0, start).join(''));
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if (midA.length * midB.length > MAX_CELLS) {
    push('removed', midA.join(''));
    push('added', midB.join(''));
  } else {
    for (const part of lcsDiff(midA, midB)) push(part.kind, part.text);
  }
  push('same', a.slice(endA).join(''));
  return parts;
}

/** Longest common subsequence over tokens; removals are listed before additions at each change. */
function lcsDiff(a: string[], b: string[]): DiffPart[] {
  const n = a.length;
  const m = b.length;
  // lengths[i * (m + 1) + j]: LCS length of a[i..] and b[j..].
  const lengths = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * (m + 1) + j] = a[i] === b[j] ? lengths[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lengths[(i + 1) * (m + 1) + j]!, lengths[i * (m + 1) + j + 1]!);
    }
  }
  const out: DiffPart[] = [];
  let i = 0;
  let j = 0;
  let removed = '';
  let added = '';
  const flush = () => {
    if (removed) out.push({ kind: 'removed', text: removed });
    if (added) out.push({ kind: 'added', text: added });
    removed = '';
    added = '';
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      flush();
      out.push({ kind: 'same', text: a[i]! });
      i++;
      j++;
    } else if (j >= m || (i < n && lengths[(i + 1) * (m + 1) + j]! >= lengths[i * (m + 1) + j + 1]!)) {
      removed += a[i++];
    } else {
      added += b[j++];
    }
  }
  flush();
  return out;
}
