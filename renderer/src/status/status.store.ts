/**
 * What is running and how healthy it is: the connection to Mnemo, app info, Ollama and its models (with model
 * pulls in progress), the background queue, the embedding model, and the progress of re-indexing and of an import. Fed by events; models.list is asked again
 * when something that changes its answer happens (settings, a finished pull, the queue pausing for a new reason or
 * resuming, a reply that failed for a model reason or succeeded while the server was marked unreachable): a server
 * that dies mid-reply turns the bar red at once, not at the next reload (recheck rule: `failureChangesModels`).
 */
import { create } from 'zustand';
import type { AppInfo, EmbeddingDownloadProgress, EmbeddingStatus, EventPayload, OpOutput } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { Result } from '../../../shared/errors';
import { useAppStore } from '../app/app.store';
import { notConnected } from '../app/not-connected';

export type ModelsOverview = OpOutput<'models.list'>;
export type QueueState = OpOutput<'queue.status'>;
export type ModelUsage = OpOutput<'queue.usage'>;
export type PullState = Omit<EventPayload<'model.pullProgressed'>, 'name'>;
export interface Progress {
  done: number;
  total: number;
}

/** A progress to show, or null once it is complete (or says nothing). */
export function activeProgress(p: Progress): Progress | null {
  return p.total > 0 && p.done < p.total ? p : null;
}

/** While Ollama is unreachable, how often to look again (it may be started at any moment). */
const UNREACHABLE_RECHECK_MS = 5000;
/**
 * Failures after which what models.list says has probably changed: the server gone (before or during a reply), the
 * model gone, a model that would not load. A reply that broke off (LLM_STREAM_ERROR) is most often the server stopped.
 */
const MODEL_FAILURES = new Set(['OLLAMA_UNREACHABLE', 'LLM_UNREACHABLE', 'MODEL_NOT_FOUND', 'MODEL_LOAD_TIMEOUT', 'LLM_STREAM_ERROR']);

export function failureChangesModels(code: string | null | undefined): boolean {
  return code != null && MODEL_FAILURES.has(code);
}
/** Settings whose change changes models.list's answer: which server, where, with which key, and the chosen models. */
const MODEL_KEYS = new Set(['llmProvider', 'ollamaHost', 'ollamaRemoteConfirmed', 'openaiBaseUrl', 'openaiRemoteConfirmed', 'openaiApiKeySet', 'chatModel', 'backgroundModel']);

export function changesModels(keys: readonly string[]): boolean {
  return keys.some((k) => MODEL_KEYS.has(k));
}
/** Settings that change why learning waits (QueueState.learning.waitingFor). */
const LEARNING_KEYS = new Set(['learningSchedule', 'learningNeedsPower']);

/**
 * The core's model lane tells of a hold that changes with a chat or the battery (queue.changed), but reads the
 * schedule only when asked: after the user switches it, the queue's state is asked again so the bar follows at once.
 */
export function changesLearning(keys: readonly string[]): boolean {
  return keys.some((k) => LEARNING_KEYS.has(k));
}
/** Long enough to read a sentence and reach its button; the welcome line and the status bar keep naming the model. */
const AUTO_SELECTED_NOTICE_MS = 10_000;

