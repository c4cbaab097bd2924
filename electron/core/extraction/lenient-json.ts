/**
 * A forgiving JSON reader for what small models actually emit: single quotes, curly quotes, unquoted keys and
 * words, trailing or missing commas, comments, NaN / Infinity / None / True, unescaped quotes inside strings, and
 * output cut off in the middle.
 *
 * It never throws. Reading stops at the end of the text or at the first thing it cannot make sense of; every object
 * or array that was open at that point is returned as far as it got and is listed in `incomplete`, so the caller can
 * keep the elements that were completed before the cut and discard the one that was cut.
 *
 * Bounds: nesting deeper than MAX_DEPTH stops reading (no stack overflow on "[[[[..."), and the work is linear in
 * the text read.
 *
 * Hand-written, not a library (compared on Mnemo's cases: the dialects above and cut answers, as in
 * test/unit/extract-parse.test.ts; json5 2.2, jsonrepair 3.15): JSON5 refuses None, unquoted words and unescaped
 * quotes; jsonrepair reads them, but closes a cut answer into well-formed JSON, so the item cut in the middle of a
 * string looks complete and a half-written fact would be kept. `incomplete` is what lets the caller drop it.
 */

export interface LenientValue {
  value: unknown;
  /** Index just after the value (where reading stopped when it stopped early). */
  end: number;
  /** Objects and arrays that were not closed: cut by the end of the text or by unreadable input. */
  incomplete: WeakSet<object>;
  /** True when reading stopped early (end of text or unreadable input) rather than at the value's natural end. */
  stoppedEarly: boolean;
}

export const MAX_DEPTH = 32;

const MISSING = Symbol('missing');

const LITERALS: Record<string, unknown> = {
  true: true,
  false: false,
  null: null,
  True: true,
  False: false,
  None: null,
  NULL: null,
  TRUE: true,
  FALSE: false,
  undefined: null,
  NaN: Number.NaN,
  Infinity: Number.POSITIVE_INFINITY,
};

const CLOSING_QUOTE: Record<string, string> = { '"': '"', "'": "'", '“': '”', '‘': '’' };

class Reader {
  pos: number;
  halted = false;
  depth = 0;
  readonly incomplete = new WeakSet<object>();

  constructor(
    private readonly text: string,
    start: number,
  ) {
    this.pos = start;
  }

  private skipSpace(): void {
    const t = this.text;
    while (this.pos < t.length) {
      const c = t[this.pos]!;
      if (c === ' ' || c === '\n' || c === '\r' || c === '\t' || c === '\u00a0' || c === '\ufeff') {
        this.pos++;
      } else if (c === '/' && t[this.pos + 1] === '/') {
        const nl = t.indexOf('\n', this.pos);
        this.pos = nl === -1 ? t.length : nl + 1;
      } else if (c === '/' && t[this.pos + 1] === '*') {
        const close = t.indexOf('*/', this.pos + 2);
        this.pos = close === -1 ? t.length : close + 2;
      } else {
        return;
      }
    }
  }

  private stop(container?: object): void {
    this.halted = true;
    if (container) this.incomplete.add(container);
  }

