/**
 * Separates a model's reasoning from its answer when the reasoning arrives inline as `<think>...</think>`
 * (models served without Ollama's thinking parser, or older Ollama versions). Ollama's own `message.thinking`
 * field needs no splitting; this is only for text that mixes both.
 *
 * Rules, shared by the streaming splitter and the whole-text `splitThink`:
 * - outside a block, `<think>` opens one; everything up to `</think>` (or the end) is thinking;
 * - a `</think>` outside any block is markup, not answer: it is dropped;
 * - inside a block, a nested `<think>` is plain thinking text (blocks do not nest).
 * Invariant: for any split of a text into chunks, the concatenated output of ThinkSplitter equals splitThink(text).
 */
export interface ThinkParts {
  content: string;
  thinking: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/** Splits a whole text at once. */
export function splitThink(text: string): ThinkParts {
  let content = '';
  let thinking = '';
  let inThink = false;
  let i = 0;
  while (i < text.length) {
    if (inThink) {
      const close = text.indexOf(CLOSE, i);
      if (close === -1) {
        thinking += text.slice(i);
        break;
      }
      thinking += text.slice(i, close);
      i = close + CLOSE.length;
      inThink = false;
      continue;
    }
    const open = text.indexOf(OPEN, i);
    const strayClose = text.indexOf(CLOSE, i);
    const next = earliest(open, strayClose);
    if (next === -1) {
      content += text.slice(i);
      break;
    }
    content += text.slice(i, next);
    if (next === open) {
      i = open + OPEN.length;
      inThink = true;
    } else {
      i = strayClose + CLOSE.length;
    }
  }
  return { content, thinking };
}

/**
 * Streaming form of splitThink. A tag may be cut across chunks, so the splitter holds back the shortest tail
 * that could still become a tag and emits it with the next chunk (or on flush()).
 */
export class ThinkSplitter {
  private pending = '';
  private inThink = false;

  push(chunk: string): ThinkParts {
    let buffer = this.pending + chunk;
    let content = '';
    let thinking = '';
    for (;;) {
      if (this.inThink) {
        const close = buffer.indexOf(CLOSE);
        if (close === -1) break;
        thinking += buffer.slice(0, close);
        buffer = buffer.slice(close + CLOSE.length);
        this.inThink = false;
        continue;
      }
      const open = buffer.indexOf(OPEN);
      const strayClose = buffer.indexOf(CLOSE);
      const next = earliest(open, strayClose);
      if (next === -1) break;
      content += buffer.slice(0, next);
      if (next === open) {
        buffer = buffer.slice(open + OPEN.length);
        this.inThink = true;
      } else {
        buffer = buffer.slice(strayClose + CLOSE.length);
      }
    }
    const tags = this.inThink ? [CLOSE] : [OPEN, CLOSE];
    const keep = longestTagPrefixAtEnd(buffer, tags);
    const ready = buffer.slice(0, buffer.length - keep);
    this.pending = buffer.slice(buffer.length - keep);
    if (this.inThink) thinking += ready;
    else content += ready;
    return { content, thinking };
  }

  /** Ends the text: whatever was held back is plain text of the current kind (an unclosed block stays thinking). */
  flush(): ThinkParts {
    const rest = this.pending;
    this.pending = '';
    return this.inThink ? { content: '', thinking: rest } : { content: rest, thinking: '' };
  }
}

function earliest(a: number, b: number): number {
  if (a === -1) return b;
  if (b === -1) return a;
  return Math.min(a, b);
}

/** Length of the longest tail of `text` that is a proper prefix of one of `tags` (0 if none). */
function longestTagPrefixAtEnd(text: string, tags: readonly string[]): number {
  const longestTag = Math.max(...tags.map((t) => t.length));
  for (let len = Math.min(text.length, longestTag - 1); len > 0; len--) {
    const tail = text.slice(text.length - len);
    if (tags.some((tag) => tag.length > len && tag.startsWith(tail))) return len;
  }
  return 0;
}
