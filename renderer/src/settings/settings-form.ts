/**
 * The settings form as data: which fields it has, how a draft of raw input strings is validated (each field by its
 * own schema in shared/contract/settings.contract.ts, so ranges are never written twice; the reason in the UI's
 * language), and how a valid draft becomes one settings.update patch. The form's state: settings.store.ts.
 * Nested groups (retrieval, summary, budget) are sent whole: the contract fills a missing member with its default,
 * so a partial group would silently reset the others.
 *
 * The model server: the fields of the provider not chosen (the Ollama host, or the OpenAI-compatible base URL, each
 * with its confirmation) stay in the draft, so switching back and forth loses nothing typed, but are neither checked
 * nor sent. An address on another machine needs its address confirmed, and no address may hold credentials, a query
 * or a fragment, by the same rule the core applies (shared/model-server-address.ts), so the form explains it at the
 * field instead of sending a patch bound to fail. An Ollama address from OLLAMA_HOST (the field left empty) is not
 * the form's: the core judges it, and it is confirmed at once (RemoteServerConsent.tsx).
 */
import type { z } from 'zod';
import { Settings } from '../../../shared/contract';
import { ADDRESS_SETTING, credentialsInAddress, remoteAddressOf, REMOTE_CONFIRMATION_SETTING, unconfirmedRemoteAddress, urlOf } from '../../../shared/model-server-address';
import type { MessageKey } from '../i18n/i18n';

/** How far a number field's arrows step: the form's choice. Its range and whole-number rule are the contract's. */
const NUMBER_STEPS = {
  'retrieval.similarityWeight': 0.05,
  'retrieval.importanceWeight': 0.05,
  'retrieval.recencyWeight': 0.05,
  'retrieval.recencyHalfLifeDays': 1,
  'retrieval.minSimilarity': 0.05,
  'retrieval.limit': 1,
  'retrieval.timeBudgetMs': 50,
  'summary.minNewMessages': 1,
  'summary.minNewTokens': 100,
  'budget.system': 0.05,
  'budget.memories': 0.05,
  'budget.conversation': 0.05,
  'budget.reply': 0.05,
  modelLoadTimeoutSeconds: 10,
  contextWindowTokens: 1024,
  nearDuplicateSimilarity: 0.01,
  trashRetentionDays: 1,
  activeMemoryCap: 100,
  consolidationMaxPerRun: 1,
  // Also the Episodes tab's field (Episodes.tsx): one range for both places.
  episodeQuietMinutes: 5,
} as const;

interface NumberField {
  min: number;
  max: number;
  step: number;
  integer?: boolean;
  /** The minimum itself is not allowed (e.g. a half-life must be more than 0). */
  exclusiveMin?: boolean;
}

/** A schema as its value is checked: without its default, prefault or group wrapper. */
function inner(schema: z.ZodType): z.ZodType {
  const def = (schema as unknown as { _zod: { def: { innerType?: z.ZodType } } })._zod.def;
  return def.innerType ? inner(def.innerType) : schema;
}

/** The contract's schema of one setting ("retrieval.limit": the limit inside the retrieval group). */
function schemaOf(path: FieldPath): z.ZodType {
  const [head, key] = path.split('.') as [keyof typeof Settings.shape, string | undefined];
  const top = inner(Settings.shape[head]);
  return key === undefined ? top : inner((top as z.ZodObject).shape[key] as z.ZodType);
}

const numberFields = new Map<NumberPath, NumberField>();

export function fieldOf(path: NumberPath): NumberField {
  let field = numberFields.get(path);
  if (!field) {
    const schema = schemaOf(path) as z.ZodNumber;
    const min = schema.minValue ?? -Infinity;
    field = { min, max: schema.maxValue ?? Infinity, step: NUMBER_STEPS[path], integer: schema.isInt, exclusiveMin: !schema.safeParse(min).success };
    numberFields.set(path, field);
  }
  return field;
}

