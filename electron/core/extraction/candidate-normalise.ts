/**
 * One item of the extraction model's list, read into Mnemo's fields: the FORM of a candidate memory, before anything
 * checks what it says (candidate-grounding.ts, secret-detector.ts, extract-parse.ts do that).
 *
 * The rule: read what a small model meant, never what it did not write. Small models rename fields ("fact", "type",
 * "quote"), nest the item ({"memory": {...}}), give a bare string, label categories their own way ("hobby", 偏好),
 * score on 0-1, 1-10, 0-100 or in words ("high", 80%), and give validity as words ("next Friday", "permanent"). Each
 * of those is mapped here, by lists that are data (add a synonym, not a branch); anything else is refused with a
 * reason rather than guessed: an unknown category drops the item, an unreadable score is the neutral 0.5, an
 * unreadable validity means no expiry (a fact kept too long can be corrected; a fact lost cannot).
 */
import type { MemoryCategory } from '../../../shared/contract';
import { dayOf, startOfDay } from '../../../shared/calendar-day';
import { LEARNED_MEMORY_MAX_CHARS } from '../text/learned-wording';
import { resolveRelativeDate } from '../time/relative-date';

export const MIN_CONTENT_CHARS = 3;

export const CONTENT_KEYS = ['content', 'memory', 'fact', 'text', 'statement', 'value', 'description', 'summary', 'note', 'information', 'info'];
const CATEGORY_KEYS = ['category', 'type', 'kind', 'class', 'categories', 'tag', 'label'];
const IMPORTANCE_KEYS = ['importance', 'priority', 'weight', 'salience', 'relevance', 'score'];
const CONFIDENCE_KEYS = ['confidence', 'certainty', 'probability', 'conf'];
const VALIDITY_KEYS = ['validity', 'valid_until', 'validUntil', 'expires', 'expiry', 'expires_at', 'expiresAt', 'expiration', 'until', 'duration', 'valid'];
const EVIDENCE_KEYS = ['evidence', 'quote', 'source', 'evidence_quote', 'user_quote', 'citation', 'span', 'excerpt', 'proof', 'source_text'];
const REPLACES_KEYS = ['replaces', 'supersedes', 'replaces_id', 'contradicts'];

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Own key lookup, case-insensitive, first of `names` present. */
export function pick(obj: Record<string, unknown>, names: readonly string[]): unknown {
  const keys = Object.keys(obj);
  for (const name of names) {
    const key = keys.find((k) => k.toLowerCase() === name.toLowerCase());
    if (key !== undefined) return obj[key];
  }
  return undefined;
}

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

export interface Scales {
  importance: number;
  confidence: number;
}

/** The scales of a whole answer (the items examined), read once before its items. */
export function answerScales(items: unknown[]): Scales {
  return { importance: scaleOf(items, IMPORTANCE_KEYS), confidence: scaleOf(items, CONFIDENCE_KEYS) };
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

/**
 * The exchange reaches the model JSON-escaped (extract-prompt.ts), and a model that quotes it sometimes copies the
 * escapes themselves: a line break of the user's message comes back as the two characters \n. Memories never hold
 * escape sequences, unless the user wrote that very sequence (a path such as C:\new).
 */
function unescapeCopied(text: string, userText: string): string {
  return text.replace(/\\(["\\/nrt])/gu, (sequence: string, c: string) => {
    if (userText.includes(sequence)) return sequence;
    return c === 'n' || c === 'r' || c === 't' ? ' ' : c;
  });
}

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

/** A model may answer with 7, "7" or "#7"; anything that is not one of the listed ids is dropped silently. */
function toReplaces(value: unknown, known: ReadonlySet<number>): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(/^#/, '').trim()) : NaN;
  return Number.isInteger(n) && known.has(n) ? n : null;
}

/** An item in Mnemo's fields, not yet checked against the user's words. */
export interface NormalisedItem {
  content: string;
  /** The quote as written, cleaned; '' when the item gave none. */
  evidence: string;
  /** Null: a label no synonym list knows (a missing one is 'knowledge'). */
  category: MemoryCategory | null;
  importance: number;
  confidence: number;
  expiresAt: number | null;
  replaces: number | null;
}

export interface NormaliseContext {
  /** The containers the lenient read left open (lenient-json.ts): an item among them was cut off. */
  incomplete: WeakSet<object>;
  scales: Scales;
  messageDate: number;
  timeZone: string;
  /** Ids of the known memories shown to the model; a `replaces` naming any other id is ignored. */
  knownIds: ReadonlySet<number>;
  /** The user's message as written. */
  userText: string;
}

/** Reads one item, or says why it has no memory in it at all. */
export function normaliseItem(item: unknown, ctx: NormaliseContext): NormalisedItem | 'truncated' | 'not_an_object' | 'content_missing' {
  if (typeof item === 'object' && item !== null && ctx.incomplete.has(item)) return 'truncated';
  const obj = typeof item === 'string' ? { content: item } : isRecord(item) ? unwrapItem(item) : null;
  if (obj === null) return 'not_an_object';
  if (ctx.incomplete.has(obj)) return 'truncated';

  const rawContent = pick(obj, CONTENT_KEYS);
  if (typeof rawContent !== 'string' || rawContent.trim() === '') return 'content_missing';
  const rawEvidence = firstString(pick(obj, EVIDENCE_KEYS));
  const category = mapCategory(pick(obj, CATEGORY_KEYS));
  return {
    content: cleanContent(unescapeCopied(rawContent, ctx.userText)),
    evidence: rawEvidence === undefined ? '' : cleanEvidence(unescapeCopied(rawEvidence, ctx.userText)),
    category: category === undefined ? 'knowledge' : category,
    importance: toShare(pick(obj, IMPORTANCE_KEYS), ctx.scales.importance),
    confidence: toShare(pick(obj, CONFIDENCE_KEYS), ctx.scales.confidence),
    expiresAt: toExpiry(firstString(pick(obj, VALIDITY_KEYS)), ctx.messageDate, ctx.timeZone),
    replaces: toReplaces(pick(obj, REPLACES_KEYS), ctx.knownIds),
  };
}

/** What makes a read item unusable as a memory whatever it says: too short or long, an unknown category, no evidence. */
export function formProblem(item: NormalisedItem): 'content_too_short' | 'content_too_long' | 'unknown_category' | 'evidence_missing' | null {
  if (item.content.length < MIN_CONTENT_CHARS || !/[\p{L}\p{N}]/u.test(item.content)) return 'content_too_short';
  if (item.content.length > LEARNED_MEMORY_MAX_CHARS) return 'content_too_long';
  if (item.category === null) return 'unknown_category';
  if (item.evidence === '') return 'evidence_missing';
  return null;
}
