/**
 * An import preview's row shows a line's start, not all of it: a pasted 5,000-character line once filled the dialog
 * (2026-11-28 walk). Cut at a whole character (never half a surrogate pair: Chinese and emoji stay intact), marked with
 * an ellipsis, and with its full length so the user knows how much there is.
 */

/** Characters of an item's text shown in the preview. */
export const PREVIEW_CHARS = 200;

export function previewText(content: string, max = PREVIEW_CHARS): { text: string; length: number; cut: boolean } {
  const chars = Array.from(content);
  if (chars.length <= max) return { text: content, length: chars.length, cut: false };
  return { text: `${chars.slice(0, max).join('').trimEnd()}…`, length: chars.length, cut: true };
}
