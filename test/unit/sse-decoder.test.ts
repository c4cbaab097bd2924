import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseDecoder, type SseEvent } from '../../electron/core/llm/sse-decoder';
import { PROPERTY_TEST_TIMEOUT_MS } from '../support/timeouts';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `body` cut at the given byte offsets, then ends it. */
function decode(body: Uint8Array, cuts: number[] = []): SseEvent[] {
  const points = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const decoder = new SseDecoder();
  const events: SseEvent[] = [];
  let from = 0;
  for (const p of [...points, body.length]) {
    events.push(...decoder.push(body.slice(from, p)));
    from = p;
  }
  return [...events, ...decoder.end()];
}

describe('SseDecoder', () => {
  it('reads OpenAI-style chunks and the [DONE] sentinel', () => {
    const body = bytes('data: {"choices":[{"delta":{"content":"Hi"}}]}\n\ndata: {"choices":[]}\n\ndata: [DONE]\n\n');
    expect(decode(body).map((e) => e.data)).toEqual(['{"choices":[{"delta":{"content":"Hi"}}]}', '{"choices":[]}', '[DONE]']);
  });

  it('joins data lines, strips one space after the colon, names events, skips comments and unknown fields', () => {
    const body = bytes(': keep-alive\n\nevent: error\ndata:{"a":1}\ndata:  two\nid: 7\nretry: 100\n\ndata\n\n');
    expect(decode(body)).toEqual([
      { event: 'error', data: '{"a":1}\n two' },
      { event: '', data: '' },
    ]);
  });

  it('takes LF, CRLF and CR line ends, a CRLF cut between two chunks included', () => {
    const body = bytes('data: one\r\n\r\ndata: two\r\rdata: three\n\n');
    expect(decode(body).map((e) => e.data)).toEqual(['one', 'two', 'three']);
    // The cut right after the first CR: the LF that follows must not end another (blank) line.
    expect(decode(body, [10]).map((e) => e.data)).toEqual(['one', 'two', 'three']);
    expect(decode(bytes('data: a\r\ndata: b\r\n\r\n'), [8]).map((e) => e.data)).toEqual(['a\nb']);
  });

  it('waits for a line cut mid-way and a multi-byte character cut between its bytes', () => {
    const body = bytes('data: {"content":"记住 café 🧠"}\n\n');
    const inEmoji = body.length - 6; // inside the four bytes of the emoji
    const inHan = body.indexOf(0xe8) + 1; // inside 记
    expect(decode(body, [inHan, inEmoji, 3]).map((e) => JSON.parse(e.data) as unknown)).toEqual([{ content: '记住 café 🧠' }]);
  });

  it('delivers an event whose blank line never came when the body ends, and nothing from an empty body', () => {
    expect(decode(bytes('data: [DONE]')).map((e) => e.data)).toEqual(['[DONE]']);
    expect(decode(bytes('data: [DONE]\n')).map((e) => e.data)).toEqual(['[DONE]']);
    expect(decode(bytes(''))).toEqual([]);
  });

  it(
    'gives the same events however the bytes are cut',
    () => {
      const piece = fc.constantFrom('data: ', 'data:', 'event: error', ': ping', '\n', '\r\n', '\r', '{"x":"é"}', '[DONE]', '记', '🧠', ' ', 'a');
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 40 }), fc.array(fc.nat(400), { maxLength: 8 }), (pieces, cuts) => {
          const body = bytes(pieces.join(''));
          expect(decode(body, cuts)).toEqual(decode(body));
        }),
        { numRuns: 300 },
      );
    },
    PROPERTY_TEST_TIMEOUT_MS,
  );
});
