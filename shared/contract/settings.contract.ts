import { z } from 'zod';
import { canonicalTimeZone } from '../time-zone';
import { CONTEXT_WINDOW_TOKENS } from '../context-window';
import { settingsAddressProblems } from '../model-server-address';
import { Empty, operation } from './define';
import { Instructions } from './thread.contract';

const share = z.number().min(0).max(1);

/** Every user setting with its default. Stored per key in the settings table; unknown keys are refused. */
export const Settings = z.object({
  /**
   * Which model server answers: Ollama, or a server speaking the OpenAI-compatible API (LM Studio, llama.cpp's
   * llama-server, Jan, vLLM, LocalAI) at openaiBaseUrl. Chat, summaries, titles, learning and the "ollama" embedding
   * provider all go to it.
   */
  llmProvider: z.enum(['ollama', 'openai']).default('ollama'),
  /**
   * Empty: use the OLLAMA_HOST environment variable, else http://127.0.0.1:11434. One on another machine (from here or
   * from OLLAMA_HOST) needs ollamaRemoteConfirmed (shared/model-server-address.ts).
   */
  ollamaHost: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  /** The address (scheme, host, port) of an Ollama on another machine the user agreed to send requests to; empty: none. */
  ollamaRemoteConfirmed: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  /**
   * The OpenAI-compatible server's base URL, the part before /chat/completions (LM Studio's default below;
   * llama-server: http://127.0.0.1:8080/v1). One on another machine needs openaiRemoteConfirmed
   * (shared/model-server-address.ts). Its API key is not a setting: settings.setApiKey keeps it out of the database.
   */
  openaiBaseUrl: z
    .url({ protocol: /^https?$/, message: 'The server address must be an http:// or https:// URL, e.g. http://127.0.0.1:1234/v1' })
    .overwrite((url) => url.replace(/\/+$/, ''))
    .default('http://127.0.0.1:1234/v1'),
  /** The address (scheme, host, port) of a model server on another machine the user agreed to send requests to; empty: none. */
  openaiRemoteConfirmed: z.union([z.literal(''), z.url({ protocol: /^https?$/ })]).default(''),
  /** The chat model of new threads and of threads without their own (thread.setModel). */
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
  /** 'onnx': the local model in Mnemo; 'ollama': an embedding model of the chat's model server (Ollama or OpenAI-compatible). */
  embeddingProvider: z.enum(['onnx', 'ollama']).default('onnx'),
  embeddingModel: z.string().max(200).default('Xenova/multilingual-e5-small'),
  memoryMode: z.enum(['auto', 'ask', 'off']).default('auto'),
  /**
   * How an answer reaches long-term memory (electron/core/chat/tool-loop.ts): 'inject' retrieved memories into the
   * prompt; 'tools' let the model search memories and past conversations itself (the prompt keeps pinned memories and
   * the profile); 'both'; 'auto' is 'both' for a model that supports tools, else 'inject'.
   */
  memoryAccess: z.enum(['auto', 'inject', 'tools', 'both']).default('auto'),
  /** Keep a short profile of the user from the memories, always in the prompt (electron/core/profile/). */
  profileEnabled: z.boolean().default(true),
  /** Write an episode of each stretch of a thread when it goes quiet (electron/core/episodes/). */
  episodesEnabled: z.boolean().default(true),
  /** A thread without a message for this long is quiet: its stretch ends and its episode is written. */
  episodeQuietMinutes: z.number().int().min(1, 'A thread is quiet after at least 1 minute').max(10_080, 'A thread is quiet after at most 7 days (10,080 minutes)').default(30),
  /** Keep each thread's focus and tasks (working memory) up to date and in its prompt (electron/core/focus/). */
  workingMemoryEnabled: z.boolean().default(true),
  /**
   * When background model work (learning, summaries, titles, episodes, the profile) may use the model
   * (electron/core/llm/model-lane.ts): 'gaps' while the user is not chatting or typing (a chat always goes first),
   * 'away' only after a few minutes without the user, 'paused' not at all until switched back.
   */
  learningSchedule: z.enum(['gaps', 'away', 'paused']).default('gaps'),
  /** The desktop app only: background model work waits while the computer runs on battery. */
  learningNeedsPower: z.boolean().default(false),
  /**
   * How Mnemo should answer (tone, language, format), in every thread: part of the system text, before a thread's
   * own instructions, within the system share of the budget. Never learned from.
   */
  instructions: Instructions.default(''),
  retrieval: z
    .object({
      similarityWeight: share.default(0.6),
      importanceWeight: share.default(0.25),
      recencyWeight: share.default(0.15),
      recencyHalfLifeDays: z.number().positive().max(3650).default(30),
      minSimilarity: share.default(0.3),
      limit: z.number().int().min(1).max(100).default(12),
      /**
       * How long a prompt's retrieval waits for the question's embedding (memory/memory-search.ts): past it, keyword
       * results only, and "what the model saw" says so. A cold or slow embedding model never holds an answer longer.
       */
      timeBudgetMs: z.number().int().min(50).max(30_000).default(500),
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
   * Maintenance summarises clusters of related memories into one by the background model (memory-consolidation.ts);
   * what is pinned or the user's goes to review instead. At most consolidationMaxPerRun clusters per run.
   */
  consolidationEnabled: z.boolean().default(true),
  consolidationMaxPerRun: z.number().int().min(1).max(50).default(5),
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
 * What may be stored: each field valid (Settings) and the rules across fields. Reads use Settings alone, so a stored
 * value that a newer rule refuses never stops the app from starting; the request-time checks apply the same rules.
 */
export const StorableSettings = Settings.superRefine((settings, ctx) => {
  for (const { setting, message } of settingsAddressProblems(settings)) ctx.addIssue({ code: 'custom', path: [setting], message });
});

/** The settings as hosts show them: the stored ones, and whether an API key is kept (never the key itself). */
export const SettingsView = Settings.extend({ openaiApiKeySet: z.boolean() });

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

/** What an API key may hold (printable ASCII, no spaces): the contract's check, and the settings form's before it asks. */
export const API_KEY_PATTERN = /^[\x21-\x7e]+$/;

export const settingsOperations = {
  'settings.get': operation('All settings, defaults filled in, and whether an API key is set.', Empty, SettingsView),
  'settings.update': operation(
    'Changes some settings; the result is the whole, validated set.',
    z.object({ patch: SettingsPatch }).strict(),
    SettingsView,
  ),
  'settings.setApiKey': operation(
    "Keeps the OpenAI-compatible server's API key (sent as a Bearer token) in the secret store, outside the database, exports and backups.",
    z.object({ key: z.string().trim().min(1, 'The API key is empty').max(4096).regex(API_KEY_PATTERN, 'An API key is printable ASCII without spaces') }).strict(),
    z.object({ openaiApiKeySet: z.literal(true) }),
  ),
  'settings.clearApiKey': operation('Forgets the API key: requests go without one.', Empty, z.object({ openaiApiKeySet: z.literal(false) })),
};

export const settingsEvents = {
  'settings.changed': z.object({ keys: z.array(z.string()) }),
};