export type NumberPath = keyof typeof NUMBER_STEPS;
export type TextPath = 'llmProvider' | 'ollamaHost' | 'ollamaRemoteConfirmed' | 'openaiBaseUrl' | 'openaiRemoteConfirmed' | 'chatModel' | 'backgroundModel' | 'embeddingProvider' | 'embeddingModel' | 'memoryMode' | 'memoryAccess' | 'timeZone';
export type FieldPath = NumberPath | TextPath;
export type Draft = Partial<Record<FieldPath, string>>;
export interface FieldError {
  key: MessageKey;
  params?: Record<string, string | number>;
}

export const BUDGET_PATHS = ['budget.system', 'budget.memories', 'budget.conversation', 'budget.reply'] as const;
type Group = 'retrieval' | 'summary' | 'budget';

type Provider = Settings['llmProvider'];
/** The fields that belong to one model server only. */
const SERVER_FIELDS: Record<Provider, readonly FieldPath[]> = { ollama: ['ollamaHost', 'ollamaRemoteConfirmed'], openai: ['openaiBaseUrl', 'openaiRemoteConfirmed'] };
/** What decides which server answers, and so which models the model fields can list. */
const SERVER_CHOICE: readonly FieldPath[] = ['llmProvider', 'ollamaHost', 'ollamaRemoteConfirmed', 'openaiBaseUrl', 'openaiRemoteConfirmed'];

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
  return Object.prototype.hasOwnProperty.call(NUMBER_STEPS, path);
}

/** The contract's schema decides; the form says why in the UI's language (the schema's own words are English). */
function checkNumber(path: NumberPath, raw: string): FieldError | null {
  const text = raw.trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) return { key: 'settings.error.number' };
  if (schemaOf(path).safeParse(value).success) return null;
  const field = fieldOf(path);
  if (field.integer && !Number.isInteger(value)) return { key: 'settings.error.integer' };
  return { key: field.exclusiveMin ? 'settings.error.rangeAbove' : 'settings.error.range', params: { min: field.min, max: field.max } };
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** An address the contract's schema takes (http or https; empty for the Ollama host), then the cross-field rule. */
function checkAddress(path: 'ollamaHost' | 'openaiBaseUrl', raw: string): FieldError | null {
  const text = raw.trim();
  if (!schemaOf(path).safeParse(text).success || (text !== '' && !isHttpUrl(text))) return { key: path === 'ollamaHost' ? 'settings.error.host' : 'settings.error.baseUrl' };
  return text === '' ? null : checkCredentials(text);
}

/** The contract's rule: no user name, password, query or fragment in an address (a key has its own field). */
function checkCredentials(url: string): FieldError | null {
  return credentialsInAddress(url, '') === null ? null : { key: 'settings.error.credentials' };
}

const REQUIRED: readonly FieldPath[] = ['chatModel', 'backgroundModel', 'embeddingModel'];

