/**
 * Which model server the core talks to, and the one rule for what every request to a model carries.
 *
 * The server: settings.llmProvider. Ollama at the host in settings, else OLLAMA_HOST, else the default; or an
 * OpenAI-compatible server at settings.openaiBaseUrl, with the API key from the secret store (read per request). The
 * port is rebuilt when the choice changes. A server on another machine gets no request unless the user confirmed its
 * address, and no address may hold credentials, a query or a fragment (shared/model-server-address.ts): settings
 * refuse to store such an address, and should one be in use anyway (OLLAMA_HOST, which settings never see; an address
 * stored by an older version; a hand edit), the port built for it refuses every call with FORBIDDEN, before anything is
 * sent, and the refusal is logged once per address. The embedder asks through the same port, so it is refused too.
 *
 * The requests: every chat request to model M, whoever sends it (chat, extraction, summary, title), carries the same
 * num_ctx, contextWindow(M) = the context-window setting capped at M's maximum from /api/show. Ollama reloads a
 * loaded model whenever a request asks for a different num_ctx (its scheduler compares the runner's options), so a
 * chat answer and a background job alternating on one model with different windows, or one with a window and one
 * without, would reload it at every switch. Services therefore never see num_ctx: they ask through `chat` here.
 * Background work asks with `reasoning: 'off'`, sent as Ollama's `think: false` to models with the "thinking"
 * capability only (Ollama answers 400 "does not support thinking" when others get `think: true`, and a thinking
 * model left to its default thinks first, which keeps reasoning out of the JSON and costs nothing).
 *
 * An OpenAI-compatible server has neither: its context was fixed when it loaded the model, so contextWindow(M) is the
 * setting capped at the context the server reports for M (if it reports one), which only sizes the prompt; and it has
 * no switch for reasoning, whose `<think>` blocks the adapter keeps out of the answer.
 */
import { Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { ADDRESS_SETTING, addressRefusal, remoteAddressOf, REMOTE_CONFIRMATION_SETTING, type ModelServerApi } from '../../../shared/model-server-address';
import { toolSupportOf, type ToolSupport } from '../../../shared/memory-access';
import type { Logger } from '../ports/logger.port';
import type { SecretStore } from '../ports/secret-store.port';
import type { ChatRequest, ChatResult, LlmPort, ModelDetails } from './llm.port';
import { DEFAULT_OLLAMA_HOST, normalizeHost } from '../../../shared/ollama-host';
import { createOllamaLlm } from './ollama.llm';
import { createOpenAiLlm, normalizeBaseUrl } from './openai.llm';

export function resolveOllamaHost(settingsHost: string, env: NodeJS.ProcessEnv = process.env): string {
  return ollamaHostInUse(settingsHost, env).url;
}

/** The address resolveOllamaHost picks and which of its three sources gave it, for the user to see. */
export function ollamaHostInUse(settingsHost: string, env: NodeJS.ProcessEnv = process.env): { url: string; source: OllamaHostSource } {
  const { value, source } = ollamaHostSource(settingsHost, env);
  return { url: normalizeHost(value), source };
}

type OllamaHostSource = 'settings' | 'environment' | 'default';

/** Which of the three sources gives the Ollama address, and its value as written (not yet read: it may be no address). */
export function ollamaHostSource(settingsHost: string, env: NodeJS.ProcessEnv = process.env): { value: string; source: OllamaHostSource } {
  // As Ollama reads it, an OLLAMA_HOST of only spaces or quotes is not set.
  const fromEnv = /[^\s"']/.test(env.OLLAMA_HOST ?? '') ? env.OLLAMA_HOST! : '';
  if (settingsHost) return { value: settingsHost, source: 'settings' };
  return fromEnv ? { value: fromEnv, source: 'environment' } : { value: DEFAULT_OLLAMA_HOST, source: 'default' };
}

/**
 * The server settings choose (and, for Ollama without a host in settings, `env`'s OLLAMA_HOST), with what the offline
 * rule needs to judge it; `url` is null when it is no address. Each process reads its own environment: a terminal and
 * the app agree on the server only when the data folder's settings name it (`mnemo info`, `mnemo queue status`).
 */
export function serverChoice(
  settings: Pick<Settings, 'llmProvider' | 'ollamaHost' | 'openaiBaseUrl'>,
  env: NodeJS.ProcessEnv = process.env,
): { api: ModelServerApi; written: string; url: string | null; source: OllamaHostSource; invalid?: MnemoError } {
  if (settings.llmProvider === 'openai') {
    const url = normalizeBaseUrl(settings.openaiBaseUrl);
    return { api: 'openai', written: settings.openaiBaseUrl, url, source: settings.openaiBaseUrl === Settings.parse({}).openaiBaseUrl ? 'default' : 'settings' };
  }
  const { value, source } = ollamaHostSource(settings.ollamaHost, env);
  try {
    return { api: 'ollama', written: value, url: normalizeHost(value), source };
  } catch (e) {
    if (!(e instanceof MnemoError)) throw e;
    return { api: 'ollama', written: value, url: null, source, invalid: e };
  }
}

/**
 * The server requests go to, for the user to see: its API and address, where the address came from, and whether it is
 * on another machine (null: this computer) and if so whether the user confirmed it.
 */
export interface ServerInUse {
  api: ModelServerApi;
  url: string;
  source: OllamaHostSource;
  remote: { address: string; confirmed: boolean } | null;
}

/** A chat request as services write it: num_ctx and think are the provider's to set. */
export interface ModelChatRequest extends Omit<ChatRequest, 'options' | 'think' | 'purpose'> {
  /** What the request is for: every request says (llm-call.ts `purposeHeaders`). */
  purpose: NonNullable<ChatRequest['purpose']>;
  options?: Omit<NonNullable<ChatRequest['options']>, 'num_ctx'>;
  /** 'off': background work whose answer is parsed or stored (extraction, summaries, titles). Default: the model's own. */
  reasoning?: 'off';
}

/**
 * Whether a model can be offered tools: 'yes'/'no' when Ollama's /api/show lists its capabilities; 'unknown' for an
 * Ollama too old to list them and for OpenAI-compatible servers, which have no reliable way to say.
 */
export type { ToolSupport };

/** What services need to ask a model for an answer. */
export interface ModelRequests {
  /** The num_ctx of every request to `model`; the prompt budget is computed from it. */
  contextWindow(model: string): Promise<number>;
  /** From the same cached /api/show answer as the context window (asked once per server and model). */
  toolSupport(model: string): Promise<ToolSupport>;
  chat(request: ModelChatRequest): Promise<ChatResult>;
}

export interface LlmProvider extends ModelRequests {
  /** The raw port, for what is not a chat request: version, models, pull, embeddings. */
  get(): LlmPort;
  inUse(): ServerInUse;
}

/** The one rule: the setting, never above the model's maximum (when the server reports one). */
export function contextWindowFor(setting: number, modelMaximum: number | null): number {
  return modelMaximum !== null && modelMaximum > 0 ? Math.min(setting, modelMaximum) : setting;
}

export function createLlmProvider(deps: {
  settings: () => Settings;
  logger: Logger;
  /** Where the OpenAI-compatible server's API key is kept. */
  secrets: SecretStore;
  env?: NodeJS.ProcessEnv;
  /** Builds the Ollama port for a host (tests point the real adapter at a fake server). */
  override?: (host: string) => LlmPort;
}): LlmProvider {
  let current: { choice: string; port: LlmPort } | null = null;
  // Per server and model: the details are asked once per process (a failed lookup is asked again next time).
  const details = new Map<string, Promise<ModelDetails>>();

  const chosenServer = (settings: Settings) => serverChoice(settings, deps.env);

  function get(): LlmPort {
    const settings = deps.settings();
    const chosen = chosenServer(settings);
    const confirmed = settings[REMOTE_CONFIRMATION_SETTING[chosen.api]];
    // An OLLAMA_HOST that is no address: every call says so (models.list shows it), rather than each caller throwing.
    if (chosen.url === null) return use(`ollama\n${chosen.written}`, () => refusingPort('ollama', chosen.written, chosen.invalid!));
    const url = chosen.url;
    return use(`${chosen.api}\n${chosen.written}\n${url}\n${confirmed}`, () => {
      const refusal = addressRefusal({
        api: chosen.api,
        written: chosen.written,
        url,
        confirmed,
        setting: chosen.source === 'environment' ? 'OLLAMA_HOST' : ADDRESS_SETTING[chosen.api],
        ...(chosen.source === 'environment' ? { from: 'OLLAMA_HOST in the environment' } : {}),
      });
      if (refusal === null) return chosen.api === 'ollama' ? ollamaPort(url) : openAiPort(url);
      // Said once per address (the port is built once per choice); every call then carries the same words.
      deps.logger.warn('refused to send to a model server', { api: chosen.api, address: remoteAddressOf(url) ?? url, source: chosen.source });
      const remote = remoteAddressOf(url);
      const details = { host: url, ...(remote !== null ? { confirm: { setting: REMOTE_CONFIRMATION_SETTING[chosen.api], address: remote } } : {}) };
      return refusingPort(chosen.api, url, new MnemoError('FORBIDDEN', `Mnemo sent nothing. ${refusal}`, { details }));
    });
  }

  /** Where requests go (models.list shows it; the status bar names a server on another machine). */
  function inUse(): ServerInUse {
    const settings = deps.settings();
    const chosen = chosenServer(settings);
    const url = chosen.url ?? chosen.written;
    const address = chosen.url === null ? null : remoteAddressOf(chosen.url);
    const confirmed = settings[REMOTE_CONFIRMATION_SETTING[chosen.api]];
    return { api: chosen.api, url, source: chosen.source, remote: address === null ? null : { address, confirmed: confirmed !== '' && remoteAddressOf(confirmed) === address } };
  }

  /** The port for `choice`, built again only when the choice changed. */
  function use(choice: string, build: () => LlmPort): LlmPort {
    if (!current || current.choice !== choice) current = { choice, port: build() };
    return current.port;
  }

  function ollamaPort(host: string): LlmPort {
    return deps.override ? deps.override(host) : createOllamaLlm({ host, logger: deps.logger });
  }

  function openAiPort(baseUrl: string): LlmPort {
    return createOpenAiLlm({ baseUrl, apiKey: () => deps.secrets.get('openaiApiKey'), logger: deps.logger });
  }

  function detailsOf(model: string): Promise<ModelDetails> {
    const port = get();
    const key = `${port.api}\n${port.host}\n${model}`;
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

  async function toolSupport(model: string): Promise<ToolSupport> {
    const port = get();
    const { capabilities } = await detailsOf(model);
    return toolSupportOf(port.api, capabilities);
  }

  return {
    get,
    inUse,
    contextWindow,
    toolSupport,
    async chat({ reasoning, options, ...request }) {
      const numCtx = await contextWindow(request.model);
      const thinks = (await detailsOf(request.model)).capabilities.includes('thinking');
      return get().chat({ ...request, ...(reasoning === 'off' && thinks ? { think: false } : {}), options: { ...options, num_ctx: numCtx } });
    },
  };
}

/** Stands in for a server Mnemo must not or cannot talk to: every call fails with `error`, before anything is sent. */
function refusingPort(api: LlmPort['api'], host: string, error: MnemoError): LlmPort {
  const refuse = () => Promise.reject(error);
  return { api, host, version: refuse, listModels: refuse, showModel: refuse, chat: refuse, pull: refuse, embed: refuse };
}
