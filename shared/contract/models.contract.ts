import { z } from 'zod';
import { Empty, operation } from './define';

export const InstalledModel = z.object({
  name: z.string(),
  sizeBytes: z.number().nonnegative(),
  family: z.string().nullable(),
  parameterSize: z.string().nullable(),
  modifiedAt: z.string().nullable(),
  /** The model's own context length (/api/show); null when the server does not say. */
  contextLength: z.number().int().positive().nullable(),
  /**
   * Can hold a conversation (electron/core/models/chat-model-pick.ts): only these are offered as chat or background
   * models; an embedding-only model never is.
   */
  chat: z.boolean(),
  /** Ollama lists "embedding" among its capabilities: it can be the embedding model (embeddingProvider 'ollama'). */
  embedding: z.boolean(),
});

export const ConfiguredModel = z.object({ name: z.string(), installed: z.boolean() });

export const ModelsOverview = z.object({
  /** Which API the server speaks (settings.llmProvider): only Ollama can download models (models.pull). */
  api: z.enum(['ollama', 'openai']),
  host: z.string(),
  /** Where the host comes from: the ollamaHost setting, the OLLAMA_HOST environment variable, or the default. */
  hostSource: z.enum(['settings', 'environment', 'default']),
  /**
   * The server is on another machine: its address ("scheme://host:port") and whether the user confirmed it. Unconfirmed,
   * Mnemo sends it nothing (error FORBIDDEN) until the address is confirmed (shared/model-server-address.ts). Null:
   * on this computer.
   */
  remote: z.object({ address: z.string(), confirmed: z.boolean() }).nullable(),
  reachable: z.boolean(),
  version: z.string().nullable(),
  /** When unreachable: what happened and how to fix it (start Ollama, check OLLAMA_HOST). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  models: z.array(InstalledModel),
  chatModel: ConfiguredModel,
  backgroundModel: ConfiguredModel,
});

export const modelsOperations = {
  'models.list': operation(
    'Ollama health, installed models, and whether the configured ones are installed. While a model setting was never chosen and its default is not installed, an installed chat model is chosen and stored first (model.autoSelected).',
    Empty,
    ModelsOverview,
  ),
  'models.show': operation(
    "A model's context length and capabilities (tools, thinking, embedding).",
    z.object({ name: z.string().trim().min(1).max(200) }).strict(),
    z.object({ name: z.string(), contextLength: z.number().int().nullable(), capabilities: z.array(z.string()) }),
  ),
  'models.pull': operation(
    'Starts pulling a model; progress arrives as model.pullProgressed events.',
    z.object({ name: z.string().trim().min(1).max(200) }).strict(),
    z.object({ started: z.boolean() }),
  ),
  'models.cancelPull': operation(
    'Stops pulling a model (its last model.pullProgressed says status "cancelled", without an error). Ollama keeps the layers it has: pulling again resumes. cancelled false: no pull of that model was running.',
    z.object({ name: z.string().trim().min(1).max(200) }).strict(),
    z.object({ cancelled: z.boolean() }),
  ),
};

export const modelsEvents = {
  /** Mnemo chose `name` for these settings because none was chosen and `instead` (the default) is not installed. */
  'model.autoSelected': z.object({
    name: z.string(),
    keys: z.array(z.enum(['chatModel', 'backgroundModel'])).min(1),
    instead: z.string(),
  }),
  'model.pullProgressed': z.object({
    name: z.string(),
    status: z.string(),
    percent: z.number().nullable(),
    completedBytes: z.number().nullable(),
    totalBytes: z.number().nullable(),
    done: z.boolean(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
  }),
};
