/**
 * The one composition root. Builds every service in dependency order from a data folder and a few ports
 * (what differs by environment or is slow), and disposes them in reverse. Hosts (Electron, web, CLI, tests) call
 * this and then only talk to the returned Core through envelopes and events.
 */
import fs from 'node:fs';
import { FAILED_JOB_KIND, type AppInfo, type EventMessage } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import { openDatabase, type OpenedDatabase } from './db/open-database';
import { createChatService } from './chat/chat.service';
import { createMessagesRepo } from './chat/messages.repo';
import { createPromptContextRepo } from './chat/prompt-context.repo';
import { createSummaryJob } from './chat/summary.job';
import { createTitleJob } from './chat/title.job';
import { createEventBus } from './event-bus';
import { createExtractionJob } from './extraction/extraction.job';
import { createReembedJob, scheduleReembed } from './extraction/reembed.job';
import { createReviewService } from './extraction/review.service';
import { JobQueue } from './jobs/job-queue';
import { createTimelineService } from './timeline/timeline.service';
import { createTimelineWriter } from './timeline/timeline-writer';
import { createLlmProvider } from './llm/llm-provider';
import { createBackgroundModel } from './llm/background-model';
import { createModelLane, type ModelLaneOptions } from './llm/model-lane';
import { createModelsService } from './models/models.service';
import { createTokenCalibrator } from './text/token-estimate';
import type { Embedder } from './embedding/embedder.port';
import { createDefaultEmbedder, createEmbedderFactory, resolveModelHub, type LocalEmbeddingThread } from './embedding/embedder.factory';
import { createEmbeddingService } from './embedding/embedding.service';
import { createMemoryService, memoryRetrievalPort } from './memory/memory.service';
import { createMemoryToolSources } from './chat/memory-tool-sources';
import { createMemoryForget } from './memory/memory-forget';
import { createBackupService } from './backup/backup.service';
import { createBackupScrubber } from './backup/backup-scrub';
import { createDailyScheduler } from './backup/daily-scheduler';
import { handleMissingDatabase, type WhenDatabaseMissing } from './backup/missing-database';
import { createMemoryExporter } from './memory/memory-export';
import { createMemoryImporter } from './memory/memory-import';
import { createMemoryMaintenance } from './memory/memory-maintenance';
import { createConsolidateJob } from './memory/consolidate.job';
import { createConsolidationStep } from './memory/consolidation-step';
import { createMemoryCap } from './memory/memory-cap';
import { createUnconsolidate } from './memory/memory-unconsolidate';
import type { LlmPort } from './llm/llm.port';
import { systemClock, type Clock } from './ports/clock.port';
import { silentLogger, type Logger } from './ports/logger.port';
import { createFileSecretStore } from './ports/file-secret-store';
import type { SecretStore } from './ports/secret-store.port';
import { derivePaths, type Paths } from './ports/paths.port';
import { createDispatcher, type Handlers } from './rpc/dispatcher';
import { createSettingsService } from './settings/settings.service';
import { createApiKey } from './settings/api-key';
import { appHandlers } from './app.handlers';
import { backupHandlers } from './backup/backup.handlers';
import { chatHandlers, summaryHandlers } from './chat/chat.handlers';
import { embeddingHandlers } from './embedding/embedding.handlers';
import { reviewHandlers } from './extraction/review.handlers';
import { queueHandlers } from './jobs/queue.handlers';
import { memoryHandlers } from './memory/memory.handlers';
import { modelsHandlers } from './models/models.handlers';
import { settingsHandlers } from './settings/settings.handlers';
import { createThreadExporter } from './threads/thread-export';
import { createThreadImporter } from './threads/thread-import';
import { threadHandlers } from './threads/thread.handlers';
import { profileHandlers } from './profile/profile.handlers';
import { profileForgetsPurged } from './profile/profile-forget';
import { createProfileJob } from './profile/profile.job';
import { createProfileService } from './profile/profile.service';
import { createProfileStore } from './profile/profile.store';
import { focusHandlers } from './focus/focus.handlers';
import { createFocusJob } from './focus/focus.job';
import { createFocusService } from './focus/focus.service';
import { createFocusStore } from './focus/focus.store';
import { timelineHandlers } from './timeline/timeline.handlers';
import { episodeHandlers } from './episodes/episode.handlers';
import { createEpisodeJob } from './episodes/episode.job';
import { createEpisodeService } from './episodes/episode.service';
import { createEpisodeStore } from './episodes/episode.store';
import { createThreadService } from './threads/thread.service';
import { createMcpClientsStore } from './mcp/mcp-clients.store';
import { mcpHandlers } from './mcp/mcp.handlers';
import { createMcpService } from './mcp/mcp.service';
import { createMcpMemoryTools, type McpMemoryTools } from './mcp/mcp-memory-tools';

