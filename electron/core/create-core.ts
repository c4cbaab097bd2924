/**
 * The one composition root. Builds every service in dependency order from a data folder and a few ports
 * (what differs by environment or is slow), and disposes them in reverse. Hosts (Electron, web, CLI, tests) call
 * this and then only talk to the returned Core through envelopes and events. It only wires: every decision it used to
 * hold lives in the file named for it (docs/ARCHITECTURE.md, "Contract and hosts"); a unit test holds it to 220 lines.
 */
import fs from 'node:fs';
import { openDatabase } from './db/open-database';
import { createChatService } from './chat/chat.service';
import { createMessagesStore } from './conversation/messages.store';
import { createPromptContextStore } from './chat/prompt-context.store';
import { createMemoryToolSources } from './chat/memory-tool-sources';
import type { Core, CoreOptions } from './core-api';
import { createEventBus } from './runtime/event-bus';
import { scheduleReembedWhenVectorsMissing } from './memory/reembed-triggers';
import { createReviewService } from './review/review.service';
import { createTimelineService } from './timeline/timeline.service';
import { createTimelineStore } from './timeline/timeline.store';
import { createTimelineWriter } from './db/timeline-writer';
import { createLlmProvider } from './llm/llm-provider';
import { createModelsService } from './models/models.service';
import { createTokenCalibrator } from './text/token-estimate';
import { createMemoryService, memoryRetrievalPort } from './memory/memory.service';
import { createMemoryStores } from './memory/memory.store';
import { createMemoryForget } from './memory/memory-forget';
import { createBackupService } from './backup/backup.service';
import { createBackupScrubber } from './backup/backup-scrub';
import { createDailyScheduler } from './runtime/daily-scheduler';
import { dailyTasks, dailyTasksRunOnTheirOwn } from './backup/daily-tasks';
import { handleMissingDatabase } from './backup/missing-database';
import { createMemoryExporter } from './memory/memory-export';
import { createMemoryImporter } from './memory/memory-import';
import { createMemoryMaintenance } from './memory/memory-maintenance';
import { createConsolidationStep } from './memory/consolidation-step';
import { createMemoryCap } from './memory/memory-cap';
import { systemClock } from './ports/clock.port';
import { silentLogger } from './ports/logger.port';
import { createFileSecretStore } from './ports/file-secret-store';
import { derivePaths } from './ports/paths.port';
import { createDispatcher } from './rpc/dispatcher';
import { createSettingsService } from './settings/settings.service';
import { createSettingsStore } from './settings/settings.store';
import { recoverAtStart } from './recover-at-start';
import { createThreadExporter } from './threads/thread-export';
import { createThreadImporter } from './threads/thread-import';
import { profileForgetsPurged } from './profile/profile-forget';
import { createProfileService } from './profile/profile.service';
import { createProfileStore } from './profile/profile.store';
import { createFocusService } from './focus/focus.service';
import { createFocusStore } from './focus/focus.store';
import { createEpisodeService } from './episodes/episode.service';
import { createEpisodeStore } from './episodes/episode.store';
import { createThreadService } from './threads/thread.service';
import { createThreadExclusionsStore } from './threads/thread-exclusions.store';
import { createThreadExportStore } from './threads/thread-export.store';
import { createThreadsStore } from './conversation/threads.store';
import { createSummaryStore } from './conversation/summary.store';
import { createMcpClientsStore } from './mcp/mcp-clients.store';
import { createMcpService } from './mcp/mcp.service';
import { createMcpMemoryTools } from './mcp/mcp-memory-tools';
import { wireEmbedding } from './wire-embedding';
import { operationHandlers } from './wire-handlers';
import { registerJobs, wireLearningQueue } from './wire-learning';

export type { Core, CoreOptions } from './core-api';

