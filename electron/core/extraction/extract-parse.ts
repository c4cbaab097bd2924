/**
 * Turns the extraction model's raw answer into candidate memories, or refuses it.
 *
 * The model's answer is untrusted in two ways: its FORM (small models wrap, fence, think aloud, rename fields, use
 * other scales, get cut off) and its CONTENT (it may restate the assistant's guess as a user fact, copy a pasted API
 * key, or obey an injection in the conversation). Form is repaired as far as it honestly can be; content is checked
 * against the user's own words:
 *
 * - every candidate is grounded in the user's words: all of its content, most of its evidence and every name and
 *   number in either (candidate-grounding.ts); this is what stops invented facts, the assistant's suggestions and
 *   echoes of the extraction prompt, while third-person, restated and reworded answers pass;
 * - nothing with a secret in its content or evidence survives (secret-detector.ts), nor anything repeating a secret
 *   the user's message holds, keyword or not ("my bank PIN 4821" -> "Has a bank PIN (4821)");
 * - text that reads like an instruction to the assistant is kept but flagged, for the review inbox; so is content
 *   written in another language than the user's message (message-language.ts), which is then not checked word by
 *   word (it cannot be) but must still rest on evidence in the user's words.
 *
 * Outcomes: candidates (possibly none) plus the dropped items with a reason, or MnemoError LLM_BAD_OUTPUT (retryable)
 * when the answer is unusable as a whole: empty, no JSON, no list of memories, or cut off before the first item was
 * complete. A well-formed empty list ({"memories": []}) is a success with no candidates.
 *
 * Reasons never contain the user's or the model's text, so they are safe to log.
 */
import { z } from 'zod';
import { MemoryCategory, ReviewFlag } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { splitThink } from '../llm/think-splitter';
import { normalizeForHash } from '../memory/content-hash';
import { contentGrounding, evidenceGrounding, indexUserWords, normalizeForEvidence, type UserWords } from './candidate-grounding';
import { MAX_CANDIDATES } from './extract-prompt';
import { INJECTION_KINDS, looksLikeInstruction } from './instruction-detector';
import { readLenientJson } from './lenient-json';
import { detectLanguage, otherLanguageReason, type MessageLanguage } from './message-language';
import { resolveRelativeDate } from './relative-date';
import { dayOf, startOfDay } from '../../../shared/calendar-day';
import { detectSecret, secretEchoCheck, type SecretMatch } from './secret-detector';

export const MIN_CONTENT_CHARS = 3;
export const MAX_CONTENT_CHARS = 300;
export const MAX_EVIDENCE_CHARS = 300;
/** Answers longer than this are read only this far (as if cut off there). */
export const MAX_RAW_CHARS = 200_000;
/** Items after this many are not examined at all. */
const MAX_ITEMS_EXAMINED = 50;
/** Places where a JSON value may start that are tried before giving up ("Here is {the JSON}: {...}"). */
const MAX_JSON_STARTS = 32;
/** Why a candidate should wait in the review inbox instead of going straight into memory (review.contract.ts). */
export const CandidateFlag = ReviewFlag;
export type CandidateFlag = ReviewFlag;

export const Candidate = z.object({
  content: z.string().min(MIN_CONTENT_CHARS).max(MAX_CONTENT_CHARS),
  category: MemoryCategory,
  importance: z.number().min(0).max(1),
  confidence: z.number().min(0).max(1),
  /** End of the last day the fact holds (ms, UTC), or null for no expiry. */
  expiresAt: z.number().int().nullable(),
  /** The user's words the fact rests on (checked against the user's text). */
  evidence: z.string().min(1).max(MAX_EVIDENCE_CHARS),
  /**
   * 'instruction': reads like an instruction to the assistant; 'language': written in another language than the
   * user's message. Either way it goes to the review inbox rather than into memory.
   */
  flag: CandidateFlag.nullable(),
  /** The id of a known memory this fact contradicts (same subject, new value); only ids the prompt listed. */
  replaces: z.number().int().positive().nullable(),
  /**
   * With a flag: where the instruction-like text was seen (content, evidence, or the user's message as a whole) and
   * what it looked like, e.g. "content: a rule for every answer"; or the two languages, "content in English, message
   * in Chinese". Safe to log (no user text). Null without a flag.
   */
  flagReason: z.string().nullable(),
});
export type Candidate = z.output<typeof Candidate>;