interface StatusState {
  client: Client | null;
  connected: boolean;
  /** Connected at least once: losing the connection after that shows "reconnecting". */
  everConnected: boolean;
  info: AppInfo | null;
  models: ModelsOverview | null;
  checkingModels: boolean;
  pulls: Record<string, PullState>;
  queue: QueueState | null;
  /** What background model work cost since the core started (queue.usage), as last asked; null until asked. */
  usage: ModelUsage | null;
  embedding: EmbeddingStatus | null;
  embeddingDownload: EmbeddingDownloadProgress | null;
  /**
   * Why the last download of the embedding model failed, until the next one starts: kept apart from `embedding`,
   * which a later embedding.status overwrites with "not downloaded" (the same reason the CLI waits for the event).
   */
  embeddingDownloadFailure: string | null;
  /** Memories re-embedded so far by the running re-index (null when none runs). */
  reindex: Progress | null;
  /** Items an import has prepared so far (null when none runs). */
  importing: Progress | null;
  init(client: Client, onReconnect: () => void): void;
  setConnected(connected: boolean): void;
  refreshModels(): Promise<void>;
  /** After a failure with this code (a reply's, a send's): models.list asked again, unless a check is already under way. */
  recheckAfterFailure(code: string): void;
  refreshAll(): Promise<void>;
  refreshQueue(): Promise<void>;
  refreshUsage(): Promise<void>;
  pull(name: string): Promise<void>;
  /** Stops a pull; its last event (status "cancelled", no error) brings the Download button back. */
  cancelPull(name: string): Promise<void>;
  /** Fetches the local embedding model (only ever on request); progress comes as events. */
  downloadEmbedding(): Promise<void>;
  cancelEmbeddingDownload(): Promise<void>;
  /** What the model server says of one model (models.show: its capabilities, e.g. tools). */
  showModel(name: string): Promise<Result<OpOutput<'models.show'>>>;
}

