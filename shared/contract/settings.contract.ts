import { z } from 'zod';
import { canonicalTimeZone } from '../time-zone';
import { CONTEXT_WINDOW_TOKENS } from '../context-window';
import { Empty, operation } from './define';

const share = z.number().min(0).max(1);

/** Every user setting with its default. Stored per key in the settings table; unknown keys are refused. */
export const Settings = z.object({
  /** Empty: use the OLLAMA_HOST environment variable, else http://127.0.0.1:11434. */
  ollamaHost: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  chatModel: z.string().max(200).default('llama3.2'),
  backgroundModel: z.string().max(200).default('llama3.2'),
  /** How long a model may take to load and send its first word before the request fails with MODEL_LOAD_TIMEOUT. */
  modelLoadTimeoutSeconds: z.number().int().min(1).max(3600).default(120),
  /** Ollama's num_ctx for every request to a model (shared/context-window.ts). */
  contextWindowTokens: z
    .number()
    .int('The context window must be a whole number of tokens')
    .min(CONTEXT_WINDOW_TOKENS.min, `The context window must be at least ${CONTEXT_WINDOW_TOKENS.min} tokens`)
    .max(CONTEXT_WINDOW_TOKENS.max, `The context window can be at most ${CONTEXT_WINDOW_TOKENS.max} tokens`)
    .default(CONTEXT_WINDOW_TOKENS.default),
  embeddingProvider: z.enum(['onnx', 'ollama']).default('onnx'),
  embeddingModel: z.string().max(200).default('Xenova/multilingual-e5-small'),
  memoryMode: z.enum(['auto', 'ask', 'off']).default('auto'),
  retrieval: z
    .object({
      similarityWeight: share.default(0.6),
      importanceWeight: share.default(0.25),
      recencyWeight: share.default(0.15),
      recencyHalfLifeDays: z.number().positive().max(3650).default(30),
      minSimilarity: share.default(0.3),
      limit: z.number().int().min(1).max(100).default(12),
    })
    .prefault({}),
  summary: z
    .object({
      minNewMessages: z.number().int().min(2).max(1000).default(10),
      minNewTokens: z.number().int().min(100).max(100_000).default(3000),
    })
    .prefault({}),
  budget: z
    .object({
      system: share.default(0.15),
      memories: share.default(0.15),
      conversation: share.default(0.5),
      reply: share.default(0.2),
    })
    .prefault({})
    .refine((b) => b.system + b.memories + b.conversation + b.reply <= 1.0001, 'The context shares must add up to at most 1.'),
  nearDuplicateSimilarity: z.number().min(0.5).max(1).default(0.9),
  trashRetentionDays: z.number().int().min(1).max(3650).default(30),
  /**
   * How many active memories Mnemo keeps of what it learned on its own (electron/core/memory/memory-cap.ts); beyond
   * it, maintenance trashes the least valuable of those. What the user wrote, edited, pinned, approved, restored or
   * imported never counts and is never trashed for it, so the active total may be far above this.
   */
  activeMemoryCap: z.number().int().min(100).max(1_000_000).default(10_000),
  language: z.enum(['en', 'zh-CN']).default('en'),
  /**
   * The IANA time zone days are counted in ("today" for the model, expiries, the timeline's days), e.g.
   * "Asia/Shanghai". Empty: the system's (shared/time-zone.ts). Stored in its canonical spelling.
   */
  timeZone: z
    .string()
    .trim()
    .refine((zone) => zone === '' || canonicalTimeZone(zone) !== null, {
      message: 'Unknown time zone: use an IANA name such as "Europe/Berlin" or "Asia/Shanghai", or leave it empty to follow the system',
    })
    .overwrite((zone) => (zone === '' ? '' : (canonicalTimeZone(zone) ?? zone)))
    .default(''),
  theme: z.enum(['light', 'dark', 'system']).default('system'),
});
export type Settings = z.output<typeof Settings>;

/**
 * A patch names only what changes: no defaults are filled in (a default would silently reset a setting the user had
 * changed), and nested groups are partial too. The service merges it into the current settings and validates the
 * result as a whole.
 */
function patchOf(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodDefault || schema instanceof z.ZodPrefault) return patchOf(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    return z.object(Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, patchOf(v).optional()]))).strict();
  }
  return schema;
}

export const SettingsPatch = patchOf(Settings) as z.ZodType<DeepPartial<Settings>>;
type DeepPartial<T> = { [K in keyof T]?: T[K] extends Record<string, unknown> ? Partial<T[K]> : T[K] };

export const settingsOperations = {
  'settings.get': operation('All settings, defaults filled in.', Empty, Settings),
  'settings.update': operation(
    'Changes some settings; the result is the whole, validated set.',
    z.object({ patch: SettingsPatch }).strict(),
    Settings,
  ),
};

export const settingsEvents = {
  'settings.changed': z.object({ keys: z.array(z.string()) }),
};