function checkField(path: FieldPath, raw: string): FieldError | null {
  if (isNumberPath(path)) return checkNumber(path, raw);
  if (path === 'ollamaHost' || path === 'openaiBaseUrl') return checkAddress(path, raw);
  // The contract's rule (an IANA name the platform knows, or empty for the system's zone), checked before sending.
  if (path === 'timeZone') return schemaOf(path).safeParse(raw).success ? null : { key: 'settings.error.timeZone' };
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

/** The provider the form is set to: the draft's choice, else the stored one. */
export function providerOf(settings: Settings, draft: Draft): Provider {
  return currentValue(settings, draft, 'llmProvider') === 'openai' ? 'openai' : 'ollama';
}

/**
 * The draft without the fields of the provider not chosen (see the header), nor a confirmation while the address is
 * on this computer: a confirmation goes only with the machine it confirms, so ticking it for an address typed and then
 * replaced by a local one stores nothing.
 */
function activeDraft(settings: Settings, draft: Draft): Array<[FieldPath, string]> {
  const provider = providerOf(settings, draft);
  const left = [...SERVER_FIELDS[provider === 'openai' ? 'ollama' : 'openai']];
  if (remoteServer(settings, draft) === null) left.push(REMOTE_CONFIRMATION_SETTING[provider]);
  return (Object.entries(draft) as Array<[FieldPath, string]>).filter(([path]) => !left.includes(path));
}

/** The confirmation setting of the server the form is set to: what its checkbox writes. */
export function confirmationPath(settings: Settings, draft: Draft): TextPath {
  return REMOTE_CONFIRMATION_SETTING[providerOf(settings, draft)];
}

/**
 * The chosen server's address field as the form stands: its address ("scheme://host:port") when it is on another
 * machine (null on this computer, while the URL does not parse, or with the Ollama host left to OLLAMA_HOST), and
 * whether that address is confirmed.
 */
export function remoteServer(settings: Settings, draft: Draft): { address: string; confirmed: boolean } | null {
  const provider = providerOf(settings, draft);
  const written = currentValue(settings, draft, ADDRESS_SETTING[provider]).trim();
  if (!isHttpUrl(written)) return null;
  const url = urlOf(provider, written);
  const address = remoteAddressOf(url);
  if (address === null) return null;
  return { address, confirmed: unconfirmedRemoteAddress(url, currentValue(settings, draft, confirmationPath(settings, draft)).trim(), provider) === null };
}

/** The draft value of the confirmation setting for the confirmation's checkbox: the server's address, or none. */
export function confirmationValue(settings: Settings, draft: Draft, confirm: boolean): string {
  return confirm ? (remoteServer(settings, draft)?.address ?? '') : '';
}

/** True when the draft changes which server answers: the model lists shown are the saved server's until it is saved. */
export function changesServer(settings: Settings, draft: Draft): boolean {
  return activeDraft(settings, draft).some(([path, raw]) => SERVER_CHOICE.includes(path) && normalized(path, raw) !== storedValue(settings, path));
}

export function validateDraft(settings: Settings, draft: Draft): Validation {
  const errors: Partial<Record<FieldPath, FieldError>> = {};
  const active = activeDraft(settings, draft);
  for (const [path, raw] of active) {
    const error = checkField(path, raw);
    if (error) errors[path] = error;
  }
  const remote = remoteServer(settings, draft);
  const addressField = ADDRESS_SETTING[providerOf(settings, draft)];
  if (remote && !remote.confirmed && !errors[addressField]) errors[addressField] = { key: 'settings.error.remoteUnconfirmed', params: { address: remote.address } };
  const sharesValid = BUDGET_PATHS.every((path) => errors[path] === undefined);
  const budgetTotal = sharesValid ? BUDGET_PATHS.reduce((sum, path) => sum + Number(currentValue(settings, draft, path)), 0) : null;
  // The contract's refinement of the group decides (with its tolerance: 0.15 + 0.15 + 0.5 + 0.2 is 1.0000000000000002).
  const shares = Object.fromEntries(BUDGET_PATHS.map((path) => [path.slice('budget.'.length), Number(currentValue(settings, draft, path))]));
  const budgetError: FieldError | null =
    budgetTotal !== null && !Settings.shape.budget.safeParse(shares).success ? { key: 'settings.error.budget', params: { total: Math.round(budgetTotal * 100) / 100 } } : null;
  return { errors, budgetTotal, budgetError, valid: Object.keys(errors).length === 0 && budgetError === null };
}

export function isDirty(settings: Settings, draft: Draft): boolean {
  return activeDraft(settings, draft).some(([path, raw]) => normalized(path, raw) !== storedValue(settings, path));
}

/** The value as it would be stored (the contract drops a base URL's trailing slashes). */
function normalized(path: FieldPath, raw: string): string {
  if (isNumberPath(path)) return String(Number(raw.trim()));
  return path === 'openaiBaseUrl' ? raw.trim().replace(/\/+$/, '') : raw.trim();
}

/** One patch for settings.update; call only with a valid draft. */
export function buildPatch(settings: Settings, draft: Draft): Partial<Settings> {
  const patch: Record<string, unknown> = {};
  const groups: Partial<Record<Group, Record<string, unknown>>> = {};
  for (const [path, raw] of activeDraft(settings, draft)) {
    if (normalized(path, raw) === storedValue(settings, path)) continue;
    const value = isNumberPath(path) ? Number(raw.trim()) : normalized(path, raw);
    const [head, key] = path.split('.') as [string, string | undefined];
    if (key === undefined) patch[head] = value;
    else (groups[head as Group] ??= { ...(settings[head as Group] as Record<string, unknown>) })[key] = value;
  }
  return { ...patch, ...groups } as Partial<Settings>;
}
