/**
 * Which Ollama the core talks to: the host in settings, else OLLAMA_HOST, else the default. The port is rebuilt when
 * the host changes; model metadata (context length) is cached per host and model.
 */
import type { Settings } from '../../../shared/contract';
import type { Logger } from '../ports/logger.port';
import type { LlmPort } from './llm.port';
import { createOllamaLlm, DEFAULT_OLLAMA_HOST, normalizeHost } from './ollama.llm';

export function resolveOllamaHost(settingsHost: string, env: NodeJS.ProcessEnv = process.env): string {
  return normalizeHost(settingsHost || env.OLLAMA_HOST || DEFAULT_OLLAMA_HOST);
}

export interface LlmProvider {
  get(): LlmPort;
  /** The model's context window from /api/show, or null when Ollama does not say (the budget then assumes 8192). */
  contextWindow(model: string): Promise<number | null>;
}

export function createLlmProvider(deps: { settings: () => Settings; logger: Logger; env?: NodeJS.ProcessEnv; override?: (host: string) => LlmPort }): LlmProvider {
  let current: { host: string; port: LlmPort } | null = null;
  const windows = new Map<string, number | null>();
  function get(): LlmPort {
    const host = resolveOllamaHost(deps.settings().ollamaHost, deps.env);
    if (!current || current.host !== host) {
      current = { host, port: deps.override ? deps.override(host) : createOllamaLlm({ host, logger: deps.logger }) };
    }
    return current.port;
  }
  return {
    get,
    async contextWindow(model) {
      const port = get();
      const key = `${port.host}\n${model}`;
      if (windows.has(key)) return windows.get(key) ?? null;
      const details = await port.showModel(model);
      windows.set(key, details.contextLength);
      return details.contextLength;
    },
  };
}
