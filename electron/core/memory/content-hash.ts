/**
 * Exact-duplicate identity of a memory's text. Two texts get the same hash when they differ only in Unicode form
 * (NFKC: full-width letters, ligatures), letter case, whitespace or punctuation and symbols, so "I like tea." and
 * "i like  TEA" are one memory, while any change of a letter, digit or CJK character is a different one.
 * The hash, not the text, is what duplicate and "rejected before" lookups compare (memories_hash_idx).
 */
import { createHash } from 'node:crypto';

// Letters, marks and numbers are content; every other run (spaces, punctuation, symbols, emoji, controls) is one separator.
const SEPARATORS = /[^\p{L}\p{M}\p{N}]+/gu;

/** The normalized form that is hashed: NFKC, case-folded, separators collapsed to one space, trimmed. */
export function normalizeForHash(text: string): string {
  // toLowerCase after NFKC, then NFKC again: lowercasing can produce sequences that compose differently.
  return text.normalize('NFKC').toLowerCase().normalize('NFKC').replace(SEPARATORS, ' ').trim();
}

/** SHA-256 (hex) of the normalized text. */
export function contentHash(text: string): string {
  return createHash('sha256').update(normalizeForHash(text), 'utf8').digest('hex');
}