  value(): unknown {
    this.skipSpace();
    if (this.pos >= this.text.length) {
      this.halted = true;
      return MISSING;
    }
    const c = this.text[this.pos]!;
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c in CLOSING_QUOTE) return this.string();
    if (/[-+.\d]/.test(c)) return this.number();
    if (/[A-Za-z_$\p{L}]/u.test(c)) return this.word();
    this.halted = true;
    return MISSING;
  }

  private enter(): boolean {
    if (this.depth >= MAX_DEPTH) {
      this.halted = true;
      return false;
    }
    this.depth++;
    return true;
  }

  private object(): unknown {
    const obj: Record<string, unknown> = {};
    if (!this.enter()) return MISSING;
    this.pos++;
    try {
      for (;;) {
        this.skipSpace();
        if (this.pos >= this.text.length) return this.stopWith(obj);
        const c = this.text[this.pos]!;
        if (c === '}') {
          this.pos++;
          return obj;
        }
        if (c === ',') {
          this.pos++;
          continue;
        }
        const key = this.key();
        if (key === null) return this.stopWith(obj);
        this.skipSpace();
        const sep = this.text[this.pos];
        if (sep !== ':' && sep !== '=' && sep !== '：') return this.stopWith(obj);
        this.pos++;
        const v = this.value();
        if (v !== MISSING) {
          // defineProperty: a key "__proto__" is data, never the prototype.
          Object.defineProperty(obj, key, { value: v, enumerable: true, writable: true, configurable: true });
        }
        if (this.halted) return this.stopWith(obj);
        this.skipSpace();
        const next = this.text[this.pos];
        if (next === ',') this.pos++;
        else if (next === '}') {
          this.pos++;
          return obj;
        } else if (next === undefined) return this.stopWith(obj);
        else if (!(next in CLOSING_QUOTE) && !/[A-Za-z_$]/.test(next)) return this.stopWith(obj);
        // else: a missing comma before the next key; carry on.
      }
    } finally {
      this.depth--;
    }
  }

  private array(): unknown {
    const arr: unknown[] = [];
    if (!this.enter()) return MISSING;
    this.pos++;
    try {
      for (;;) {
        this.skipSpace();
        if (this.pos >= this.text.length) return this.stopWith(arr);
        const c = this.text[this.pos]!;
        if (c === ']') {
          this.pos++;
          return arr;
        }
        if (c === ',') {
          this.pos++;
          continue;
        }
        const v = this.value();
        if (v !== MISSING) arr.push(v);
        if (this.halted) return this.stopWith(arr);
        this.skipSpace();
        const next = this.text[this.pos];
        if (next === ',') this.pos++;
        else if (next === ']') {
          this.pos++;
          return arr;
        } else if (next === undefined) return this.stopWith(arr);
        else if (next !== '{' && next !== '[' && !(next in CLOSING_QUOTE)) return this.stopWith(arr);
        // else: a missing comma before the next element; carry on.
      }
    } finally {
      this.depth--;
    }
  }

  private stopWith<T extends object>(container: T): T {
    this.stop(container);
    return container;
  }

  private key(): string | null {
    const c = this.text[this.pos]!;
    if (c in CLOSING_QUOTE) {
      const s = this.string();
      return this.halted ? null : (s as string);
    }
    const m = /^[A-Za-z_$][\w$-]*/.exec(this.text.slice(this.pos, this.pos + 200));
    if (!m) return null;
    this.pos += m[0].length;
    return m[0];
  }

  /**
   * A quoted string. A closing quote counts only when what follows can follow a string (, : } ] or a line end);
   * otherwise it is taken as a quote the model forgot to escape ("She said "hi"", 'Doesn't like tea').
   */
  private string(): string {
    const t = this.text;
    const close = CLOSING_QUOTE[t[this.pos]!]!;
    this.pos++;
    let out = '';
    while (this.pos < t.length) {
      const c = t[this.pos]!;
      if (c === '\\') {
        const e = t[this.pos + 1];
        if (e === undefined) break;
        this.pos += 2;
        if (e === 'n') out += '\n';
        else if (e === 't') out += '\t';
        else if (e === 'r') out += '\r';
        else if (e === 'b') out += '\b';
        else if (e === 'f') out += '\f';
        else if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(t.slice(this.pos, this.pos + 4))) {
          out += String.fromCharCode(parseInt(t.slice(this.pos, this.pos + 4), 16));
          this.pos += 4;
        } else out += e;
        continue;
      }
      if (c === close && this.closesString(this.pos + 1)) {
        this.pos++;
        return out;
      }
      out += c;
      this.pos++;
    }
    this.pos = t.length;
    this.halted = true;
    return out;
  }

  private closesString(after: number): boolean {
    const t = this.text;
    let i = after;
    while (i < t.length && (t[i] === ' ' || t[i] === '\t')) i++;
    if (i >= t.length) return true;
    return /[,:}\]\n\r：]/.test(t[i]!) || (t[i] === '/' && (t[i + 1] === '/' || t[i + 1] === '*'));
  }

  private number(): unknown {
    const rest = this.text.slice(this.pos, this.pos + 64);
    const signed = /^[-+](?=[A-Za-z])/.exec(rest);
    if (signed) {
      this.pos++;
      const w = this.word();
      return typeof w === 'number' && rest[0] === '-' ? -w : w;
    }
    const m = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?/.exec(rest);
    if (!m) {
      this.halted = true;
      return MISSING;
    }
    this.pos += m[0].length;
    // "80%" and "8/10" are scores a model wrote without quotes; keep them as text for the caller to read.
    const suffix = /^(?:\s*%|\/\d+(?:\.\d+)?)/.exec(this.text.slice(this.pos, this.pos + 16));
    if (suffix) {
      this.pos += suffix[0].length;
      return m[0] + suffix[0].trim();
    }
    return Number(m[0]);
  }

  /** A literal (true, None, NaN, ...) or an unquoted word run up to the next , } ] or line end. */
  private word(): unknown {
    const t = this.text;
    const start = this.pos;
    let end = start;
    while (end < t.length && !/[,}\]\n\r]/.test(t[end]!)) end++;
    const raw = t.slice(start, end).trim();
    const literal = /^[A-Za-z]+/.exec(raw)?.[0];
    if (literal !== undefined && literal === raw && Object.hasOwn(LITERALS, literal)) {
      this.pos = start + literal.length;
      return LITERALS[literal];
    }
    this.pos = end;
    return raw;
  }
}

/** Reads one JSON-ish value starting at `start` (which should be at "{" or "["). Never throws. */
export function readLenientJson(text: string, start = 0): LenientValue {
  const reader = new Reader(text, start);
  const v = reader.value();
  return { value: v === MISSING ? undefined : v, end: reader.pos, incomplete: reader.incomplete, stoppedEarly: reader.halted };
}
