/**
 * Ollama health and models: what is installed, whether the configured chat and background models are among them,
 * and pulling a model with streamed progress (model.pullProgressed events).
 */
import type { Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { EventBus } from '../event-bus';
import type { LlmProvider } from '../llm/llm-provider';
import type { ModelInfo } from '../llm/llm.port';
import type { Logger } from '../ports/logger.port';

/** Ollama treats "llama3.2" and "llama3.2:latest" as the same model. */
export function sameModel(a: string, b: string): boolean {
  const norm = (n: string) => (n.includes(':') ? n : `${n}:latest`).toLowerCase();
  return norm(a) === norm(b);
}

export function createModelsService(deps: { llm: LlmProvider; settings: () => Settings; events: EventBus; logger: Logger }) {
  const pulls = new Map<string, AbortController>();

  async function overview() {
    const port = deps.llm.get();
    const settings = deps.settings();
    let version: string | null = null;
    let models: ModelInfo[] = [];
    let error: { code: string; message: string } | null = null;
    try {
      version = await port.version();
      models = await port.listModels();
    } catch (e) {
      const err = e instanceof MnemoError ? e : new MnemoError('OLLAMA_UNREACHABLE', `Cannot reach Ollama at ${port.host}.`);
      error = { code: err.code, message: err.message };
    }
    const configured = (name: string) => ({ name, installed: models.some((m) => sameModel(m.name, name)) });
    return {
      host: port.host,
      reachable: error === null,
      version,
      error,
      models,
      chatModel: configured(settings.chatModel),
      backgroundModel: configured(settings.backgroundModel),
    };
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
    pull,
    show: (name: string) => deps.llm.get().showModel(name),
    cancelAll: () => {
      for (const c of pulls.values()) c.abort();
    },
  };
}
