/**
 * The wording of what Mnemo remembers on its own: how long it may be, and which of two wordings of one fact is kept
 * when they merge. The extractor (extract-parse.ts, extraction.job.ts) and maintenance (memory-maintenance.ts) merge
 * by this one rule, so a fact keeps the same wording whichever of them finds the duplicate.
 *
 * A merge never cuts a wording: a cut one is text nobody wrote (often mid-word), it no longer matches its embedding,
 * and repeated merges cannot grow a memory anyway, since merging picks one wording and never concatenates. What it
 * replaces stays in the memory's versions (revert) or as the archived merged memory (restore).
 */

/**
 * The longest text Mnemo writes into memory on its own: a learned memory's content and its evidence quote. A memory
 * the user writes may be longer (memory.contract.ts); the extractor is shown known memories clipped to this.
 */
export const LEARNED_MEMORY_MAX_CHARS = 300;

/**
 * Which of two wordings of one fact to keep: the longer (more complete) one, unless it is longer than the cap; when
 * both are, the shorter. Positive for `a`, negative for `b`, 0 when the rule cannot tell them apart (same length).
 */
export function compareWordings(a: string, b: string, cap = LEARNED_MEMORY_MAX_CHARS): number {
  const fitsA = a.length <= cap;
  if (fitsA !== b.length <= cap) return fitsA ? 1 : -1;
  return fitsA ? a.length - b.length : b.length - a.length;
}

/** The wording a memory has after a new wording of its fact merges into it (the memory's own when they tie). */
export function mergedWording(existing: string, incoming: string): string {
  return compareWordings(incoming, existing) > 0 ? incoming : existing;
}
