/**
 * Where the list of memories is in the extraction model's raw answer, or why there is none (MnemoError
 * LLM_BAD_OUTPUT, retryable): the answer's FORM, before any item is read (candidate-normalise.ts).
 *
 * The rule: reasoning is removed by the one think rule (think-splitter.ts, as for chat); then the first JSON value
 * in the answer that holds a memory-like item wins, read from each "{" or "[" in turn (small models wrap the JSON in
 * prose, fences, "Here is {the JSON}:" and chatter after it); the list may sit under any wrapper key, or be a single
 * memory, or a JSON string holding the JSON. A reasoning block that never closed may hold the answer the model meant
 * to give: its LAST list is the final one.
 *
 * Why a hand-written lenient reader (lenient-json.ts) rather than JSON.parse, JSON5 or a "repair" library: those
 * throw at the first flaw, or repair an answer cut off mid-item by closing it, which turns the item that was cut into
 * a complete-looking one ("Lives in Lis"). The lenient reader instead says which objects and arrays it left open, so
 * the items completed before the cut are kept and the cut one is dropped; it reads from any offset inside prose,
 * says where the value ended (so the next start is after it), and never throws or recurses without bound.
 */
import { MnemoError } from '../../../shared/errors';
import { splitThink } from '../llm/think-splitter';
import { CONTENT_KEYS, isRecord, pick } from './candidate-normalise';
import { readLenientJson } from './lenient-json';

/** Answers longer than this are read only this far (as if cut off there). */
export const MAX_RAW_CHARS = 200_000;
/** Places where a JSON value may start that are tried before giving up ("Here is {the JSON}: {...}"). */
const MAX_JSON_STARTS = 32;

const WRAPPER_KEYS = ['memories', 'memory', 'items', 'facts', 'results', 'result', 'data', 'output', 'response', 'candidates', 'extracted', 'entries', 'records', 'list', 'answer', 'json'];

/** Whether a value could be one memory: a non-empty string, or an object with text (or a nested item) as content. */
export function isItemLike(v: unknown): boolean {
  if (typeof v === 'string') return v.trim() !== '';
  if (!isRecord(v)) return false;
  const content = pick(v, CONTENT_KEYS);
  return typeof content === 'string' || isRecord(content);
}

interface Located {
  items: unknown[];
  /** The list itself was cut off (its closing bracket never came). */
  listIncomplete: boolean;
  /** The containers left open by the read that produced `items` (an inner one for a double-encoded list). */
  incomplete: WeakSet<object>;
}

/**
 * Finds the list of memories inside a parsed value: an array; a single memory object; or either under a wrapper
 * key (memories, items, facts, results, ... or any lone key), possibly nested or double-encoded as a JSON string.
 */
