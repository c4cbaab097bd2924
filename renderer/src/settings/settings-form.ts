/**
 * The settings form as data: which fields it has, their ranges (the same as shared/contract/settings.contract.ts),
 * how a draft of raw input strings is validated, and how a valid draft becomes one settings.update patch.
 * Nested groups (retrieval, summary, budget) are sent whole: the contract fills a missing member with its default,
 * so a partial group would silently reset the others.
 */
import type { Settings } from '../../../shared/contract';
import { canonicalTimeZone } from '../../../shared/time-zone';
import { CONTEXT_WINDOW_TOKENS } from '../../../shared/context-window';
import type { MessageKey } from '../i18n';

export const NUMBER_FIELDS = {
  'retrieval.similarityWeight': { min: 0, max: 1, step: 0.05 },
  'retrieval.importanceWeight': { min: 0, max: 1, step: 0.05 },
  'retrieval.recencyWeight': { min: 0, max: 1, step: 0.05 },
  'retrieval.recencyHalfLifeDays': { min: 0, max: 3650, step: 1, exclusiveMin: true },
  'retrieval.minSimilarity': { min: 0, max: 1, step: 0.05 },
  'retrieval.limit': { min: 1, max: 100, step: 1, integer: true },
  'summary.minNewMessages': { min: 2, max: 1000, step: 1, integer: true },
  'summary.minNewTokens': { min: 100, max: 100_000, step: 100, integer: true },
  'budget.system': { min: 0, max: 1, step: 0.05 },
  'budget.memories': { min: 0, max: 1, step: 0.05 },
  'budget.conversation': { min: 0, max: 1, step: 0.05 },
  'budget.reply': { min: 0, max: 1, step: 0.05 },
  modelLoadTimeoutSeconds: { min: 1, max: 3600, step: 10, integer: true },
  contextWindowTokens: { min: CONTEXT_WINDOW_TOKENS.min, max: CONTEXT_WINDOW_TOKENS.max, step: 1024, integer: true },
  nearDuplicateSimilarity: { min: 0.5, max: 1, step: 0.01 },
  trashRetentionDays: { min: 1, max: 3650, step: 1, integer: true },
  activeMemoryCap: { min: 100, max: 1_000_000, step: 100, integer: true },
} satisfies Record<string, NumberField>;

interface NumberField {
  min: number;
  max: number;
  step: number;
  integer?: boolean;
  /** The minimum itself is not allowed (e.g. a half-life must be more than 0). */
  exclusiveMin?: boolean;
}

export type NumberPath = keyof typeof NUMBER_FIELDS;
export type TextPath = 'ollamaHost' | 'chatModel' | 'backgroundModel' | 'embeddingProvider' | 'embeddingModel' | 'memoryMode' | 'timeZone';
export type FieldPath = NumberPath | TextPath;
export type Draft = Partial<Record<FieldPath, string>>;
export interface FieldError {
  key: MessageKey;
  params?: Record<string, string | number>;
}

export const BUDGET_PATHS = ['budget.system', 'budget.memories', 'budget.conversation', 'budget.reply'] as const;
type Group = 'retrieval' | 'summary' | 'budget';

export function fieldOf(path: NumberPath): NumberField {
  return NUMBER_FIELDS[path];
}

/** The stored value of a field, as the form shows it. */
export function storedValue(settings: Settings, path: FieldPath): string {
  const [group, key] = path.split('.') as [string, string | undefined];
  const value = key === undefined ? (settings as unknown as Record<string, unknown>)[group] : (settings as unknown as Record<string, Record<string, unknown>>)[group]?.[key];
  return String(value ?? '');
}

export function currentValue(settings: Settings, draft: Draft, path: FieldPath): string {
  return draft[path] ?? storedValue(settings, path);
}

export function isNumberPath(path: string): path is NumberPath {
  return Object.prototype.hasOwnProperty.call(NUMBER_FIELDS, path);
}

