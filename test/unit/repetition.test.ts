import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loopStart, RepetitionGuard } from '../../electron/core/text/repetition';

// Written from Gemma 3 270M's reply in a walkthrough (8,104 tokens of it, until the window's end).
const GEMMA_LOOP = "I am a user of the user's computer. ";
const OPENING = 'Sure! Here is a story about your day.\n\n';

describe('loopStart (text/repetition.ts)', () => {
  it('finds a reply that loops and keeps what came before and one copy', () => {
    const text = OPENING + GEMMA_LOOP.repeat(60);
    const at = loopStart(text);
    expect(at).not.toBeNull();
    expect(text.slice(0, at!)).toBe(OPENING + GEMMA_LOOP);
  });

  it('finds a Chinese loop, and one of a single character', () => {
    const unit = '我是一个用户的电脑的用户。';
    const opening = '好的，我来讲一个故事。';
    const text = opening + unit.repeat(20);
    // The opening ends in the unit's last character, so the loop is found one character earlier, its unit rotated:
    // what is cut is 19 more copies of it (and the last full stop), what is kept the opening and one copy.
    const at = loopStart(text)!;
    const rotated = `。${unit.slice(0, -1)}`;
    expect(text.slice(at)).toBe(`${rotated.repeat(19)}。`);
    expect(text.slice(0, at)).toBe(opening.slice(0, -1) + rotated);
    expect(loopStart(`Done${'!'.repeat(800)}`)).toBe('Done!'.length);
  });

  it('leaves text alone: a short refrain, three copies of a paragraph, a list that counts, a loop too short yet', () => {
    expect(loopStart(`Ha${' ha'.repeat(12)}!`)).toBeNull();
    const paragraph = 'Tomatoes want full sun, rich soil and steady water; start them indoors six weeks before the last frost. '.repeat(2);
    expect(loopStart(paragraph.repeat(3))).toBeNull();
    expect(loopStart(Array.from({ length: 80 }, (_, i) => `${i + 1}. Water the tomatoes.`).join('\n'))).toBeNull();
    expect(loopStart(OPENING + GEMMA_LOOP.repeat(8))).toBeNull(); // about 75 tokens of loop: not yet
  });

  it('never calls text made of varied sentences a loop (property)', () => {
    const sentence = fc.array(fc.constantFrom('the', 'garden', 'tomato', 'water', 'sun', 'Berlin', 'I', 'like', 'soil', 'week', '番茄', '阳光'), { minLength: 3, maxLength: 12 }).map((w) => `${w.join(' ')}. `);
    fc.assert(
      fc.property(fc.uniqueArray(sentence, { minLength: 10, maxLength: 60 }), (sentences) => loopStart(sentences.join('')) === null),
      { numRuns: 200 },
    );
  });

  it('the guard, fed a stream chunk by chunk, finds the loop soon after it starts and where loopStart does', () => {
    const text = OPENING + GEMMA_LOOP.repeat(200);
    const guard = new RepetitionGuard();
    let found: number | null = null;
    let fed = 0;
    for (let i = 0; i < text.length && found === null; i += 7) {
      found = guard.push(text.slice(i, i + 7));
      fed = i + 7;
    }
    expect(found).toBe(OPENING.length + GEMMA_LOOP.length);
    // Caught within the 150-token floor plus a look's step, not at the end of 200 copies.
    expect(fed).toBeLessThan(OPENING.length + 24 * GEMMA_LOOP.length);
  });
});