function locateItems(value: unknown, incomplete: WeakSet<object>, depth = 0): Located | null {
  if (depth > 6) return null;
  if (Array.isArray(value)) return { items: value, listIncomplete: incomplete.has(value), incomplete };
  if (typeof value === 'string') {
    const s = value.trim();
    if (depth === 0 || !/^[[{]/.test(s)) return null;
    const inner = readLenientJson(s);
    // A string cut off by the end of the answer is cut off inside too: the inner read marks what it left open.
    return locateItems(inner.value, inner.incomplete, depth + 1);
  }
  if (!isRecord(value)) return null;
  // An object with text in a content-like field may be one memory, or a wrapper with a chatty field
  // ({"summary": "2 facts", "memories": [...]}). The schema's own key always wins; another wrapper key wins only
  // with memory-like items in it, so a stray {"data": null} inside a memory does not empty the answer.
  const single = typeof pick(value, CONTENT_KEYS) === 'string';
  const keys = Object.keys(value);
  for (const name of WRAPPER_KEYS) {
    const key = keys.find((k) => k.toLowerCase() === name);
    if (key === undefined) continue;
    const trusted = name === 'memories' || !single;
    const inner = value[key];
    if (inner === null) {
      if (trusted) return { items: [], listIncomplete: false, incomplete }; // {"memories": null}: nothing to remember
      continue;
    }
    const found = locateItems(inner, incomplete, depth + 1);
    if (found && (trusted || found.items.some(isItemLike))) return found;
  }
  if (single) return { items: [value], listIncomplete: false, incomplete };
  if (keys.length === 1) return locateItems(value[keys[0]!], incomplete, depth + 1);
  return null;
}

export interface MemoryList {
  items: unknown[];
  /** The containers the read left open: an item among them was cut off. */
  incomplete: WeakSet<object>;
  /** The list itself was cut off (its closing bracket never came). */
  listIncomplete: boolean;
  /** Reading stopped early: the answer ended, or turned unreadable, before the value did. */
  stoppedEarly: boolean;
}

/**
 * The memories list in a text: the first (or, for an unfinished reasoning block, the last) JSON value that holds
 * at least one memory-like item; failing that, a complete empty list; failing that, a list cut off before its first
 * item; failing that, null.
 */
function findList(text: string, prefer: 'first' | 'last'): MemoryList | null {
  let emptyList: MemoryList | null = null;
  let cutList: MemoryList | null = null;
  let best: MemoryList | null = null;
  let tried = 0;
  for (let i = 0; i < text.length && tried < MAX_JSON_STARTS; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    tried++;
    const read = readLenientJson(text, i);
    const located = locateItems(read.value, read.incomplete);
    if (!located) continue;
    const found: MemoryList = { ...located, stoppedEarly: read.stoppedEarly };
    if (located.items.some(isItemLike)) {
      best = found;
      if (prefer === 'first') return best;
      i = Math.max(i, read.end - 1); // the next value starts after this one
    } else if (located.items.length === 0) {
      if (!located.listIncomplete) emptyList ??= found;
      else cutList ??= found; // "{"memories": [" and nothing after: cut off, not empty
    }
  }
  return best ?? emptyList ?? cutList;
}

type BadOutputReason = 'empty' | 'only_thinking' | 'no_json' | 'no_items' | 'truncated';

/** The retryable failure for an answer unusable as a whole; the reason is safe to log (no model text). */
export function badOutput(reason: BadOutputReason): MnemoError {
  const what = {
    empty: 'an empty answer',
    only_thinking: 'reasoning without an answer',
    no_json: 'an answer without JSON',
    no_items: 'JSON without a list of memories',
    truncated: 'an answer cut off before its first memory was complete',
  }[reason];
  return new MnemoError('LLM_BAD_OUTPUT', `The background model returned ${what}; the extraction will be retried.`, {
    details: { reason },
  });
}

/** An answer that is one JSON string holding the JSON ("{\"memories\": ...}") is read as that inner text. */
function unquoteWholeAnswer(answer: string): string {
  const t = answer.trim();
  if (!t.startsWith('"') || !t.endsWith('"')) return answer;
  try {
    const inner: unknown = JSON.parse(t);
    return typeof inner === 'string' ? inner : answer;
  } catch {
    return answer;
  }
}

/**
 * The list of memories in the model's raw answer (reasoning blocks are removed here). `truncated`: the answer was
 * cut off or unreadable from some point, so items after the cut are unknown. Throws LLM_BAD_OUTPUT when there is no
 * list at all, or only one cut off before its first item.
 */
export function locateMemoryList(raw: string): MemoryList & { truncated: boolean } {
  const text = typeof raw === 'string' ? raw : '';
  const clipped = text.length > MAX_RAW_CHARS;
  const split = splitThink(clipped ? text.slice(0, MAX_RAW_CHARS) : text);
  const answer = unquoteWholeAnswer(split.content);
  const openThinking = split.unclosed;

  let found = findList(answer, 'first');
  if ((found === null || !found.items.some(isItemLike)) && openThinking !== null) {
    const fromThinking = findList(openThinking, 'last');
    if (fromThinking && (found === null || fromThinking.items.some(isItemLike))) found = fromThinking;
  }
  if (found === null) {
    if (answer.trim() === '') throw badOutput(openThinking === null || openThinking.trim() === '' ? 'empty' : 'only_thinking');
    throw badOutput(/[[{]/.test(answer) || (openThinking !== null && /[[{]/.test(openThinking)) ? 'no_items' : 'no_json');
  }
  if (found.items.length === 0 && found.listIncomplete) throw badOutput('truncated');
  return { ...found, truncated: clipped || found.listIncomplete || found.stoppedEarly };
}
