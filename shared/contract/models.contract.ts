import { z } from 'zod';
import { Empty, operation } from './define';

export const InstalledModel = z.object({
  name: z.string(),
  sizeBytes: z.number().nonnegative(),
  family: z.string().nullable(),
  parameterSize: z.string().nullable(),
  modifiedAt: z.string().nullable(),
});

export const ConfiguredModel = z.object({ name: z.string(), installed: z.boolean() });

export const ModelsOverview = z.object({
  host: z.string(),
  reachable: z.boolean(),
  version: z.string().nullable(),
  /** When unreachable: what happened and how to fix it (start Ollama, check OLLAMA_HOST). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  models: z.array(InstalledModel),
  chatModel: ConfiguredModel,
  backgroundModel: ConfiguredModel,
});

export const modelsOperations = {
  'models.list': operation('Ollama health, installed models, and whether the configured ones are installed.', Empty, ModelsOverview),
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
};

export const modelsEvents = {
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
