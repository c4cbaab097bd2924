/**
 * The one merge rule (learned-wording.ts): the extractor's merge and maintenance's merge keep the same wording, and
 * no merge ever writes a wording nobody wrote.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareWordings, LEARNED_MEMORY_MAX_CHARS, mergedWording } from '../../electron/core/text/learned-wording';
import { pickSurvivor } from '../../electron/core/memory/memory-maintenance';
import { PROPERTY_TEST_TIMEOUT_MS } from '../support/timeouts';

const CAP = LEARNED_MEMORY_MAX_CHARS;
// Lengths around the cap are where the rule turns.
const wording = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ minLength: CAP - 5, maxLength: CAP + 120 }));

describe('merged wording', () => {
  it('keeps the longer wording within the cap; beyond it, the one that fits; when neither fits, the shorter', () => {
    expect(mergedWording('Plays the piano', 'Plays the piano every evening')).toBe('Plays the piano every evening');
    expect(mergedWording('Plays the piano every evening', 'Plays the piano')).toBe('Plays the piano every evening');
    const note = 'n'.repeat(CAP + 80);
    expect(mergedWording(note, 'Plays the piano')).toBe('Plays the piano');
    expect(mergedWording(note, 'm'.repeat(CAP + 10))).toBe('m'.repeat(CAP + 10));
    expect(mergedWording('x'.repeat(CAP), 'y'.repeat(CAP))).toBe('x'.repeat(CAP)); // a tie keeps the memory's own
  });

  it('property: the merged wording is one of the two, whole, and within the cap whenever one of them is', () => {
    fc.assert(
      fc.property(wording, wording, (existing, incoming) => {
        const merged = mergedWording(existing, incoming);
        expect([existing, incoming]).toContain(merged);
        if (existing.length <= CAP || incoming.length <= CAP) expect(merged.length).toBeLessThanOrEqual(CAP);
      }),
      { numRuns: 500 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);

  it('property: maintenance keeps the wording the extractor would keep', () => {
    const memory = (id: number) => fc.record({ id: fc.constant(id), content: wording, pinned: fc.boolean(), importance: fc.double({ min: 0, max: 1, noNaN: true }) });
    fc.assert(
      fc.property(memory(1), memory(2), (a, b) => {
        fc.pre(compareWordings(a.content, b.content) !== 0);
        expect(pickSurvivor(a, b).content).toBe(mergedWording(a.content, b.content));
      }),
      { numRuns: 500 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);
});