export function createCore(options: CoreOptions): Core {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const paths = derivePaths(options.dataDir, options.paths, options.env);
  const disposers: Array<() => void | Promise<void>> = [];

  fs.mkdirSync(paths.dataDir, { recursive: true });
  handleMissingDatabase(paths, options.whenDatabaseMissing ?? 'refuse', logger);
  const db = openDatabase(paths.dbFile, {
    migrationsDir: paths.migrationsDir,
    backupsDir: paths.backupsDir,
    ...(paths.vecExtensionPath ? { vecExtensionPath: paths.vecExtensionPath } : {}),
    now: () => clock.now(),
  });
  disposers.push(() => db.close());
  const { sqlite } = db;
  const app = () => ({ version: options.version ?? '0.0.0', schemaVersion: db.schemaVersion });

  const events = createEventBus(logger);
  const settingsService = createSettingsService({ store: createSettingsStore(sqlite), clock, events, logger });
  const settings = () => settingsService.get();
  // Built once, passed to every service that writes the timeline or follows a conversation's branches.
  const timelineEvents = createTimelineWriter({ sqlite, clock });
  const memoryStores = createMemoryStores(sqlite);
  const { upkeep } = memoryStores;
  const threadsStore = createThreadsStore(sqlite);
  const threads = createThreadService({ store: threadsStore, clock, events, logger });
  const messages = createMessagesStore(sqlite);
  const { branches } = messages;
  const summaries = createSummaryStore(sqlite);
  const promptContexts = createPromptContextStore(sqlite, logger);
  const timeline = createTimelineService({ store: createTimelineStore(sqlite), memories: memoryStores.memories });
  const threadExclusions = createThreadExclusionsStore(sqlite);
  const exclusions = (threadId: number) => threadExclusions.of(threadId);

  const secrets = options.secrets ?? createFileSecretStore({ dataDir: paths.dataDir });
  const llm = createLlmProvider({ settings, logger, secrets, ...(options.env ? { env: options.env } : {}), ...(options.llm ? { override: options.llm } : {}) });
  const embedding = wireEmbedding({ options, paths, llm, settings, events, logger });
  disposers.push(() => embedding.dispose());
  // One scrubber for memories and episodes: one scrub at a time over the backups' scratch files.
  const backupScrubber = createBackupScrubber({ paths, logger });
  const profileStore = createProfileStore(sqlite);
  const writtenFromMemories = profileForgetsPurged({ store: profileStore, events, clock });
  const memories = createMemoryService({ stores: memoryStores, clock, events, logger, embedding, settings, backups: backupScrubber, writtenFromMemories, timeline: timelineEvents, branches });
  const memoryCap = createMemoryCap({ upkeep, settings });

  const { lane, backgroundModel, queue } = wireLearningQueue({ sqlite, clock, logger, events, settings, timeline: timelineEvents, llm, laneFile: paths.laneFile, options });
  disposers.push(() => lane.dispose());
  const contextWindow = (model: string) => llm.contextWindow(model);
  const profile = createProfileService({ store: profileStore, queue, clock, events, settings, contextWindow });
  disposers.push(() => profile.dispose());
  const episodeStore = createEpisodeStore(sqlite);
  const episodes = createEpisodeService({ messages, threads: threadsStore, store: episodeStore, queue, clock, events, settings, backups: backupScrubber, logger, timeline: timelineEvents });
  disposers.push(() => episodes.dispose());
  const focusStore = createFocusStore(sqlite, branches);
  const focus = createFocusService({ store: focusStore, queue, clock, events, settings, assertThread: (id) => void threads.get(id) });
  registerJobs(queue, {
    sqlite, clock, logger, events, settings, timeline: timelineEvents, model: backgroundModel, messages, threadsStore, summaries, threads, memories, upkeep, cap: memoryCap,
    profileStore, episodeStore, focusStore, rescheduleEpisode: (threadId) => episodes.schedule(threadId),
  });

  const forget = createMemoryForget({ search: memories, bulk: memories, toMemory: (id) => memories.getMemory(id) });
  const retrieval = memoryRetrievalPort(memories, exclusions, (window, topic, limit) => episodes.episodesWithin(window, topic, limit));
  const memoryToolSources = createMemoryToolSources({
    messages, memory: memories, forget, exclusions,
    episodes: (query, limit, window) => episodes.searchEpisodes(query, limit, window),
  });
  const models = createModelsService({ llm, settings: settingsService, events, logger, ...(options.env ? { env: options.env } : {}) });
  const chat = createChatService({
    summaries, threadRows: threadsStore, clock, events, logger, messages, promptContexts, threads, queue, llm, settings, forget, lane,
    calibrator: createTokenCalibrator(),
    chooseModelsIfUnset: () => models.chooseModelsIfUnset(),
    memory: () => retrieval,
    profile: () => profile.forPrompt(),
    memoryToolSources: () => memoryToolSources,
    workingMemory: focus,
  });
  const review = createReviewService({ upkeep, memories, events });
  const mcpClients = createMcpClientsStore({ sqlite, clock, timeline: timelineEvents });
  const mcp = createMcpService({ store: mcpClients, events, memoryExists: (id) => memories.getMemory(id) !== null });
  const mcpTools = createMcpMemoryTools({ store: mcpClients, memories, settings, events, clock, profile: () => profile.forPrompt(), conversations: memoryToolSources });
  const backups = createBackupService({ paths, clock, events, logger });
  const consolidation = createConsolidationStep({ sqlite, stores: memoryStores, clock, memories, cap: memoryCap, queue, settings });
  const maintenance = createMemoryMaintenance({ stores: memoryStores, clock, events, logger, memories, embedding, settings, consolidation, timeline: timelineEvents, cap: memoryCap });
  const memoryExporter = createMemoryExporter({ upkeep, sqlite, clock, settings, app, profile: () => profileStore.get()?.content ?? null });
  const threadExporter = createThreadExporter({ store: createThreadExportStore(sqlite), clock, settings, app });
  const threadImporter = createThreadImporter({ threads: threadsStore, summaries, clock, events, messages, thread: (id) => threads.get(id) });
  const memoryImporter = createMemoryImporter({ vectors: memoryStores.vectors, clock, events, logger, memories, settings, timeline: timelineEvents, cap: memoryCap });
  const daily = createDailyScheduler({ clock, logger, tasks: dailyTasks({ backups, maintenance, profile, workingMemoryCleanup: focus.cleanup }) });

  recoverAtStart({ db, logger, chat, memoryImporter });
  if (options.startQueue ?? true) {
    queue.start();
    scheduleReembedWhenVectorsMissing({ queue, clock, embedding, memories });
  }
  disposers.push(async () => {
    chat.stopAll();
    models.cancelAll();
    await queue.stop();
  });
  disposers.push(() => memoryImporter.stop());
  if (dailyTasksRunOnTheirOwn(options.host, options.dailyTasks)) daily.start();
  disposers.push(async () => {
    await daily.stop();
    await maintenance.whenIdle();
  });

  const handlers = operationHandlers({
    options, db, paths, clock, events, secrets, settings: settingsService, embedding, models, queue, backgroundModel, lane, backups,
    threads, messages, branches, summaries, threadExclusions, promptContexts, chat, timeline, memories, upkeep, memoryExporter, memoryImporter, maintenance,
    threadExporter, threadImporter, profile, episodes, focus, review, mcp,
  });
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
