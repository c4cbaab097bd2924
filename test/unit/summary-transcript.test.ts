import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { transcriptWithin } from '../../electron/core/chat/summary.job';
import { contextWindowFor } from '../../electron/core/llm/llm-provider';
import { estimateTokens } from '../../electron/core/text/token-estimate';

const rowsArb = fc.array(
  fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.oneof(fc.string({ minLength: 1, maxLength: 300 }), fc.constantFrom('我想在春天种番茄'.repeat(40), 'word '.repeat(200))) }),
  { minLength: 1, maxLength: 30 },
);

describe('transcriptWithin', () => {
  it('takes the oldest messages that fit, whole and in order; only a first one that alone is too long is cut (property)', () => {
    const line = (r: { role: string; content: string }) => `${r.role === 'user' ? 'User' : 'Assistant'}: ${r.content}`;
    const cost = (r: { role: string; content: string }) => estimateTokens(line(r)) + 1;
    fc.assert(
      fc.property(rowsArb, fc.integer({ min: 1, max: 3000 }), (raw, budget) => {
        const rows = raw.map((r, i) => ({ ...r, id: i + 1 }));
        const { taken, text } = transcriptWithin(rows, budget);
        expect(taken.length).toBeGreaterThanOrEqual(1);
        expect(taken).toEqual(rows.slice(0, taken.length));
        const used = taken.reduce((n, r) => n + cost(r), 0);
        if (used <= budget) {
          expect(text).toBe(taken.map(line).join('\n\n'));
          // It stopped only because the next message did not fit.
          if (taken.length < rows.length) expect(used + cost(rows[taken.length]!)).toBeGreaterThan(budget);
        } else {
          expect(taken).toHaveLength(1);
          expect(line(rows[0]!).startsWith(text)).toBe(true);
          expect(estimateTokens(text)).toBeLessThanOrEqual(budget);
        }
      }),
    );
  });

  it('cuts a first message that alone is over the budget instead of skipping it', () => {
    const long = { id: 7, role: 'user', content: 'tomatoes '.repeat(500) };
    const { taken, text } = transcriptWithin([long, { id: 8, role: 'assistant', content: 'ok' }], 50);
    expect(taken.map((r) => r.id)).toEqual([7]);
    expect(text.startsWith('User: tomatoes')).toBe(true);
    expect(estimateTokens(text)).toBeLessThanOrEqual(50);
  });

  it('labels the turns and leaves thinking out (only content is given)', () => {
    expect(transcriptWithin([{ id: 1, role: 'user', content: 'Hi' }, { id: 2, role: 'assistant', content: 'Hello' }], 100).text).toBe('User: Hi\n\nAssistant: Hello');
  });
});

describe('contextWindowFor', () => {
  it('is the setting, never above the model maximum, the setting when the model says nothing', () => {
    expect(contextWindowFor(8192, 131_072)).toBe(8192);
    expect(contextWindowFor(8192, 4096)).toBe(4096);
    expect(contextWindowFor(8192, null)).toBe(8192);
    expect(contextWindowFor(8192, 0)).toBe(8192);
  });
});
