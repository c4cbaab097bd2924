/**
 * Which Ollama the core talks to, and the one rule for what every request to a model carries.
 *
 * The host: the one in settings, else OLLAMA_HOST, else the default; the port is rebuilt when it changes.
 *
 * The requests: every chat request to model M, whoever sends it (chat, extraction, summary, title), carries the same
 * num_ctx, contextWindow(M) = the context-window setting capped at M's maximum from /api/show. Ollama reloads a
 * loaded model whenever a request asks for a different num_ctx (its scheduler compares the runner's options), so a
 * chat answer and a background job alternating on one model with different windows, or one with a window and one
 * without, would reload it at every switch. Services therefore never see num_ctx: they ask through `chat` here.
 * Background work asks with `reasoning: 'off'`, sent as Ollama's `think: false` to models with the "thinking"
 * capability only (Ollama answers 400 "does not support thinking" when others get `think: true`, and a thinking
 * model left to its default thinks first, which keeps reasoning out of the JSON and costs nothing).
 */
import type { Settings } from '../../../shared/contract';
import type { Logger } from '../ports/logger.port';
import type { ChatRequest, ChatResult, LlmPort, ModelDetails } from './llm.port';
import { createOllamaLlm, DEFAULT_OLLAMA_HOST, normalizeHost } from './ollama.llm';

export function resolveOllamaHost(settingsHost: string, env: NodeJS.ProcessEnv = process.env): string {
  return normalizeHost(settingsHost || env.OLLAMA_HOST || DEFAULT_OLLAMA_HOST);
}

/** The address resolveOllamaHost picks and which of its three sources gave it, for the user to see. */
export function ollamaHostInUse(settingsHost: string, env: NodeJS.ProcessEnv = process.env): { url: string; source: 'settings' | 'environment' | 'default' } {
  return { url: resolveOllamaHost(settingsHost, env), source: settingsHost ? 'settings' : env.OLLAMA_HOST ? 'environment' : 'default' };
}

/** A chat request as services write it: num_ctx and think are the provider's to set. */
export interface ModelChatRequest extends Omit<ChatRequest, 'options' | 'think'> {
  options?: Omit<NonNullable<ChatRequest['options']>, 'num_ctx'>;
  /** 'off': background work whose answer is parsed or stored (extraction, summaries, titles). Default: the model's own. */
  reasoning?: 'off';
}

/** What services need to ask a model for an answer. */
export interface ModelRequests {
  /** The num_ctx of every request to `model`; the prompt budget is computed from it. */
  contextWindow(model: string): Promise<number>;
  chat(request: ModelChatRequest): Promise<ChatResult>;
}

export interface LlmProvider extends ModelRequests {
  /** The raw port, for what is not a chat request: version, models, pull, embeddings. */
  get(): LlmPort;
}

/** The one rule: the setting, never above the model's maximum (when Ollama reports one). */
export function contextWindowFor(setting: number, modelMaximum: number | null): number {
  return modelMaximum !== null && modelMaximum > 0 ? Math.min(setting, modelMaximum) : setting;
}

export function createLlmProvider(deps: { settings: () => Settings; logger: Logger; env?: NodeJS.ProcessEnv; override?: (host: string) => LlmPort }): LlmProvider {
  let current: { host: string; port: LlmPort } | null = null;
  // Per host and model: /api/show answers once per process (a failed lookup is asked again next time).
  const details = new Map<string, Promise<ModelDetails>>();

  function get(): LlmPort {
    const host = resolveOllamaHost(deps.settings().ollamaHost, deps.env);
    if (!current || current.host !== host) {
      current = { host, port: deps.override ? deps.override(host) : createOllamaLlm({ host, logger: deps.logger }) };
    }
    return current.port;
  }

  function detailsOf(model: string): Promise<ModelDetails> {
    const port = get();
    const key = `${port.host}\n${model}`;
    let pending = details.get(key);
    if (!pending) {
      pending = port.showModel(model);
      details.set(key, pending);
      pending.catch(() => details.delete(key));
    }
    return pending;
  }

  async function contextWindow(model: string): Promise<number> {
    return contextWindowFor(deps.settings().contextWindowTokens, (await detailsOf(model)).contextLength);
  }

  return {
    get,
    contextWindow,
    async chat({ reasoning, options, ...request }) {
      const numCtx = await contextWindow(request.model);
      const thinks = (await detailsOf(request.model)).capabilities.includes('thinking');
      return get().chat({ ...request, ...(reasoning === 'off' && thinks ? { think: false } : {}), options: { ...options, num_ctx: numCtx } });
    },
  };
}