export const useStatusStore = create<StatusState>((set, get) => {
  let recheckTimer: ReturnType<typeof setTimeout> | null = null;
  let modelsRequest = 0;
  let reconnectHandler: (() => void) | null = null;
  let downloadCancelled = false;

  return {
    client: null,
    connected: false,
    everConnected: false,
    info: null,
    models: null,
    checkingModels: false,
    pulls: {},
    queue: null,
    usage: null,
    embedding: null,
    embeddingDownload: null,
    embeddingDownloadFailure: null,
    reindex: null,
    importing: null,

    init(client, onReconnect) {
      reconnectHandler = onReconnect;
      set({ client });
      client.on('queue.changed', (queue) => {
        const before = get().queue?.paused ?? null;
        // A re-index that stopped (no embedder, or paused) is not running any more.
        set({ queue, ...(queue.running?.kind === 'reembed' ? {} : { reindex: null }) });
        // Resumed, or paused for a new reason (the server found gone by a background job): the server's state changed.
        if ((before !== null) !== (queue.paused !== null) || (queue.paused !== null && queue.paused.code !== before?.code)) void get().refreshModels();
      });
      client.on('model.pullProgressed', ({ name, ...progress }) => {
        set((s) => ({ pulls: { ...s.pulls, [name]: keepLastPercent(s.pulls[name], progress) } }));
        if (progress.done && !progress.error) void get().refreshModels();
      });
      client.on('embedding.statusChanged', ({ status }) =>
        set((s) => {
          // A download that ends anywhere but "ready" failed, unless the user cancelled it.
          const failed = s.embedding?.state === 'downloading' && status.state === 'unavailable' && !downloadCancelled;
          if (status.state !== 'downloading') downloadCancelled = false;
          return {
            embedding: status,
            ...(status.state === 'downloading' ? {} : { embeddingDownload: null }),
            ...(failed ? { embeddingDownloadFailure: status.message ?? '' } : status.state === 'unavailable' ? {} : { embeddingDownloadFailure: null }),
          };
        }),
      );
      client.on('embedding.downloadProgressed', (progress) => set({ embeddingDownload: progress }));
      client.on('embedding.reindexProgressed', (progress) => set({ reindex: activeProgress(progress) }));
      client.on('import.progressed', (progress) => set({ importing: activeProgress(progress) }));
      client.on('memory.imported', () => set({ importing: null }));
      // Said once, when it happens: a user who never chose a model learns which one answers, and where to change it.
      client.on('model.autoSelected', ({ name, keys, instead }) => {
        const app = useAppStore.getState();
        const text = keys.length === 2 ? 'models.autoSelected.both' : keys[0] === 'chatModel' ? 'models.autoSelected.chat' : 'models.autoSelected.background';
        const id = app.pushToast(
          {
            text: { key: text, params: { model: name, instead } },
            action: {
              label: 'setup.openSettings',
              run: () => {
                app.setView('settings');
                app.dismissToast(id);
              },
            },
          },
          AUTO_SELECTED_NOTICE_MS,
        );
      });
      // An exchange that ends enqueues its learning in the same transaction, but the queue announces only a job that
      // starts or ends: with learning held, none does, and "N exchanges behind" would stay stale until then.
      client.on('message.completed', ({ message }) => {
        void get().refreshQueue();
        // Any reply, from this page or another: one that failed for a model reason, or one that succeeded while the
        // server was marked unreachable, means the bar's model line is stale.
        if (message.status === 'error') get().recheckAfterFailure(message.errorCode ?? '');
        else if (message.status === 'complete' && get().models?.reachable === false) void get().refreshModels();
      });
      client.on('settings.changed', ({ keys }) => {
        if (changesModels(keys)) void get().refreshModels();
        if (changesLearning(keys)) void get().refreshQueue();
      });
      void get().refreshAll();
    },

    setConnected(connected) {
      const { connected: wasConnected, everConnected } = get();
      set({ connected, everConnected: everConnected || connected });
      // Events sent while the socket was down are lost: everything shown is read again.
      if (connected && !wasConnected && everConnected) reconnectHandler?.();
    },

    async refreshAll() {
      const client = get().client;
      if (!client) return;
      const [info, queue] = await Promise.all([client.call('app.info', {}), client.call('queue.status', {})]);
      if (info.ok) set({ info: info.value });
      if (queue.ok) set({ queue: queue.value });
      await get().refreshModels();
      // Asking may load the embedding model: it must not hold up the rest.
      void client.call('embedding.status', {}).then((r) => {
        if (r.ok) set({ embedding: r.value });
      });
    },

    async refreshQueue() {
      const client = get().client;
      if (!client) return;
      const result = await client.call('queue.status', {});
      if (result.ok) set({ queue: result.value });
    },

    async refreshUsage() {
      const client = get().client;
      if (!client) return;
      const result = await client.call('queue.usage', {});
      if (result.ok) set({ usage: result.value });
    },

    async refreshModels() {
      const client = get().client;
      if (!client) return;
      const request = ++modelsRequest;
      set({ checkingModels: true });
      const result = await client.call('models.list', {});
      if (request !== modelsRequest) return;
      set({ checkingModels: false });
      if (!result.ok) return;
      set({ models: result.value });
      if (recheckTimer) clearTimeout(recheckTimer);
      recheckTimer = result.value.reachable ? null : setTimeout(() => void get().refreshModels(), UNREACHABLE_RECHECK_MS);
    },

    recheckAfterFailure(code) {
      if (failureChangesModels(code) && !get().checkingModels) void get().refreshModels();
    },

    async downloadEmbedding() {
      const client = get().client;
      if (!client) return;
      set({ embeddingDownloadFailure: null });
      const result = await client.call('embedding.download', {});
      if (result.ok) set({ embedding: result.value.status });
      else useAppStore.getState().showError(result.error);
    },

    async cancelEmbeddingDownload() {
      const client = get().client;
      if (!client) return;
      downloadCancelled = true;
      await client.call('embedding.cancelDownload', {});
    },

    async showModel(name) {
      const client = get().client;
      return client ? client.call('models.show', { name }) : notConnected;
    },

    async pull(name) {
      const client = get().client;
      if (!client) return;
      set((s) => ({ pulls: { ...s.pulls, [name]: { status: 'starting', percent: null, completedBytes: null, totalBytes: null, done: false, error: null } } }));
      const result = await client.call('models.pull', { name });
      if (!result.ok) {
        set((s) => ({ pulls: { ...s.pulls, [name]: { status: 'error', percent: null, completedBytes: null, totalBytes: null, done: true, error: result.error } } }));
      }
    },

    async cancelPull(name) {
      const client = get().client;
      if (!client) return;
      const result = await client.call('models.cancelPull', { name });
      if (!result.ok) useAppStore.getState().showError(result.error);
    },
  };
});

/** Ollama reports steps without a percentage between layers; the bar keeps the last known value instead of jumping to empty. */
function keepLastPercent(previous: PullState | undefined, next: PullState): PullState {
  if (next.percent !== null || !previous || previous.done) return next;
  return { ...next, percent: previous.percent };
}
