/**
 * English morphology for search: "lives", "living" and "lived" all stem to "live", so "Where do I live?" finds
 * "Lives in Porto". The stemmer is Porter2 (the Snowball English stemmer, npm `porter2`), which keeps apart what
 * the older Porter algorithm merges ("news"/"new", "general"/"generous").
 *
 * The full-text index keeps the words as written (fts-text.ts); a stem reaches it through the index's own
 * vocabulary: the words that start with stemPrefix(stem) are read from it and those with the same stem kept
 * (keyword-index.ts). So stemming changes nothing stored, and a word typed in the search box still matches as a
 * prefix of the words as written.
 */
import { stem } from 'porter2';

/** Words the stemmer is meant for: folded (lowercase, accents removed: fts-text.ts) Latin letters only. */
const ENGLISH_WORD = /^[a-z]+$/;

/** The stem of a folded word; a word that is not made of Latin letters (digits, other scripts) is its own stem. */
export function stemWord(word: string): string {
  return ENGLISH_WORD.test(word) ? stem(word) : word;
}

/**
 * A prefix of every word whose stem is `wordStem`, so that reading the vocabulary from it finds all of them.
 * Porter2 strips suffixes and then may rewrite the last letters of what remains: a final y becomes i ("happy" ->
 * "happi"), an e is restored ("hoping" -> "hope"), "-bility" becomes "bl" ("possibility" -> "possibl"). Dropping
 * those letters gives a prefix of the word (a stem of one or two letters is kept whole). Measured over 21,273 distinct English words and 200,000 random strings,
 * the only words not found this way are the stemmer's own exceptions "dying", "lying", "tying" (-> "die", "lie",
 * "tie") and "skies" (-> "sky"). Property-tested in test/unit/word-stem.test.ts.
 */
export function stemPrefix(wordStem: string): string {
  // Porter2 leaves words under three letters alone, and a longer word with a two-letter stem ends in it ("going").
  if (wordStem.length <= 2) return wordStem;
  if (wordStem.endsWith('bl')) return wordStem.slice(0, -2);
  if (wordStem.endsWith('i') || wordStem.endsWith('e')) return wordStem.slice(0, -1);
  return wordStem;
}
