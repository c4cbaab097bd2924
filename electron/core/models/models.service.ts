/**
 * Ollama health and models: what is installed and which of it can chat, whether the configured chat and background
 * models are among them, the automatic choice of a chat model, and pulling a model with streamed progress
 * (model.pullProgressed events).
 *
 * The automatic choice: while a model setting (chatModel, backgroundModel) was never written (settings.isStored) and
 * its default is not installed, Mnemo picks an installed chat model (chat-model-pick.ts), stores it as that setting
 * and says so (model.autoSelected). The background model takes the chat model when that one is installed and can
 * chat: one model for both is one model in memory, not a reload at every switch. A stored setting is never changed
 * here, even when its model is gone: the user chose it, and the "not installed" card lets them choose again.
 */
import type { Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { sameModel } from '../../../shared/model-name';
import type { EventBus } from '../runtime/event-bus';
import { ollamaHostSource, type LlmProvider } from '../llm/llm-provider';
import type { LlmPort, ModelInfo } from '../llm/llm.port';
import type { Logger } from '../ports/logger.port';
import type { SettingsService } from '../settings/settings.service';
import { canChat, pickChatModel, type ModelCandidate } from './chat-model-pick';


const MODEL_SETTINGS = ['chatModel', 'backgroundModel'] as const satisfies ReadonlyArray<keyof Settings>;
type ModelSetting = (typeof MODEL_SETTINGS)[number];

export function createModelsService(deps: { llm: LlmProvider; settings: SettingsService; events: EventBus; logger: Logger; env?: NodeJS.ProcessEnv }) {
  const pulls = new Map<string, AbortController>();
  // /api/show per host, model and modification time (a model pulled again may have changed).
  const details = new Map<string, Promise<{ capabilities: string[] | null; contextLength: number | null }>>();
  let choosing: Promise<void> | null = null;

  /** What /api/show says of a model: its capabilities (null: not reported) and context length (null: not said). */
  function detailsOf(port: LlmPort, model: ModelInfo): Promise<{ capabilities: string[] | null; contextLength: number | null }> {
    const key = `${port.host}\n${model.name}\n${model.modifiedAt ?? ''}`;
    let pending = details.get(key);
    if (!pending) {
      // The adapter gives [] when Ollama sends no capabilities field: Ollama before 0.6.4, which has no such list.
      // Every Ollama that has it lists at least one capability for each model, so [] means "not reported".
      pending = port.showModel(model.name).then(
        (d) => ({ capabilities: d.capabilities.length > 0 ? d.capabilities : null, contextLength: d.contextLength }),
        () => {
          details.delete(key);
          return { capabilities: null, contextLength: null };
        },
      );
      details.set(key, pending);
    }
    return pending;
  }

  function describe(port: LlmPort, models: ModelInfo[]): Promise<Array<ModelInfo & ModelCandidate & { contextLength: number | null }>> {
    return Promise.all(models.map(async (m) => ({ ...m, ...(await detailsOf(port, m)) })));
  }

  /** The automatic choice (see above). Never throws: whatever stops it, the request that follows reports better. */
  function chooseModelsIfUnset(): Promise<void> {
    if (MODEL_SETTINGS.every((key) => deps.settings.isStored(key))) return Promise.resolve();
    // One choice at a time: two replies started together must not pick twice, nor announce it twice.
    choosing ??= choose()
      // The adapter has logged an Ollama failure already.
      .catch((e: unknown) => deps.logger.debug('automatic model choice skipped', { code: e instanceof MnemoError ? e.code : 'INTERNAL' }))
      .finally(() => (choosing = null));
    return choosing;
  }

  async function choose(): Promise<void> {
    const port = deps.llm.get();
    const installed = await port.listModels();
    const unset = (settings: Settings) => MODEL_SETTINGS.filter((key) => !deps.settings.isStored(key) && !installed.some((m) => sameModel(m.name, settings[key])));
    const before = unset(deps.settings.get());
    if (before.length === 0) return;
    const candidates = await describe(port, installed);
    const chatModel = before.includes('chatModel') ? undefined : candidates.find((m) => sameModel(m.name, deps.settings.get().chatModel) && canChat(m));
    const name = chatModel?.name ?? pickChatModel(candidates);
    if (name === null) return;
    // Read again right before writing: the user may have chosen while Ollama was being asked.
    const current = deps.settings.get();
    const keys = unset(current);
    if (keys.length === 0) return;
    deps.settings.update(Object.fromEntries(keys.map((key) => [key, name])) as Partial<Record<ModelSetting, string>>);
    deps.logger.info('chose a model automatically', { model: name, keys });
    deps.events.emit('model.autoSelected', { name, keys, instead: current[keys[0]!] });
  }

  async function overview() {
    await chooseModelsIfUnset();
    const port = deps.llm.get();
    let version: string | null = null;
    let models: Awaited<ReturnType<typeof describe>> = [];
    let error: { code: string; message: string } | null = null;
    try {
      version = await port.version();
      models = await describe(port, await port.listModels());
    } catch (e) {
      const err = e instanceof MnemoError ? e : new MnemoError('OLLAMA_UNREACHABLE', `Cannot reach Ollama at ${port.host}.`);
      error = { code: err.code, message: err.message };
    }
    const settings = deps.settings.get();
    const configured = (name: string) => ({ name, installed: models.some((m) => sameModel(m.name, name)) });
    return {
      api: port.api,
      host: port.host,
      hostSource: ollamaHostSource(settings.ollamaHost, deps.env).source,
      remote: deps.llm.inUse().remote,
      reachable: error === null,
      version,
      error,
      models: models.map((m) => ({ name: m.name, sizeBytes: m.sizeBytes, family: m.family, parameterSize: m.parameterSize, modifiedAt: m.modifiedAt, contextLength: m.contextLength, chat: canChat(m), embedding: m.capabilities?.includes('embedding') ?? false })),
      chatModel: configured(settings.chatModel),
      backgroundModel: configured(settings.backgroundModel),
    };
  }

  /**
   * For a thread's model: refuses one the model server does not list (MODEL_NOT_FOUND) or lists as unable to chat (an
   * embedding model: INVALID_INPUT). A server that does not answer cannot say, so the choice stands and the next
   * answer reports what is wrong.
   */
  async function assertCanChat(name: string): Promise<void> {
    const port = deps.llm.get();
    let installed: ModelInfo[];
    try {
      installed = await port.listModels();
    } catch {
      return;
    }
    const model = installed.find((m) => sameModel(m.name, name));
    if (!model) throw new MnemoError('MODEL_NOT_FOUND', `Model "${name}" is not installed on the model server at ${port.host}. Pick one of the installed models.`, { details: { model: name } });
    const [described] = await describe(port, [model]);
    if (!canChat(described!)) throw new MnemoError('INVALID_INPUT', `"${name}" cannot hold a conversation (it is an embedding model). Pick a chat model.`, { path: 'model' });
  }

  function pull(name: string): { started: boolean } {
    if (pulls.has(name)) return { started: false };
    const controller = new AbortController();
    pulls.set(name, controller);
    const emit = (p: { status: string; percent: number | null; completedBytes: number | null; totalBytes: number | null; done: boolean; error: { code: string; message: string } | null }) =>
      deps.events.emit('model.pullProgressed', { name, ...p });
    void deps.llm
      .get()
      .pull(name, (p) => emit({ status: p.status, percent: p.percent, completedBytes: p.completedBytes, totalBytes: p.totalBytes, done: false, error: null }), controller.signal)
      .then(
        () => emit({ status: 'success', percent: 100, completedBytes: null, totalBytes: null, done: true, error: null }),
        (e: unknown) => {
          // Stopped on purpose (cancelPull, or the core shutting down): not a failure to report.
          if (controller.signal.aborted) return emit({ status: 'cancelled', percent: null, completedBytes: null, totalBytes: null, done: true, error: null });
          const err = e instanceof MnemoError ? e : new MnemoError('LLM_HTTP_ERROR', `Pulling ${name} failed.`);
          deps.logger.warn('model pull failed', { code: err.code });
          emit({ status: 'error', percent: null, completedBytes: null, totalBytes: null, done: true, error: { code: err.code, message: err.message } });
        },
      )
      .finally(() => pulls.delete(name));
    return { started: true };
  }

  return {
    overview,
    chooseModelsIfUnset,
    assertCanChat,
    pull,
    /** Stops one pull (by the same-model rule: "llama3.2" stops "llama3.2:latest"). */
    cancelPull(name: string): { cancelled: boolean } {
      const running = [...pulls].find(([pulling]) => sameModel(pulling, name));
      running?.[1].abort();
      return { cancelled: running !== undefined };
    },
    show: (name: string) => deps.llm.get().showModel(name),
    cancelAll: () => {
      for (const c of pulls.values()) c.abort();
    },
  };
}
export type ModelsService = ReturnType<typeof createModelsService>;
