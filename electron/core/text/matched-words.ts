/**
 * The words a message and a memory share, as the message writes them: what a receipt names when a memory was found
 * by its words ("matches 'tea'"). Read the way relevance search reads them (meaningful-terms.ts), so a word named
 * here is one that search could have matched:
 *
 * - an English word counts when its stem is among the memory's keys ("living" in the message, "Lives" in the memory)
 *   and it is not a function word; it is named as the message writes it ("Living", "café");
 * - a Chinese (CJK) run counts by its bigrams; matched bigrams next to each other are named as one stretch when the
 *   memory holds that stretch too (喜欢喝咖啡 against 我喜欢喝咖啡 -> 喜欢喝咖啡, not 喜欢, 欢喝, 喝咖, 咖啡);
 *   a lone character counts when the memory holds it.
 *
 * Distinct (by their folded form), in the order the message has them, at most MAX_MATCHED_WORDS.
 */
import { textSegments, writtenSegments } from './fts-text';
import { termKeys } from './meaningful-terms';
import { isStopTerm } from './stop-words';
import { stemWord } from './word-stem';

/** A receipt names a few words; a long message sharing many with a memory is still explained by the first ones. */
export const MAX_MATCHED_WORDS = 5;

export function matchedWords(message: string, memory: string): string[] {
  const keys = termKeys(memory);
  const memoryRuns = textSegments(memory).flatMap((s) => (s.kind === 'cjk' ? [s.chars.join('')] : []));
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (folded: string, written: string) => {
    if (seen.has(folded) || out.length >= MAX_MATCHED_WORDS) return;
    seen.add(folded);
    out.push(written);
  };

  for (const segment of writtenSegments(message)) {
    if (segment.kind === 'word') {
      if (!isStopTerm(segment.word) && keys.has(stemWord(segment.word))) add(segment.word, segment.written);
      continue;
    }
    const { chars, written } = segment;
    if (chars.length === 1) {
      if (!isStopTerm(chars[0]!) && keys.has(chars[0]!)) add(chars[0]!, written[0]!);
      continue;
    }
    const matched = chars.slice(1).map((c, i) => {
      const bigram = chars[i]! + c;
      return !isStopTerm(bigram) && keys.has(bigram);
    });
    const held = (from: number, to: number) => memoryRuns.some((run) => run.includes(chars.slice(from, to).join('')));
    for (let i = 0; i < matched.length; i++) {
      if (!matched[i]) continue;
      // Bigram i covers characters i and i + 1; the stretch grows while the next bigram matches and the memory holds it.
      let end = i + 2;
      while (matched[end - 1] && held(i, end + 1)) end++;
      add(chars.slice(i, end).join(''), written.slice(i, end).join(''));
      i = end - 2;
    }
  }
  return out;
}