function checkNumber(path: NumberPath, raw: string): FieldError | null {
  const field = NUMBER_FIELDS[path] as NumberField;
  const text = raw.trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) return { key: 'settings.error.number' };
  if (field.integer && !Number.isInteger(value)) return { key: 'settings.error.integer' };
  if (value > field.max || value < field.min || (field.exclusiveMin && value === field.min)) {
    return { key: field.exclusiveMin ? 'settings.error.rangeAbove' : 'settings.error.range', params: { min: field.min, max: field.max } };
  }
  return null;
}

function checkHost(raw: string): FieldError | null {
  const text = raw.trim();
  if (text === '') return null;
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return null;
  } catch {}
  return { key: 'settings.error.host' };
}

const REQUIRED: readonly FieldPath[] = ['chatModel', 'backgroundModel', 'embeddingModel'];

function checkField(path: FieldPath, raw: string): FieldError | null {
  if (isNumberPath(path)) return checkNumber(path, raw);
  if (path === 'ollamaHost') return checkHost(raw);
  // The contract's rule (an IANA name the platform knows, or empty for the system's zone), checked before sending.
  if (path === 'timeZone') return raw.trim() === '' || canonicalTimeZone(raw.trim()) !== null ? null : { key: 'settings.error.timeZone' };
  if (REQUIRED.includes(path) && raw.trim() === '') return { key: 'settings.error.required' };
  return null;
}

export interface Validation {
  errors: Partial<Record<FieldPath, FieldError>>;
  /**
   * The context shares as they would be saved (the form shows the running total); null while a share is not a
   * number from 0 to 1, since any total would then be made up.
   */
  budgetTotal: number | null;
  budgetError: FieldError | null;
  valid: boolean;
}

export function validateDraft(settings: Settings, draft: Draft): Validation {
  const errors: Partial<Record<FieldPath, FieldError>> = {};
  for (const [path, raw] of Object.entries(draft) as Array<[FieldPath, string]>) {
    const error = checkField(path, raw);
    if (error) errors[path] = error;
  }
  const sharesValid = BUDGET_PATHS.every((path) => errors[path] === undefined);
  const budgetTotal = sharesValid ? BUDGET_PATHS.reduce((sum, path) => sum + Number(currentValue(settings, draft, path)), 0) : null;
  // The same tolerance as the contract's refinement: 0.15 + 0.15 + 0.5 + 0.2 is 1.0000000000000002 in floating point.
  const budgetError: FieldError | null =
    budgetTotal !== null && budgetTotal > 1.0001 ? { key: 'settings.error.budget', params: { total: Math.round(budgetTotal * 100) / 100 } } : null;
  return { errors, budgetTotal, budgetError, valid: Object.keys(errors).length === 0 && budgetError === null };
}

export function isDirty(settings: Settings, draft: Draft): boolean {
  return (Object.entries(draft) as Array<[FieldPath, string]>).some(([path, raw]) => normalized(path, raw) !== storedValue(settings, path));
}

function normalized(path: FieldPath, raw: string): string {
  return isNumberPath(path) ? String(Number(raw.trim())) : raw.trim();
}

/** One patch for settings.update; call only with a valid draft. */
export function buildPatch(settings: Settings, draft: Draft): Partial<Settings> {
  const patch: Record<string, unknown> = {};
  const groups: Partial<Record<Group, Record<string, unknown>>> = {};
  for (const [path, raw] of Object.entries(draft) as Array<[FieldPath, string]>) {
    if (normalized(path, raw) === storedValue(settings, path)) continue;
    const value = isNumberPath(path) ? Number(raw.trim()) : raw.trim();
    const [head, key] = path.split('.') as [string, string | undefined];
    if (key === undefined) patch[head] = value;
    else (groups[head as Group] ??= { ...(settings[head as Group] as Record<string, unknown>) })[key] = value;
  }
  return { ...patch, ...groups } as Partial<Settings>;
}
