/**
 * A word diff between two versions of a memory, for the version history. Tokens are words, runs of spaces and single
 * punctuation marks; each Chinese/Japanese/Korean character is a token of its own (those scripts have no spaces, and
 * a changed character should not mark the whole sentence). Invariant: the `same` and `removed` parts, in order, spell
 * the old text; the `same` and `added` parts spell the new one.
 *
 * The alignment is jsdiff's (`diffArrays`, Myers' O(ND) diff) over these tokens; the tokens stay Mnemo's. Not its
 * `diffWordsWithSpace` (checked on the cases in test/unit/memory-ui.test.ts, diff 9.0): it keeps CJK per character
 * and both texts exact, but its word characters are Latin only, so мир -> мира marks a letter inside a Cyrillic or
 * Greek word (https://github.com/kpdecker/jsdiff/pull/328), and its work has no bound: two unrelated 4,000-character
 * Chinese memories took 10 s (the renderer runs this on its one thread).
 */
import { diffArrays } from 'diff';

export type DiffPart = { kind: 'same' | 'added' | 'removed'; text: string };

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[\p{L}\p{N}_'’-]+|\s+|./gsu;
/**
 * Past this many changed tokens the versions are a rewrite, not an edit: the whole middle shows as replaced. Bounds
 * the work on the renderer's thread (tens of milliseconds for two unrelated 4,000-character memories, the longest).
 */
const MAX_EDITS = 500;

export function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

export function diffWords(before: string, after: string): DiffPart[] {
  const a = tokenize(before);
  const b = tokenize(after);
  // The unchanged start and end stay `same` even when the middle is a rewrite.
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
  const changes = diffArrays(midA, midB, { maxEditLength: MAX_EDITS });
  if (!changes) {
    push('removed', midA.join(''));
    push('added', midB.join(''));
  } else {
    for (const change of changes) push(change.added ? 'added' : change.removed ? 'removed' : 'same', change.value.join(''));
  }
  push('same', a.slice(endA).join(''));
  return parts;
}
