/**
 * A model that repeats itself without end: small local models do (Gemma 3 270M wrote "I am a user of the user's
 * computer." for 8,104 tokens, 3 minutes, until the window's end; on a CPU laptop writing 10 tokens a second that
 * is 13 minutes). The output cap bounds such a reply; this finds it early, so the chat can stop it.
 *
 * A text repeats itself when its tail is one unit (at most MAX_UNIT_CHARS characters) written again and again: at
 * least MIN_COPIES copies in a row, together at least MIN_LOOP_TOKENS tokens by estimate. Exact copies only: a loop
 * of greedy or low-temperature decoding is exact, and a person's text almost never is over that length (a list that
 * counts, a table whose rows differ, a word repeated a few times are not loops). The price: a reply asked to repeat
 * something a hundred times is stopped too, and says why.
 */
import { estimateTokens } from './token-estimate';

/** The longest unit looked for: a sentence or a short paragraph. */
const MAX_UNIT_CHARS = 1000;
/** Copies in a row before a unit is a loop. */
const MIN_COPIES = 4;
/** The loop's length before it counts (about 600 English characters, 150 Chinese ones): a short refrain is text. */
const MIN_LOOP_TOKENS = 150;
/** How much a text grows between two looks (RepetitionGuard): the search costs a scan of the tail. */
const LOOK_EVERY_CHARS = 64;

/**
 * Where the repetition at the end of `text` starts to be superfluous (the end of its first copy), or null when the
 * text does not end in a loop. text.slice(0, result) keeps everything before the loop and one copy of its unit.
 */
export function loopStart(text: string): number | null {
  const n = text.length;
  const maxUnit = Math.min(MAX_UNIT_CHARS, Math.floor(n / MIN_COPIES));
  for (let unit = 1; unit <= maxUnit; unit++) {
    // How far back each character equals the one a unit before it: the loop's length beyond its first copy.
    let run = 0;
    while (run < n - unit && text.charCodeAt(n - 1 - run) === text.charCodeAt(n - 1 - run - unit)) run++;
    const copies = (run + unit) / unit;
    if (copies < MIN_COPIES) continue;
    const first = n - run - unit;
    if (estimateTokens(text.slice(first)) >= MIN_LOOP_TOKENS) return first + unit;
  }
  return null;
}

/** Follows a text as it streams in and says, at most every LOOK_EVERY_CHARS, whether it has begun to loop. */
export class RepetitionGuard {
  private text = '';
  private lookedAt = 0;

  /** Adds a chunk; returns where the loop's superfluous part starts once the text loops (loopStart), else null. */
  push(chunk: string): number | null {
    this.text += chunk;
    if (this.text.length - this.lookedAt < LOOK_EVERY_CHARS) return null;
    this.lookedAt = this.text.length;
    return loopStart(this.text);
  }
}
