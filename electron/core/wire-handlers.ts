/**
 * Wiring of the operations for the composition root: every domain's handlers over the services create-core.ts built,
 * in one map for the dispatcher. Holds no rule of its own (each domain's operations are its <domain>.handlers.ts).
 */
import { appHandlers } from './app.handlers';
import type { CoreOptions } from './core-api';
import { backupHandlers } from './backup/backup.handlers';
import type { BackupService } from './backup/backup.service';
import { chatHandlers, summaryHandlers } from './chat/chat.handlers';
import type { ChatService } from './chat/chat.service';
import type { MessageBranches } from './conversation/message-branches';
import type { MessagesStore } from './conversation/messages.store';
import type { SummaryStore } from './conversation/summary.store';
import type { ThreadExclusionsStore } from './threads/thread-exclusions.store';
import type { PromptContextStore } from './chat/prompt-context.store';
import type { OpenedDatabase } from './db/open-database';
import { embeddingHandlers } from './embedding/embedding.handlers';
import type { EmbeddingService } from './embedding/embedding.service';
import { episodeHandlers } from './episodes/episode.handlers';
import type { EventBus } from './runtime/event-bus';
import { reviewHandlers } from './review/review.handlers';
import type { ReviewService } from './review/review.service';
import { focusHandlers } from './focus/focus.handlers';
import type { JobQueue } from './jobs/job-queue';
import { queueHandlers } from './jobs/queue.handlers';
import type { BackgroundModel } from './llm/background-model';
import type { ModelLane } from './llm/model-lane';
import { mcpHandlers } from './mcp/mcp.handlers';
import type { McpService } from './mcp/mcp.service';
import type { MemoryExporter } from './memory/memory-export';
import type { MemoryImporter } from './memory/memory-import';
import type { MemoryMaintenance } from './memory/memory-maintenance';
import { createUnconsolidate } from './memory/memory-unconsolidate';
import { memoryHandlers } from './memory/memory.handlers';
import type { MemoryService } from './memory/memory.service';
import type { MemoryUpkeepStore } from './memory/memory-upkeep.store';
import { modelsHandlers } from './models/models.handlers';
import type { ModelsService } from './models/models.service';
import type { Clock } from './ports/clock.port';
import type { Paths } from './ports/paths.port';
import type { SecretStore } from './ports/secret-store.port';
import { profileHandlers } from './profile/profile.handlers';
import type { Handlers } from './rpc/dispatcher';
import { createApiKey } from './settings/api-key';
import { settingsHandlers } from './settings/settings.handlers';
import type { SettingsService } from './settings/settings.service';
import { threadHandlers } from './threads/thread.handlers';
import type { ThreadService } from './threads/thread.service';
import { timelineHandlers } from './timeline/timeline.handlers';
import type { TimelineService } from './timeline/timeline.service';
import type { ThreadExporter } from './threads/thread-export';
import type { ThreadImporter } from './threads/thread-import';
import type { ProfileService } from './profile/profile.service';
import type { EpisodeService } from './episodes/episode.service';
import type { FocusService } from './focus/focus.service';

/** The services the operations run on, as create-core.ts built them. */
export interface OperationServices {
  options: Pick<CoreOptions, 'host' | 'version'>;
  db: OpenedDatabase;
  paths: Paths;
  clock: Clock;
  events: EventBus;
  secrets: SecretStore;
  settings: SettingsService;
  embedding: EmbeddingService;
  models: ModelsService;
  queue: JobQueue;
  backgroundModel: BackgroundModel;
  lane: ModelLane;
  backups: BackupService;
  threads: ThreadService;
  messages: MessagesStore;
  branches: MessageBranches;
  summaries: SummaryStore;
  threadExclusions: ThreadExclusionsStore;
  promptContexts: PromptContextStore;
  chat: ChatService;
  timeline: TimelineService;
  memories: MemoryService;
  upkeep: MemoryUpkeepStore;
  memoryExporter: MemoryExporter;
  memoryImporter: MemoryImporter;
  maintenance: MemoryMaintenance;
  threadExporter: ThreadExporter;
  threadImporter: ThreadImporter;
  profile: ProfileService;
  episodes: EpisodeService;
  focus: FocusService;
  review: ReviewService;
  mcp: McpService;
}

export function operationHandlers(s: OperationServices): Handlers {
  const { db, clock, events, memories } = s;
  return {
    ...appHandlers({ db, paths: s.paths, host: s.options.host, version: s.options.version ?? '0.0.0' }),
    ...backupHandlers(s.backups),
    ...settingsHandlers(s.settings, createApiKey({ secrets: s.secrets, events })),
    ...embeddingHandlers(s.embedding),
    ...modelsHandlers(s.models),
    ...queueHandlers(s.queue, s.backgroundModel),
    ...threadHandlers({
      threads: s.threads,
      messages: s.messages,
      chat: s.chat,
      queue: s.queue,
      exclusions: s.threadExclusions,
      clock,
      memory: (id) => memories.getMemory(id),
      assertCanChat: s.models.assertCanChat,
      exporter: s.threadExporter,
      importer: s.threadImporter,
    }),
    ...chatHandlers({ chat: s.chat, messages: s.messages, promptContexts: s.promptContexts, lane: s.lane }),
    ...summaryHandlers({ summaries: s.summaries, clock, events, threads: s.threads, branches: s.branches }),
    ...memoryHandlers({
      memories,
      timeline: s.timeline,
      exporter: s.memoryExporter,
      importer: s.memoryImporter,
      maintenance: s.maintenance,
      unconsolidate: createUnconsolidate({ upkeep: s.upkeep, events, memories }),
      access: (memoryId) => s.mcp.accessOf(memoryId),
    }),
    ...profileHandlers(s.profile),
    ...episodeHandlers(s.episodes),
    ...focusHandlers(s.focus),
    ...timelineHandlers(s.timeline),
    ...reviewHandlers(s.review),
    ...mcpHandlers(s.mcp),
  };
}