export type DropReason =
  | 'truncated'
  | 'not_an_object'
  | 'content_missing'
  | 'content_too_short'
  | 'content_too_long'
  | 'unknown_category'
  | 'evidence_missing'
  | 'evidence_too_short'
  | 'evidence_too_long'
  | 'evidence_not_in_user_text'
  | 'content_not_in_user_text'
  | `secret:${string}`
  | 'invalid_fields'
  | 'duplicate'
  | 'beyond_max_items';

export interface DroppedItem {
  /** Position of the item in the model's list (0-based). */
  index: number;
  reason: DropReason;
}

export interface ExtractionResult {
  candidates: Candidate[];
  dropped: DroppedItem[];
  /** The answer was cut off (or unreadable from some point): items after the cut are unknown. */
  truncated: boolean;
}

export interface ParseContext {
  /** The user's message, exactly as stored: evidence must come from it. */
  userText: string;
  /** When the user's message was written (ms): relative validities resolve against it. */
  messageDate: number;
  /** Default MAX_CANDIDATES (3). */
  maxItems?: number;
  /** Ids of the known memories shown to the model; a `replaces` naming any other id is ignored. */
  knownIds?: ReadonlySet<number>;
  /** The user's time zone (userTimeZone(settings.timeZone)): "today" and dates are their days. Default UTC. */
  timeZone?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Locating the list in the answer

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/**
 * The answer without reasoning, plus the text of a reasoning block left open at the end (if any). A `</think>`
 * with no opener before it means the template opened the block: everything before it is reasoning.
 */
function withoutThinking(raw: string): { answer: string; openThinking: string | null } {
  let text = raw;
  const firstClose = text.indexOf(THINK_CLOSE);
  const firstOpen = text.indexOf(THINK_OPEN);
  if (firstClose !== -1 && (firstOpen === -1 || firstClose < firstOpen)) text = text.slice(firstClose + THINK_CLOSE.length);
  const lastOpen = text.lastIndexOf(THINK_OPEN);
  const openThinking = lastOpen !== -1 && text.indexOf(THINK_CLOSE, lastOpen) === -1 ? text.slice(lastOpen + THINK_OPEN.length) : null;
  return { answer: splitThink(text).content, openThinking };
}

const CONTENT_KEYS = ['content', 'memory', 'fact', 'text', 'statement', 'value', 'description', 'summary', 'note', 'information', 'info'];
const CATEGORY_KEYS = ['category', 'type', 'kind', 'class', 'categories', 'tag', 'label'];
const IMPORTANCE_KEYS = ['importance', 'priority', 'weight', 'salience', 'relevance', 'score'];
const CONFIDENCE_KEYS = ['confidence', 'certainty', 'probability', 'conf'];
const VALIDITY_KEYS = ['validity', 'valid_until', 'validUntil', 'expires', 'expiry', 'expires_at', 'expiresAt', 'expiration', 'until', 'duration', 'valid'];
const EVIDENCE_KEYS = ['evidence', 'quote', 'source', 'evidence_quote', 'user_quote', 'citation', 'span', 'excerpt', 'proof', 'source_text'];
const WRAPPER_KEYS = ['memories', 'memory', 'items', 'facts', 'results', 'result', 'data', 'output', 'response', 'candidates', 'extracted', 'entries', 'records', 'list', 'answer', 'json'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Own key lookup, case-insensitive, first of `names` present. */
function pick(obj: Record<string, unknown>, names: readonly string[]): unknown {
  const keys = Object.keys(obj);
  for (const name of names) {
    const key = keys.find((k) => k.toLowerCase() === name.toLowerCase());
    if (key !== undefined) return obj[key];
  }
  return undefined;
}

function isItemLike(v: unknown): boolean {
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

interface Found {
  items: unknown[];
  incomplete: WeakSet<object>;
  listIncomplete: boolean;
  stoppedEarly: boolean;
}

/**
 * The memories list in a text: the first (or, for an unfinished reasoning block, the last) JSON value that holds
 * at least one memory-like item; failing that, a complete empty list; failing that, a list cut off before its first
 * item; failing that, null.
 */
function findList(text: string, prefer: 'first' | 'last'): Found | null {
  let emptyList: Found | null = null;
  let cutList: Found | null = null;
  let best: Found | null = null;
  let tried = 0;
  for (let i = 0; i < text.length && tried < MAX_JSON_STARTS; i++) {
    const c = text[i];
    if (c !== '{' && c !== '[') continue;
    tried++;
    const read = readLenientJson(text, i);
    const located = locateItems(read.value, read.incomplete);
    if (!located) continue;
    const found: Found = { ...located, stoppedEarly: read.stoppedEarly };
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

function badOutput(reason: BadOutputReason): MnemoError {
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

// ---------------------------------------------------------------------------------------------------------------
// Normalizing one item

const CATEGORY_SYNONYMS: Record<string, MemoryCategory> = {};
function synonyms(category: MemoryCategory, words: string[]): void {
  for (const w of words) CATEGORY_SYNONYMS[w] = category;
}
synonyms('preference', [
  'preference', 'preferences', 'pref', 'prefs', 'like', 'likes', 'dislike', 'dislikes', 'favorite', 'favorites',
  'favourite', 'favourites', 'taste', 'tastes', 'habit', 'habits', 'interest', 'interests', 'hobby', 'hobbies',
  'opinion', 'opinions', 'routine', 'style', 'diet', '偏好', '喜好', '爱好', '喜欢', '习惯', '兴趣', '口味',
]);
synonyms('knowledge', [
  'knowledge', 'fact', 'facts', 'personal', 'personal info', 'personal information', 'personal fact', 'personal facts',
  'personal detail', 'personal details', 'biographical', 'biography', 'bio', 'background', 'identity', 'profile',
  'about', 'about me', 'info', 'information', 'user info', 'user fact', 'demographic', 'demographics', 'family',
  'relationship', 'relationships', 'location', 'health', 'life', 'context', 'general', '知识', '事实', '个人信息',
  '背景', '身份', '家庭', '个人',
]);
synonyms('project', [
  'project', 'projects', 'work', 'job', 'goal', 'goals', 'plan', 'plans', 'task', 'tasks', 'objective', 'objectives',
  'career', 'ongoing', 'work project', 'current project', 'intent', 'intention', 'intentions', '项目', '工作',
  '计划', '目标', '任务',
]);
synonyms('skill', [
  'skill', 'skills', 'ability', 'abilities', 'expertise', 'competence', 'competency', 'competencies', 'proficiency',
  'experience', 'capability', 'capabilities', 'technical skill', 'technical skills', '技能', '能力', '专长', '特长',
]);

/** The category a model's label stands for; undefined when missing (the caller defaults), null when unknown. */
function mapCategory(value: unknown): MemoryCategory | null | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return undefined;
  if (typeof first !== 'string') return null;
  const label = first.normalize('NFKC').trim().toLowerCase();
  if (label === '') return undefined;
  for (const part of [label, ...label.split(/\s*[/|,;]\s*/)]) {
    const key = part.replace(/[\s_-]+/g, ' ').trim();
    const hit = CATEGORY_SYNONYMS[key];
    if (hit) return hit;
  }
  return null;
}

const SCORE_WORDS: Record<string, number> = {
  critical: 1, 'very high': 0.9, highest: 0.95, high: 0.8, important: 0.8, 'medium high': 0.65, medium: 0.5,
  moderate: 0.5, normal: 0.5, average: 0.5, mid: 0.5, 'medium low': 0.35, low: 0.2, 'very low': 0.1, lowest: 0.05,
  minor: 0.2, certain: 0.95, sure: 0.9, likely: 0.7, unsure: 0.3, uncertain: 0.3, 高: 0.8, 中: 0.5, 低: 0.2, 很高: 0.9,
  非常高: 0.95, 较高: 0.7, 一般: 0.5, 较低: 0.3,
};

/** A score as written: a number, or null when unreadable. Percent and "n/10" are read outright (`exact`). */
function readScore(value: unknown): { n: number; exact: boolean } | null {
  if (typeof value === 'number') return Number.isFinite(value) ? { n: value, exact: false } : null;
  if (typeof value !== 'string') return null;
  const s = value.normalize('NFKC').trim().toLowerCase();
  const percent = /^(-?\d+(?:\.\d+)?)\s*%$/.exec(s);
  if (percent) return { n: Number(percent[1]) / 100, exact: true };
  const outOf = /^(-?\d+(?:\.\d+)?)\s*(?:\/|out of|of)\s*(\d+(?:\.\d+)?)$/.exec(s);
  if (outOf && Number(outOf[2]) > 0) return { n: Number(outOf[1]) / Number(outOf[2]), exact: true };
  if (/^-?\d+(?:\.\d+)?$/.test(s)) return { n: Number(s), exact: false };
  const word = SCORE_WORDS[s.replace(/[\s_-]+/g, ' ')];
  return word === undefined ? null : { n: word, exact: true };
}

/**
 * The scale a whole answer uses for one field: if any item wrote more than 10 it is 0-100, more than 1 it is 1-10,
 * else 0-1. Needed because "1" means 1.0 on a 0-1 scale but 0.1 on a 1-10 scale.
 */
function scaleOf(items: unknown[], keys: readonly string[]): number {
  let max = 0;
  for (const item of items) {
    if (!isRecord(item)) continue;
    const score = readScore(pick(item, keys));
    if (score && !score.exact) max = Math.max(max, score.n);
  }
  return max > 10 ? 100 : max > 1 ? 10 : 1;
}

const DEFAULT_SCORE = 0.5;

function toShare(value: unknown, scale: number): number {
  const score = readScore(value);
  if (!score) return DEFAULT_SCORE;
  let n = score.n;
  if (!score.exact) {
    // A fraction is a 0-1 value whatever the others say; whole numbers follow the answer's scale.
    if (!(n > 0 && n < 1 && !Number.isInteger(n))) n = n > 10 ? n / 100 : n > 1 ? n / 10 : scale === 1 ? n : n / scale;
  }
  return Math.min(1, Math.max(0, n));
}

const PERMANENT = new Set([
  'permanent', 'permanently', 'forever', 'always', 'indefinite', 'indefinitely', 'none', 'null', 'n/a', 'na', 'never',
  'no expiry', 'no expiration', 'unknown', 'ongoing', 'lifetime', 'long term', 'long-term', 'unlimited', 'persistent',
  'stable', 'durable', '永久', '永远', '长期', '无', '一直', '无期限', '不限',
]);

/** End of the last valid day (ms), or null: permanent, unreadable, or already past on the message's day. */
function toExpiry(value: unknown, messageDate: number, timeZone: string): number | null {
  if (typeof value !== 'string') return null;
  const s = value.normalize('NFKC').trim().toLowerCase().replace(/[.。]$/, '');
  if (s === '' || PERMANENT.has(s)) return null;
  const at = resolveRelativeDate(s, messageDate, timeZone);
  if (at === null) return null;
  const startOfMessageDay = startOfDay(dayOf(messageDate, timeZone), timeZone);
  // A date before the message's day cannot be when the fact stops holding: most likely a wrong year. Keep the fact.
  return at < startOfMessageDay ? null : at;
}

function oneLine(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

const WRAPPING_QUOTES = /^["'“”‘’「」『』«»`]+|["'“”‘’「」『』«»`]+$/gu;

function cleanContent(text: string): string {
  return oneLine(text)
    .replace(/^(?:[-*•]\s+|\d+[.)]\s+)/u, '')
    .replace(WRAPPING_QUOTES, '')
    .trim();
}

function cleanEvidence(text: string): string {
  return oneLine(text)
    .replace(/^(?:\.\.\.|…)+|(?:\.\.\.|…)+$/gu, '')
    .replace(WRAPPING_QUOTES, '')
    .trim();
}

/** Whether `evidence` is the user's own words, by the rule of candidate-grounding.ts. */
export function evidenceSupportedBy(evidence: string, userText: string): boolean {
  return evidenceGrounding(evidence, indexUserWords(userText)) === null;
}

/** Cuts a verbatim quote to the cap at a word boundary (still a substring of the user's text). */
function shortenEvidence(evidence: string): string {
  if (evidence.length <= MAX_EVIDENCE_CHARS) return evidence;
  const cut = evidence.slice(0, MAX_EVIDENCE_CHARS);
  const space = cut.lastIndexOf(' ');
  return (space > MAX_EVIDENCE_CHARS / 2 ? cut.slice(0, space) : cut).trim();
}

function unwrapItem(item: Record<string, unknown>): Record<string, unknown> {
  let current = item;
  for (let i = 0; i < 2; i++) {
    const content = pick(current, CONTENT_KEYS);
    if (isRecord(content)) {
      current = content;
      continue;
    }
    const keys = Object.keys(current);
    if (content === undefined && keys.length === 1 && isRecord(current[keys[0]!])) {
      current = current[keys[0]!] as Record<string, unknown>;
      continue;
    }
    break;
  }
  return current;
}

function firstString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.find((v): v is string => typeof v === 'string');
  return undefined;
}

interface Scales {
  importance: number;
  confidence: number;
}

interface ItemContext {
  incomplete: WeakSet<object>;
  messageDate: number;
  timeZone: string;
  user: UserWords;
  /** The language of the user's message: content in the other one goes to review. */
  language: MessageLanguage;
  scales: Scales;
  userTextInjection: () => Flagging;
  /** Finds a secret of the user's message repeated in a candidate's text. */
  userSecretEcho: (text: string) => SecretMatch | null;
  knownIds: ReadonlySet<number>;
}

const REPLACES_KEYS = ['replaces', 'supersedes', 'replaces_id', 'contradicts'];

/** A model may answer with 7, "7" or "#7"; anything that is not one of the listed ids is dropped silently. */
function toReplaces(value: unknown, known: ReadonlySet<number>): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(/^#/, '').trim()) : NaN;
  return Number.isInteger(n) && known.has(n) ? n : null;
}

function normalizeItem(item: unknown, ictx: ItemContext): Candidate | DropReason {
  const { incomplete, scales } = ictx;
  if (typeof item === 'object' && item !== null && incomplete.has(item)) return 'truncated';
  const obj = typeof item === 'string' ? { content: item } : isRecord(item) ? unwrapItem(item) : null;
  if (obj === null) return 'not_an_object';
  if (incomplete.has(obj)) return 'truncated';

  const rawContent = pick(obj, CONTENT_KEYS);
  if (typeof rawContent !== 'string' || rawContent.trim() === '') return 'content_missing';
  const content = cleanContent(rawContent);
  const rawEvidence = firstString(pick(obj, EVIDENCE_KEYS));
  const evidenceText = rawEvidence === undefined ? '' : cleanEvidence(rawEvidence);

  // Secrets first: whatever else is wrong with the item, this is the reason that matters.
  const secret = detectSecret(content) ?? (evidenceText ? detectSecret(evidenceText) : null) ?? ictx.userSecretEcho(`${content}\n${evidenceText}`);
  if (secret) return `secret:${secret.kind}`;

  if (content.length < MIN_CONTENT_CHARS || !/[\p{L}\p{N}]/u.test(content)) return 'content_too_short';
  if (content.length > MAX_CONTENT_CHARS) return 'content_too_long';

  const category = mapCategory(pick(obj, CATEGORY_KEYS));
  if (category === null) return 'unknown_category';

  if (evidenceText === '') return 'evidence_missing';
  const tooLong = evidenceText.length > MAX_EVIDENCE_CHARS;
  if (tooLong && !ictx.user.normalized.includes(normalizeForEvidence(evidenceText))) return 'evidence_too_long';
  const evidenceProblem = evidenceGrounding(evidenceText, ictx.user);
  if (evidenceProblem) return evidenceProblem;
  const evidence = tooLong ? shortenEvidence(evidenceText) : evidenceText;
  // Content in the other language cannot be compared word by word: it rests on its evidence, and waits for review.
  const otherLanguage = otherLanguageReason(content, ictx.language);
  if (otherLanguage === null) {
    const contentProblem = contentGrounding(content, ictx.user);
    if (contentProblem) return contentProblem;
  }

  const candidate: Candidate = {
    content,
    category: category ?? 'knowledge',
    importance: toShare(pick(obj, IMPORTANCE_KEYS), scales.importance),
    confidence: toShare(pick(obj, CONFIDENCE_KEYS), scales.confidence),
    expiresAt: toExpiry(firstString(pick(obj, VALIDITY_KEYS)), ictx.messageDate, ictx.timeZone),
    evidence,
    ...reviewFlag(content, evidence, otherLanguage, ictx.userTextInjection),
    replaces: toReplaces(pick(obj, REPLACES_KEYS), ictx.knownIds),
  };
  return Candidate.safeParse(candidate).success ? candidate : 'invalid_fields';
}

/**
 * The memory's own text decides first (it is what future prompts will contain). Its evidence and the user's whole
 * message count only for outright injection (override, system prompt, role change, concealment): a user who says
 * "from now on answer in French" has stated a preference, but one whose message says "ignore previous
 * instructions" may be pasting an attack, and every fact drawn from it deserves a human look.
 */
type Flagging = Pick<Candidate, 'flag' | 'flagReason'>;
const NOT_FLAGGED: Flagging = { flag: null, flagReason: null };

/** An instruction outranks a language slip: it is the reason the user most needs to see. */
function reviewFlag(content: string, evidence: string, otherLanguage: string | null, userTextInjection: () => Flagging): Flagging {
  const instruction = instructionFlag(content, evidence, userTextInjection);
  return instruction.flag !== null || otherLanguage === null ? instruction : { flag: 'language', flagReason: otherLanguage };
}

function instructionFlag(content: string, evidence: string, userTextInjection: () => Flagging): Flagging {
  const own = looksLikeInstruction(content);
  if (own) return { flag: 'instruction', flagReason: `content: ${own.reason}` };
  const quoted = looksLikeInstruction(evidence);
  if (quoted && INJECTION_KINDS.has(quoted.kind)) return { flag: 'instruction', flagReason: `evidence: ${quoted.reason}` };
  return userTextInjection();
}

function injectionIn(userText: string): () => Flagging {
  let memo: Flagging | undefined;
  return () => {
    if (memo === undefined) {
      const m = looksLikeInstruction(userText);
      memo = m && INJECTION_KINDS.has(m.kind) ? { flag: 'instruction', flagReason: `user message: ${m.reason}` } : NOT_FLAGGED;
    }
    return memo;
  };
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

// ---------------------------------------------------------------------------------------------------------------

/**
 * Parses the extraction model's answer (its content; reasoning blocks are removed here too). Throws MnemoError
 * LLM_BAD_OUTPUT only when the answer is unusable as a whole; see the file comment.
 */
export function parseExtraction(raw: string, ctx: ParseContext): ExtractionResult {
  const maxItems = Math.max(0, Math.floor(ctx.maxItems ?? MAX_CANDIDATES));
  const text = typeof raw === 'string' ? raw : '';
  const clipped = text.length > MAX_RAW_CHARS;
  const { answer: visible, openThinking } = withoutThinking(clipped ? text.slice(0, MAX_RAW_CHARS) : text);
  const answer = unquoteWholeAnswer(visible);

  let found = findList(answer, 'first');
  // A reasoning block that never closed may hold the answer the model meant to give; its LAST list is the final one.
  if ((found === null || !found.items.some(isItemLike)) && openThinking !== null) {
    const fromThinking = findList(openThinking, 'last');
    if (fromThinking && (found === null || fromThinking.items.some(isItemLike))) found = fromThinking;
  }
  if (found === null) {
    if (answer.trim() === '') throw badOutput(openThinking === null || openThinking.trim() === '' ? 'empty' : 'only_thinking');
    throw badOutput(/[[{]/.test(answer) || (openThinking !== null && /[[{]/.test(openThinking)) ? 'no_items' : 'no_json');
  }

  const { items, incomplete } = found;
  const examined = items.slice(0, MAX_ITEMS_EXAMINED);
  const scales: Scales = { importance: scaleOf(examined, IMPORTANCE_KEYS), confidence: scaleOf(examined, CONFIDENCE_KEYS) };
  const candidates: Candidate[] = [];
  const dropped: DroppedItem[] = [];
  const seen = new Set<string>();
  const ictx: ItemContext = { incomplete, messageDate: ctx.messageDate, timeZone: ctx.timeZone ?? 'UTC', user: indexUserWords(ctx.userText), language: detectLanguage(ctx.userText), scales, userTextInjection: injectionIn(ctx.userText), userSecretEcho: secretEchoCheck(ctx.userText), knownIds: ctx.knownIds ?? new Set() };
  let complete = 0;

  examined.forEach((item, index) => {
    const result = normalizeItem(item, ictx);
    if (result !== 'truncated') complete++;
    if (typeof result === 'string') {
      dropped.push({ index, reason: result });
      return;
    }
    const key = normalizeForHash(result.content);
    if (seen.has(key)) {
      dropped.push({ index, reason: 'duplicate' });
      return;
    }
    seen.add(key);
    if (candidates.length >= maxItems) {
      dropped.push({ index, reason: 'beyond_max_items' });
      return;
    }
    candidates.push(result);
  });
  for (let index = MAX_ITEMS_EXAMINED; index < items.length; index++) dropped.push({ index, reason: 'beyond_max_items' });

  if (items.length > 0 && complete === 0) throw badOutput('truncated');
  if (items.length === 0 && found.listIncomplete) throw badOutput('truncated');
  return { candidates, dropped, truncated: clipped || found.listIncomplete || found.stoppedEarly };
}