export interface CoreOptions {
  dataDir: string;
  host: AppInfo['host'];
  version?: string;
  /** Builds the Ollama port for a host (tests point the real Ollama adapter at a fake server). Default: Ollama's adapter. */
  llm?: (host: string) => LlmPort;
  /** Where secrets (the model server's API key) are kept. Default: a 0600 file in the data folder (ports/file-secret-store.ts). */
  secrets?: SecretStore;
  /** The initial embedder; null: none (keyword search only). Default: the one settings choose. A change of the
   * embedding settings switches model either way. */
  embedder?: Embedder | null;
  /** Where the local embedding model is downloaded from, on request. Default: HF_ENDPOINT, else the Hugging Face Hub. */
  modelHub?: string;
  /** Where the local embedding model runs: a worker thread (default), or the thread that answers calls (the
   * benchmarks' "before"). */
  embeddingThread?: LocalEmbeddingThread;
  /** False: background model work never waits for the chat (the model-lane benchmark's "before"). Default true. */
  chatFirst?: boolean;
  /**
   * The lane's grace windows and polling (default LANE_TIMING): the model-lane benchmark, which runs time faster, scales
   * them with it; a test moves the lane's own clock (`now`) past a grace instead of waiting it out.
   */
  laneTiming?: Partial<Pick<ModelLaneOptions, 'now' | 'typingGraceMs' | 'afterChatGraceMs' | 'awayAfterMs' | 'pollMs'>>;
  /** Start the background queue (default true). The CLI's `queue run` and some tests drive it themselves. */
  startQueue?: boolean;
  /** Environment for OLLAMA_HOST, MNEMO_MODELS_DIR and friends (default process.env). */
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
  logger?: Logger;
  paths?: Partial<Paths>;
  /** Validate every handler's output against the contract (on in tests and development). */
  checkOutputs?: boolean;
  /** Run the daily automatic backup and memory maintenance (when due at start, then every 24 h). Default: only in the
   * long-running hosts (electron, web); a CLI command or a test does not back up or maintain on its own. */
  dailyTasks?: boolean;
  /** The database is missing or empty beside a good backup (backup/missing-database.ts): 'refuse' (default: DB_MISSING,
   * the host asks the user), 'restore-newest' or 'start-empty', as the user chose. */
  whenDatabaseMissing?: WhenDatabaseMissing;
}

export interface Core {
  readonly paths: Paths;
  /** Runs one operation. Never throws: failures come back as `{ok:false,error}`. */
  call(name: string, input: unknown): Promise<Result<unknown>>;
  subscribe(listener: (message: EventMessage) => void): () => void;
  /** The background queue, for hosts that drive it (CLI `queue run`) and for tests (`waitForIdle`). */
  readonly queue: JobQueue;
  /** What an app connected over MCP may ask (`mnemo mcp` serves it: cli/mcp-server.ts). */
  readonly mcpTools: McpMemoryTools;
  /** The desktop host's power monitor: background model work may wait for mains power (settings.learningNeedsPower). */
  setOnBattery(onBattery: boolean): void;
  /** Runs the daily tasks that are due now, as the long-running hosts' periodic check does; resolves with their names. */
  runDailyTasks(): Promise<string[]>;
  dispose(): Promise<void>;
}

