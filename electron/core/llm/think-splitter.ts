/**
 * The one rule for reasoning that arrives inline as `<think>...</think>` (models served without Ollama's thinking
 * parser, or older Ollama versions): chat streaming (ollama.llm.ts) and extraction parsing (model-json-locate.ts)
 * both split by it. Ollama's own `message.thinking` field needs no splitting; this is only for text that mixes both.
 *
 * Rules, shared by the streaming splitter and the whole-text `splitThink`:
 * - outside a block, `<think>` opens one; everything up to `</think>` (or the end) is thinking;
 * - a `</think>` that is the text's first tag closes a block the chat template opened (the prompt ended with
 *   `<think>`, so the model's output starts inside it): everything before it is thinking. Keeping that text as the
 *   answer would store the model's reasoning as its reply, feed it to later prompts, and let the extractor take a
 *   draft list from it;
 * - any later `</think>` outside a block is markup, not answer: it is dropped;
 * - inside a block, a nested `<think>` is plain thinking text (blocks do not nest).
 * Invariant: for any split of a text into chunks, the ThinkSplitter's deltas folded with `appendDelta` equal
 * splitThink(text). A stream cannot take back what it showed: text streamed as answer before a first-tag `</think>`
 * is moved to the thinking by the delta that carries `contentWasThinking`.
 */
export interface ThinkParts {
  content: string;
  thinking: string;
}

export interface ThinkSplit extends ThinkParts {
  /** The text of a block still open at the end (also part of `thinking`); null when every block was closed. */
  unclosed: string | null;
}

export interface ThinkDelta extends ThinkParts {
  /** Every answer text emitted before this delta was thinking: the caller moves it to the end of its thinking first. */
  contentWasThinking?: true;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/** Splits a whole text at once. */
export function splitThink(text: string): ThinkSplit {
  let content = '';
  let thinking = '';
  let inThink = false;
  let sawTag = false;
  let blockStart = 0;
  let i = 0;
  while (i < text.length) {
    if (inThink) {
      const close = text.indexOf(CLOSE, i);
      if (close === -1) {
        thinking += text.slice(i);
        return { content, thinking, unclosed: text.slice(blockStart) };
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
    if (next === open) {
      content += text.slice(i, next);
      i = blockStart = open + OPEN.length;
      inThink = true;
    } else if (!sawTag) {
      // No tag before it, so this is all of the text so far: a block the template opened.
      thinking += text.slice(i, next);
      i = strayClose + CLOSE.length;
    } else {
      content += text.slice(i, next);
      i = strayClose + CLOSE.length;
    }
    sawTag = true;
  }
  return { content, thinking, unclosed: inThink ? text.slice(blockStart) : null };
}

/** Adds a streamed delta to the text so far (a `contentWasThinking` delta first moves the answer so far to thinking). */
export function appendDelta(sofar: ThinkParts, delta: ThinkDelta): ThinkParts {
  const base = delta.contentWasThinking ? { content: '', thinking: sofar.thinking + sofar.content } : sofar;
  return { content: base.content + delta.content, thinking: base.thinking + delta.thinking };
}

/**
 * Streaming form of splitThink. A tag may be cut across chunks, so the splitter holds back the shortest tail
 * that could still become a tag and emits it with the next chunk (or on flush()).
 */
export class ThinkSplitter {
  private pending = '';
  private inThink = false;
  private sawTag = false;

  push(chunk: string): ThinkDelta {
    let buffer = this.pending + chunk;
    let content = '';
    let thinking = '';
    let contentWasThinking = false;
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
      if (next === open) {
        content += buffer.slice(0, next);
        buffer = buffer.slice(open + OPEN.length);
        this.inThink = true;
      } else if (!this.sawTag) {
        // No tag before it: this chunk's text up to here, and every answer text emitted before, was a block the
        // template opened.
        thinking += buffer.slice(0, next);
        contentWasThinking = true;
        buffer = buffer.slice(strayClose + CLOSE.length);
      } else {
        content += buffer.slice(0, next);
        buffer = buffer.slice(strayClose + CLOSE.length);
      }
      this.sawTag = true;
    }
    const tags = this.inThink ? [CLOSE] : [OPEN, CLOSE];
    const keep = longestTagPrefixAtEnd(buffer, tags);
    const ready = buffer.slice(0, buffer.length - keep);
    this.pending = buffer.slice(buffer.length - keep);
    if (this.inThink) thinking += ready;
    else content += ready;
    return contentWasThinking ? { content, thinking, contentWasThinking: true } : { content, thinking };
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
