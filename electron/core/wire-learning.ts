/**
 * Wiring of background learning for the composition root: the model lane, the background-model gateway every
 * model-asking job goes through (llm/background-model.ts), the job queue, and the registration of every job
 * handler. Holds no rule of its own: the dead-job report and the queue's wake-ups are jobs/dead-job-report.ts and
 * jobs/queue-wake-triggers.ts.
 */
import type { Settings } from '../../shared/contract';
import type { CoreOptions } from './core-api';
import type { MessagesStore } from './conversation/messages.store';
import type { SummaryStore } from './conversation/summary.store';
import type { ThreadsStore } from './conversation/threads.store';
import { createSummaryJob } from './chat/summary.job';
import { createTitleJob } from './chat/title.job';
import type { Sqlite } from './db/open-database';
import { createEpisodeJob } from './episodes/episode.job';
import type { EpisodeStore } from './episodes/episode.store';
import type { EventBus } from './runtime/event-bus';
import { createExtractionJob } from './extraction/extraction.job';
import { createReembedJob } from './memory/reembed.job';
import { createFocusJob } from './focus/focus.job';
import type { FocusStore } from './focus/focus.store';
import { reportDeadJob } from './jobs/dead-job-report';
import { JobQueue } from './jobs/job-queue';
import { createJobsStore } from './jobs/jobs.store';
import { wakeQueueWhenHoldsChange } from './jobs/queue-wake-triggers';
import { createBackgroundModel, type BackgroundModel } from './llm/background-model';
import type { LlmProvider } from './llm/llm-provider';
import { createModelLane } from './llm/model-lane';
import { createConsolidateJob } from './memory/consolidate.job';
import type { MemoryCap } from './memory/memory-cap';
import type { MemoryService } from './memory/memory.service';
import type { MemoryUpkeepStore } from './memory/memory-upkeep.store';
import type { Clock } from './ports/clock.port';
import type { Logger } from './ports/logger.port';
import { createProfileJob } from './profile/profile.job';
import type { ProfileStore } from './profile/profile.store';
import type { ThreadService } from './threads/thread.service';
import type { TimelineWriter } from './db/timeline-writer';

interface Basics {
  clock: Clock;
  logger: Logger;
  events: EventBus;
  settings: () => Settings;
  timeline: TimelineWriter;
}

export function wireLearningQueue(deps: Basics & { sqlite: Sqlite; llm: LlmProvider; laneFile: string; options: Pick<CoreOptions, 'chatFirst' | 'laneTiming'> }) {
  const { sqlite, clock, logger, events, llm, options } = deps;
  const lane = createModelLane({ settings: deps.settings, signalFile: deps.laneFile, ...(options.chatFirst === false ? { chatFirst: false } : {}), ...options.laneTiming });
  const backgroundModel = createBackgroundModel({ llm, lane, settings: deps.settings });
  const jobs = createJobsStore(sqlite);
  const queue = new JobQueue({
    learningHold: () => lane.hold(),
    modelUnavailable: () => lane.waitsLong(),
    stretchLeftMs: () => lane.stretchLeftMs(backgroundModel.learningCostMs()),
    conversationLeftMs: (assumed) => lane.conversationLeftMs(assumed),
    chattingThreadId: (assumed) => lane.chattingThreadId(assumed),
    store: jobs,
    clock,
    logger,
    onChange: (state) => events.emit('queue.changed', state),
    onDead: reportDeadJob({ timeline: deps.timeline, events }),
    probe: async (signal) => {
      await llm.get().version(signal);
      return true;
    },
  });
  wakeQueueWhenHoldsChange({ queue, lane, events });
  return { lane, backgroundModel, queue, jobs };
}

/** Every job that asks the model asks through the background-model gateway, never llm. */
export function registerJobs(
  queue: JobQueue,
  deps: Basics & {
    model: BackgroundModel;
    messages: MessagesStore;
    threadsStore: ThreadsStore;
    summaries: SummaryStore;
    threads: ThreadService;
    memories: MemoryService;
    upkeep: MemoryUpkeepStore;
    cap: MemoryCap;
    profileStore: ProfileStore;
    episodeStore: EpisodeStore;
    rescheduleEpisode: (threadId: number) => void;
    focusStore: FocusStore;
  },
): void {
  const { logger, memories, messages, summaries } = deps;
  const { branches } = messages;
  const modelJobDeps = { clock: deps.clock, events: deps.events, model: deps.model, settings: deps.settings, timeline: deps.timeline };
  queue.register(createSummaryJob({ ...modelJobDeps, summaries, branches }));
  queue.register(createTitleJob({ ...modelJobDeps, messages, threads: deps.threadsStore, onTitled: (threadId) => deps.threads.announceUpdated(threadId) }));
  queue.register(createProfileJob({ ...modelJobDeps, store: deps.profileStore, upkeep: deps.upkeep, logger }));
  queue.register(createEpisodeJob({ ...modelJobDeps, messages, threads: deps.threadsStore, summaries, store: deps.episodeStore, reschedule: deps.rescheduleEpisode }));
  queue.register(createFocusJob({ ...modelJobDeps, branches, store: deps.focusStore, enqueue: (input) => queue.enqueue(input) }));
  queue.register(createExtractionJob({ ...modelJobDeps, messages, logger, memories }));
  queue.register(createReembedJob({ memories, events: deps.events }));
  queue.register(createConsolidateJob({ ...modelJobDeps, upkeep: deps.upkeep, logger, memories, cap: deps.cap }));
}