export function createCore(options: CoreOptions): Core {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const paths = derivePaths(options.dataDir, options.paths, options.env);
  const disposers: Array<() => void | Promise<void>> = [];

  fs.mkdirSync(paths.dataDir, { recursive: true });
  handleMissingDatabase(paths, options.whenDatabaseMissing ?? 'refuse', logger);
  const db: OpenedDatabase = openDatabase(paths.dbFile, {
    migrationsDir: paths.migrationsDir,
    backupsDir: paths.backupsDir,
    ...(paths.vecExtensionPath ? { vecExtensionPath: paths.vecExtensionPath } : {}),
    now: () => clock.now(),
  });
  disposers.push(() => db.close());
  if (db.appliedMigrations.length > 0) logger.info('database migrated', { applied: db.appliedMigrations, backup: db.preMigrationBackup });
  if (db.restore) logger[db.restore.status === 'restored' ? 'info' : 'warn']('staged restore', { ...db.restore });

  const events = createEventBus(logger);
  const settings = createSettingsService({ sqlite: db.sqlite, clock, events, logger });
  const threads = createThreadService({ sqlite: db.sqlite, clock, events, logger });
  const messages = createMessagesRepo(db.sqlite);
  const promptContexts = createPromptContextRepo(db.sqlite, logger);

  const secrets = options.secrets ?? createFileSecretStore({ dataDir: paths.dataDir });
  const llm = createLlmProvider({
    settings: () => settings.get(),
    logger,
    secrets,
    ...(options.env ? { env: options.env } : {}),
    ...(options.llm ? { override: options.llm } : {}),
  });
  const embedderDeps = {
    paths,
    llm: () => llm.get(),
    modelHub: options.modelHub ?? resolveModelHub(options.env),
    ...(options.embeddingThread ? { localThread: options.embeddingThread } : {}),
  };
  const embedding = createEmbeddingService({
    embedder: options.embedder !== undefined ? options.embedder : createDefaultEmbedder({ ...embedderDeps, settings: settings.get() }),
    factory: createEmbedderFactory({ ...embedderDeps, modelsDir: paths.modelsDir }),
    logger,
  });
  embedding.onStatusChange((status) => events.emit('embedding.statusChanged', { status }));
  embedding.onDownloadProgress((progress) => events.emit('embedding.downloadProgressed', progress));
  events.subscribe((m) => {
    if (m.event !== 'settings.changed') return;
    const { embeddingProvider, embeddingModel } = settings.get();
    // The "ollama" embedding provider is the chat server's: it changes with the server (its vectors with it).
    const serverChanged = embeddingProvider === 'ollama' && m.payload.keys.includes('llmProvider');
    if (!serverChanged && !m.payload.keys.some((k) => k === 'embeddingProvider' || k === 'embeddingModel')) return;
    embedding.switchModel(embeddingProvider, embeddingModel).catch((e: unknown) => logger.warn('embedding model switch failed', { error: (e as Error).message }));
  });
  disposers.push(() => embedding.dispose());
  // One scrubber for memories and episodes: one scrub at a time over the backups' scratch files.
  const backupScrubber = createBackupScrubber({ paths, logger });
  const profileStore = createProfileStore(db.sqlite);
  const memories = createMemoryService({
    sqlite: db.sqlite,
    clock,
    events,
    logger,
    embedding,
    settings: () => settings.get(),
    backups: backupScrubber,
    writtenFromMemories: profileForgetsPurged({ store: profileStore, events, clock }),
  });
  const timelineEvents = createTimelineWriter({ sqlite: db.sqlite, clock });
  const lane = createModelLane({ settings: () => settings.get(), signalFile: paths.laneFile, ...(options.chatFirst === false ? { chatFirst: false } : {}), ...options.laneTiming });
  disposers.push(() => lane.dispose());
  const backgroundModel = createBackgroundModel({ llm, lane, settings: () => settings.get() });
  const queue = new JobQueue({
    learningHold: () => lane.hold(),
    modelUnavailable: () => lane.waitsLong(),
    stretchLeftMs: () => lane.stretchLeftMs(backgroundModel.learningCostMs()),
    sqlite: db.sqlite,
    clock,
    logger,
    onChange: (state) => events.emit('queue.changed', state),
    onDead: (job, code) => {
      // The timeline shows learning that failed for good (ids and the error class only, never text).
      timelineEvents.record(FAILED_JOB_KIND[job.kind], { threadId: job.threadId, messageId: job.messageId }, { jobId: job.id, code });
      events.emit('job.failed', { jobId: job.id, kind: job.kind, code, final: true });
    },
    probe: async (signal) => {
      await llm.get().version(signal);
      return true;
    },
  });
  lane.onChange(() => queue.notifyChange());
  events.subscribe((m) => {
    // A schedule switched back from paused: jobs that wait for the model may be claimed again now.
    if (m.event === 'settings.changed' && m.payload.keys.some((k) => k === 'learningSchedule' || k === 'learningNeedsPower')) {
      queue.notifyChange();
    }
  });
  const timeline = createTimelineService({ sqlite: db.sqlite, clock });
  // Every job that asks the model asks through the background-model gateway (llm/background-model.ts), never llm.
  const jobDeps = { sqlite: db.sqlite, clock, events, model: backgroundModel, settings: () => settings.get() };
  queue.register(createSummaryJob(jobDeps));
  queue.register(
    createTitleJob({
      ...jobDeps,
      onTitled: (threadId) => {
        try {
          events.emit('thread.updated', { thread: threads.get(threadId) });
        } catch {}
      },
    }),
  );
  const profile = createProfileService({ store: profileStore, queue, clock, events, settings: () => settings.get(), contextWindow: (model) => llm.contextWindow(model) });
  disposers.push(() => profile.dispose());
  queue.register(createProfileJob({ ...jobDeps, store: profileStore, logger }));
  const episodeStore = createEpisodeStore(db.sqlite);
  const episodes = createEpisodeService({ sqlite: db.sqlite, store: episodeStore, queue, clock, events, settings: () => settings.get(), backups: backupScrubber, logger });
  disposers.push(() => episodes.dispose());
  queue.register(createEpisodeJob({ ...jobDeps, store: episodeStore, reschedule: (threadId) => episodes.schedule(threadId) }));
  const forget = createMemoryForget({ search: memories, bulk: memories, toMemory: (id) => memories.getMemory(id) });
  const retrieval = memoryRetrievalPort(memories, (threadId) => timeline.exclusions(threadId), (window, topic, limit) =>
    episodes.searchEpisodes(topic, limit, window).map((e) => ({ episodeId: e.id, threadId: e.threadId, threadTitle: e.threadTitle, title: e.title, content: e.content, startedAt: e.startedAt })),
  );
  const memoryToolSources = createMemoryToolSources({
    sqlite: db.sqlite,
    memory: memories,
    forget,
    exclusions: (threadId) => timeline.exclusions(threadId),
    episodes: (query, limit, window) => episodes.searchEpisodes(query, limit, window),
  });
  const focusStore = createFocusStore(db.sqlite);
  const focus = createFocusService({ sqlite: db.sqlite, store: focusStore, queue, clock, events, settings: () => settings.get(), assertThread: (id) => void threads.get(id) });
  queue.register(createFocusJob({ ...jobDeps, store: focusStore, enqueue: (input) => queue.enqueue(input) }));
  const models = createModelsService({ llm, settings, events, logger, ...(options.env ? { env: options.env } : {}) });
  const chat = createChatService({
    sqlite: db.sqlite,
    clock,
    events,
    logger,
    messages,
    promptContexts,
    threads,
    queue,
    calibrator: createTokenCalibrator(),
    chooseModelsIfUnset: () => models.chooseModelsIfUnset(),
    llm,
    settings: () => settings.get(),
    memory: () => retrieval,
    profile: () => profile.forPrompt(),
    memoryToolSources: () => memoryToolSources,
    workingMemory: focus,
    forget,
    lane,
  });
  chat.recoverInterrupted();
  queue.register(createExtractionJob({ ...jobDeps, logger, memories }));
  queue.register(createReembedJob({ memories, events }));
  const memoryCap = createMemoryCap({ sqlite: db.sqlite, settings: () => settings.get() });
  queue.register(createConsolidateJob({ ...jobDeps, logger, memories, cap: memoryCap }));
  const review = createReviewService({ sqlite: db.sqlite, memories, events });
  const mcpClients = createMcpClientsStore({ sqlite: db.sqlite, clock, timeline: timelineEvents });
  const mcp = createMcpService({ store: mcpClients, events, memoryExists: (id) => memories.getMemory(id) !== null });
  const mcpTools = createMcpMemoryTools({
    store: mcpClients,
    memories,
    settings: () => settings.get(),
    profile: () => profile.forPrompt(),
    conversations: (query, limit) => memoryToolSources.searchConversations({ query, limit, excludeMessageIds: new Set(), window: null, windowOnly: false }),
    events,
    clock,
  });
  if (options.startQueue ?? true) {
    queue.start();
    // Vectors missing (model switched, or memories saved while no embedder was available): fill them in the
    // background as soon as an embedder is ready. Keyword search works meanwhile.
    embedding.onModelChanged(() => scheduleReembed(queue, clock, 'model-changed'));
    embedding.onStatusChange((status) => {
      if (status.state === 'ready' && memories.missingVectorCount() > 0) scheduleReembed(queue, clock, 'embedder-ready');
    });
    void embedding.ensureReady().then((ready) => {
      if (ready && memories.missingVectorCount() > 0) scheduleReembed(queue, clock, 'startup');
    });
  }
  disposers.push(async () => {
    chat.stopAll();
    models.cancelAll();
    await queue.stop();
  });
  const backups = createBackupService({ paths, clock, events, logger });
  const consolidation = createConsolidationStep({ sqlite: db.sqlite, clock, memories, cap: memoryCap, queue, settings: () => settings.get() });
  const maintenance = createMemoryMaintenance({ sqlite: db.sqlite, clock, events, logger, memories, embedding, settings: () => settings.get(), consolidation });
  const exporter = createMemoryExporter({
    sqlite: db.sqlite,
    clock,
    settings: () => settings.get(),
    app: () => ({ version: options.version ?? '0.0.0', schemaVersion: db.schemaVersion }),
    profile: () => profileStore.get()?.content ?? null,
  });
  const threadExporter = createThreadExporter({
    sqlite: db.sqlite,
    clock,
    settings: () => settings.get(),
    app: () => ({ version: options.version ?? '0.0.0', schemaVersion: db.schemaVersion }),
  });
  const threadImporter = createThreadImporter({ sqlite: db.sqlite, clock, events, messages, thread: (id) => threads.get(id) });
  const importer = createMemoryImporter({ sqlite: db.sqlite, clock, events, logger, memories, settings: () => settings.get() });
  importer.recoverAbandoned();
  disposers.push(() => importer.stop());
  // The backup first: the day's copy holds what maintenance is about to change (merges, decay, the cap). Old trash it
  // purges is erased from every backup as well, this one included: deleted for good means gone from the backups too.
  const daily = createDailyScheduler({
    clock,
    logger,
    tasks: [
      { name: 'backup', lastRunAt: () => backups.lastAutomaticAt(), run: () => backups.backup('automatic') },
      { name: 'maintenance', lastRunAt: () => maintenance.lastRunAt(), run: () => maintenance.run() },
      // After maintenance: the profile is rewritten from what maintenance left (skipped when nothing it reads changed).
      { name: 'profile', lastRunAt: () => profile.lastDailyAt(), run: async () => profile.refreshDaily() },
      focus.cleanup,
    ],
  });
  if (options.dailyTasks ?? (options.host === 'electron' || options.host === 'web')) daily.start();
  disposers.push(async () => {
    await daily.stop();
    await maintenance.whenIdle();
  });

  const handlers: Handlers = {
    ...appHandlers({ db, paths, host: options.host, version: options.version ?? '0.0.0' }),
    ...backupHandlers(backups),
    ...settingsHandlers(settings, createApiKey({ secrets, events })),
    ...embeddingHandlers(embedding),
    ...modelsHandlers(models),
    ...queueHandlers(queue, backgroundModel),
    ...threadHandlers({
      threads,
      messages,
      chat,
      queue,
      timeline,
      memory: (id) => memories.getMemory(id),
      assertCanChat: models.assertCanChat,
      exporter: threadExporter,
      importer: threadImporter,
    }),
    ...chatHandlers({ chat, messages, promptContexts, lane }),
    ...summaryHandlers({ sqlite: db.sqlite, clock, events, threads }),
    ...memoryHandlers({
      memories,
      timeline,
      exporter,
      importer,
      maintenance,
      unconsolidate: createUnconsolidate({ sqlite: db.sqlite, events, memories }),
      access: (memoryId) => mcp.accessOf(memoryId),
    }),
    ...profileHandlers(profile),
    ...episodeHandlers(episodes),
    ...focusHandlers(focus),
    ...timelineHandlers(timeline),
    ...reviewHandlers(review),
    ...mcpHandlers(mcp),
  };
  const dispatcher = createDispatcher(handlers, logger, { checkOutputs: options.checkOutputs ?? false });

  let disposed = false;
  return {
    paths,
    call: (name, input) =>
      disposed
        ? Promise.resolve({ ok: false, error: { code: 'SHUTTING_DOWN', message: 'Mnemo is shutting down; the request was not run.' } })
        : dispatcher.call(name, input),
    subscribe: (listener) => events.subscribe(listener),
    mcpTools,
    setOnBattery: (onBattery) => lane.setOnBattery(onBattery),
    queue,
    runDailyTasks: () => daily.runDue(),
    async dispose() {
      if (disposed) return;
      disposed = true;
      for (const dispose of disposers.reverse()) {
        try {
          await dispose();
        } catch (e) {
          logger.error('dispose step failed', { error: (e as Error).message });
        }
      }
    },
  };
}
