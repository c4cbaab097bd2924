import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeUserContent, cutKeepingEnds, cutNote, fitUserContent } from '../../electron/core/conversation/attachment-text';
import { estimateTokens, maxCharsWithin } from '../../electron/core/text/token-estimate';
import { CountedString } from '../support/counted-string';

describe('attached files in the user message', () => {
  it('without files the message is the typed text alone', () => {
    expect(composeUserContent('hello', [])).toBe('hello');
    expect(fitUserContent('hello', [], 10, estimateTokens)).toEqual({ content: 'hello', attachmentTokens: 0, cut: false });
  });

  it('a file that fits goes whole, named, after the typed text', () => {
    const fitted = fitUserContent('Read this', [{ name: 'a.md', text: '# Title\nbody' }], 1000, estimateTokens);
    expect(fitted.cut).toBe(false);
    expect(fitted.content).toBe('Read this\n\n<attached_file name="a.md">\n# Title\nbody\n</attached_file>');
    expect(fitted.content).toBe(composeUserContent('Read this', [{ name: 'a.md', text: '# Title\nbody' }]));
  });

  it('a long Chinese file is cut keeping its beginning and end, with the note, within the tokens', () => {
    const text = `开头${'我们今天讨论了项目的进度和下一步计划。'.repeat(2000)}结尾`;
    const r = cutKeepingEnds(text, 500, estimateTokens);
    expect(r.cut).toBe(true);
    expect(estimateTokens(r.text)).toBeLessThanOrEqual(500);
    expect(r.text.startsWith('开头')).toBe(true);
    expect(r.text.endsWith('结尾')).toBe(true);
    expect(r.text).toMatch(new RegExp(`\\[… cut: \\d+ of ${text.length} characters …\\]`));
    expect(estimateTokens(r.text)).toBeGreaterThan(400); // it keeps what fits, not a token
  });

  it('the note counts exactly the characters left out', () => {
    const text = 'x'.repeat(1000) + 'y'.repeat(1000);
    const r = cutKeepingEnds(text, 50, estimateTokens);
    const m = /\[… cut: (\d+) of 2000 characters …\]/.exec(r.text)!;
    const kept = r.text.replace(`\n${m[0]}\n`, '');
    expect(kept.length + Number(m[1])).toBe(2000);
  });

  it('several files share the room; a small one whole, a large one cut', () => {
    const small = { name: 'small.txt', text: 'tiny note' };
    const large = { name: 'large.txt', text: 'word '.repeat(20_000) };
    const r = fitUserContent('q', [large, small], 600, estimateTokens);
    expect(r.cut).toBe(true);
    expect(r.content).toContain('<attached_file name="small.txt">\ntiny note\n</attached_file>');
    expect(r.content.indexOf('large.txt')).toBeLessThan(r.content.indexOf('small.txt')); // the user's order
    expect(r.attachmentTokens).toBeLessThanOrEqual(600);
  });

  it('property: the fitted files never exceed their room (beyond the blocks themselves) and the typed text is kept', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40 }), fc.array(fc.string({ minLength: 1, maxLength: 3000 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 800 }), (typed, texts, room) => {
        const files = texts.map((text, i) => ({ name: `f${i}.txt`, text }));
        const r = fitUserContent(typed, files, room, estimateTokens);
        expect(r.content.startsWith(typed)).toBe(true);
        // What a file costs even when cut to nothing: its block and the note (the room cannot go below that).
        const floor = (i: number) => estimateTokens(composeUserContent('', [{ name: `f${i}.txt`, text: `\n${cutNote(3000, 3000)}\n` }])) + 2;
        const floors = files.reduce((sum, _, i) => sum + floor(i), 0);
        if (!r.cut) expect(r.content).toBe(composeUserContent(typed, files));
        else expect(r.attachmentTokens).toBeLessThanOrEqual(room + floors);
      }),
      { numRuns: 150 },
    );
  });

  // A text of the mixes the estimator distinguishes, long enough to be cut: CJK, Latin, emoji, digits, spaces.
  const mixed = fc
    .array(fc.constantFrom('the', 'quick', ' ', '   ', '\n', '咖啡', '第三季度收入增长', '123', '...', 'é', 'Привет', '😀', '\t', 'garden planner '), { maxLength: 400 })
    .map((parts) => parts.join(''));
  const counting = (t: string) => estimateTokens(t); // not estimateTokens itself: counts every candidate whole

  /** The cut as first written: count the whole text, then halve over every length it could keep. */
  const cutByHalving = (text: string, maxTokens: number): { text: string; cut: boolean } => {
    if (estimateTokens(text) <= maxTokens) return { text, cut: false };
    const withKept = (kept: number): string => {
      const head = Math.ceil(kept / 2);
      const tail = kept - head;
      return `${text.slice(0, head)}\n${cutNote(text.length - kept, text.length)}\n${tail > 0 ? text.slice(text.length - tail) : ''}`;
    };
    let lo = 0;
    let hi = text.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (estimateTokens(withKept(mid)) <= maxTokens) lo = mid;
      else hi = mid - 1;
    }
    return { text: withKept(lo), cut: true };
  };

  it('cuts exactly as halving over every length, counting each candidate whole, does (property)', () => {
    fc.assert(
      fc.property(mixed, fc.integer({ min: -1, max: 600 }), (text, maxTokens) => {
        const expected = cutByHalving(text, maxTokens);
        expect(cutKeepingEnds(text, maxTokens, estimateTokens)).toEqual(expected);
        expect(cutKeepingEnds(text, maxTokens, counting)).toEqual(expected);
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(fc.array(mixed, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 900 }), (texts, room) => {
        const files = texts.map((text, i) => ({ name: `f${i}.txt`, text }));
        expect(fitUserContent('q', files, room, estimateTokens)).toEqual(fitUserContent('q', files, room, counting));
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('a file at the size limit is cut reading no more of it than the room allows', () => {
    const text = new CountedString('Quarterly revenue grew in every region. 第三季度收入增长。\n'.repeat(10_000));
    const fitted = fitUserContent('q', [{ name: 'report.pdf', text: text.asString() }], 1000, estimateTokens);
    expect(fitted.cut).toBe(true);
    expect(text.reads).toBeLessThanOrEqual(maxCharsWithin(1000) + 1);
  });

  it('cutNote names cut and total characters', () => {
    expect(cutNote(5, 10)).toBe('[… cut: 5 of 10 characters …]');
  });
});
