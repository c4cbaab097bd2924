import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { appendDelta, splitThink, ThinkSplitter, type ThinkParts } from '../../electron/core/llm/think-splitter';
import { PROPERTY_TEST_TIMEOUT_MS } from '../support/timeouts';

/** What a caller of the streaming splitter ends up with, folding its deltas as the Ollama adapter does. */
function streamThrough(chunks: string[]): ThinkParts {
  const splitter = new ThinkSplitter();
  return [...chunks.map((c) => splitter.push(c)), splitter.flush()].reduce(appendDelta, { content: '', thinking: '' });
}

/** splitThink without the open block's text, to compare with a stream. */
function whole(text: string): ThinkParts {
  const { content, thinking } = splitThink(text);
  return { content, thinking };
}

function cutAt(text: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(text.slice(from, p));
    from = p;
  }
  chunks.push(text.slice(from));
  return chunks;
}

// Texts made of fragments that often form, or almost form, tags, so the property explores the hard cases.
const tagHeavyText = fc
  .array(
    fc.oneof(
      fc.constantFrom('<think>', '</think>', '<', '</', '<th', '</thi', 'think>', 'nk>', '>', '\n\n', ' '),
      fc.string({ maxLength: 6 }),
    ),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('splitThink', () => {
  it('separates a leading think block from the answer', () => {
    expect(splitThink('<think>plan it</think>The answer.')).toEqual({ content: 'The answer.', thinking: 'plan it', unclosed: null });
  });

  it('leaves text without tags alone', () => {
    expect(splitThink('just an answer, 2 < 3 > 1')).toEqual({ content: 'just an answer, 2 < 3 > 1', thinking: '', unclosed: null });
  });

  it('treats an unclosed block as thinking to the end, and says what it holds', () => {
    expect(splitThink('Hi <think>still going')).toEqual({ content: 'Hi ', thinking: 'still going', unclosed: 'still going' });
    expect(splitThink('<think>1</think>A<think>2')).toEqual({ content: 'A', thinking: '12', unclosed: '2' });
  });

  it('reads a closing tag that comes before any other tag as the end of a block the chat template opened', () => {
    expect(splitThink('The user greets me.</think>\n\nHi!')).toEqual({ content: '\n\nHi!', thinking: 'The user greets me.', unclosed: null });
    expect(splitThink('a</think>b')).toEqual({ content: 'b', thinking: 'a', unclosed: null });
  });

  it('drops a later stray closing tag and keeps nested opening tags as thinking text', () => {
    expect(splitThink('a</think>b</think>c')).toEqual({ content: 'bc', thinking: 'a', unclosed: null });
    expect(splitThink('<think>x</think>a</think>b')).toEqual({ content: 'ab', thinking: 'x', unclosed: null });
    expect(splitThink('<think>x<think>y</think>z')).toEqual({ content: 'z', thinking: 'x<think>y', unclosed: null });
  });

  it('handles several blocks', () => {
    expect(splitThink('<think>1</think>A<think>2</think>B')).toEqual({ content: 'AB', thinking: '12', unclosed: null });
  });
});

describe('ThinkSplitter', () => {
  it('finds tags cut across chunk boundaries', () => {
    const splitter = new ThinkSplitter();
    expect(splitter.push('<thi')).toEqual({ content: '', thinking: '' });
    expect(splitter.push('nk>reason')).toEqual({ content: '', thinking: 'reason' });
    expect(splitter.push('ing</th')).toEqual({ content: '', thinking: 'ing' });
    expect(splitter.push('ink>Answer')).toEqual({ content: 'Answer', thinking: '' });
    expect(splitter.flush()).toEqual({ content: '', thinking: '' });
  });

  it('releases a held-back "<" once it cannot start a tag', () => {
    const splitter = new ThinkSplitter();
    expect(splitter.push('a <')).toEqual({ content: 'a ', thinking: '' });
    expect(splitter.push(' b')).toEqual({ content: '< b', thinking: '' });
  });

  it('emits a held-back tail on flush as the current kind', () => {
    const splitter = new ThinkSplitter();
    splitter.push('<think>deep </th');
    expect(splitter.flush()).toEqual({ content: '', thinking: '</th' });
  });

  it('streams one character at a time to the same result', () => {
    const text = '<think>why</think>because <b>bold</b>';
    expect(streamThrough([...text])).toEqual(whole(text));
  });

  it('moves the answer it already streamed to the thinking when the first tag is a closing one', () => {
    const splitter = new ThinkSplitter();
    expect(splitter.push('The user ')).toEqual({ content: 'The user ', thinking: '' });
    expect(splitter.push('greets me.</th')).toEqual({ content: 'greets me.', thinking: '' });
    expect(splitter.push('ink>Hi! a</think>b')).toEqual({ content: 'Hi! ab', thinking: '', contentWasThinking: true });
    expect(streamThrough(['The user ', 'greets me.</th', 'ink>Hi! a</think>b'])).toEqual({ content: 'Hi! ab', thinking: 'The user greets me.' });
  });

  it('property: any chunking gives the same content and thinking as the unsplit text', () => {
    fc.assert(
      fc.property(tagHeavyText, fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        expect(streamThrough(cutAt(text, cuts))).toEqual(whole(text));
        const { thinking, unclosed } = splitThink(text);
        if (unclosed !== null) expect(thinking.endsWith(unclosed)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);

  it('property: well-formed blocks come back exactly, at any chunking', () => {
    const plain = fc.string({ maxLength: 12 }).filter((s) => !s.includes('<'));
    const segments = fc.array(fc.record({ answer: plain, reasoning: fc.option(plain, { nil: undefined }) }), { maxLength: 6 });
    fc.assert(
      fc.property(segments, fc.array(fc.nat(), { maxLength: 12 }), (segs, cuts) => {
        const text = segs.map((s) => (s.reasoning === undefined ? '' : `<think>${s.reasoning}</think>`) + s.answer).join('');
        const expected = {
          content: segs.map((s) => s.answer).join(''),
          thinking: segs.map((s) => s.reasoning ?? '').join(''),
        };
        expect(streamThrough(cutAt(text, cuts))).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);

  it('property: reasoning before the closing tag of a template-opened block is thinking, at any chunking', () => {
    const plain = fc.string({ maxLength: 20 }).filter((s) => !s.includes('<'));
    fc.assert(
      fc.property(plain, plain, fc.array(fc.nat(), { maxLength: 8 }), (reasoning, answer, cuts) => {
        const text = `${reasoning}</think>${answer}`;
        expect(streamThrough(cutAt(text, cuts))).toEqual({ content: answer, thinking: reasoning });
        expect(splitThink(text)).toEqual({ content: answer, thinking: reasoning, unclosed: null });
      }),
      { numRuns: 1000 },
    );
  }, PROPERTY_TEST_TIMEOUT_MS);
});
