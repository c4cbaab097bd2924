/**
 * Server-sent events from the bytes of a response body, as the HTML standard's event-stream parser reads them: lines
 * end with LF, CRLF or CR; `data:` lines (one optional space after the colon) are joined with LF; `event:` names the
 * event; a line starting with ":" is a comment (keep-alive); a blank line ends the event. The bytes may be cut
 * anywhere, in a line, in a CRLF pair or inside a multi-byte UTF-8 character: nothing is decoded before it is whole.
 *
 * One difference: at the end of the body, an event whose blank line never came is still delivered (the standard drops
 * it). OpenAI-compatible servers end with `data: [DONE]`, and one that closes right after it has sent everything;
 * a body that broke off mid-event gives a truncated payload, which the reader then refuses as malformed.
 */
export interface SseEvent {
  /** The `event:` field; '' when none was given (the standard's "message"). */
  event: string;
  data: string;
}

export class SseDecoder {
  private readonly decoder = new TextDecoder();
  private buffer = '';
  /** A CR ended the last chunk: an LF starting the next one belongs to it. */
  private afterCr = false;
  private data: string[] = [];
  private event = '';

  push(bytes: Uint8Array): SseEvent[] {
    return this.lines(this.decoder.decode(bytes, { stream: true }), false);
  }

  /** The body ended: whatever is left is the last line, and a pending event is delivered. */
  end(): SseEvent[] {
    const events = this.lines(this.decoder.decode(), true);
    const last = this.dispatch();
    return last ? [...events, last] : events;
  }

  private lines(text: string, final: boolean): SseEvent[] {
    let input = text;
    if (this.afterCr && input.startsWith('\n')) input = input.slice(1);
    this.afterCr = false;
    this.buffer += input;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      if (!match) break;
      // A CR at the very end may be the first half of a CRLF cut by the chunk boundary.
      if (match[0] === '\r' && match.index === this.buffer.length - 1 && !final) {
        this.afterCr = true;
      }
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) events.push(event);
    }
    if (final && this.buffer !== '') {
      const event = this.line(this.buffer);
      this.buffer = '';
      if (event) events.push(event);
    }
    return events;
  }

  private line(line: string): SseEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.event = value;
    return null;
  }

  private dispatch(): SseEvent | null {
    if (this.data.length === 0) {
      this.event = '';
      return null;
    }
    const event = { event: this.event, data: this.data.join('\n') };
    this.data = [];
    this.event = '';
    return event;
  }
}
