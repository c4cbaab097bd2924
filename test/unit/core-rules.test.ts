/**
 * The decisions the composition root used to hold, each tested alone in the file that now holds it: the embedding
 * model follows the settings, re-embedding is scheduled when vectors are missing, a dead job is recorded and
 * announced, the queue wakes when a hold may have lifted, the daily tasks and their order, the recovery at start.
 */
import { describe, expect, it, vi } from 'vitest';
import type { EmbeddingStatus, EventMessage, Settings } from '../../shared/contract';
import { createDailyScheduler } from '../../electron/core/runtime/daily-scheduler';
import { dailyTasks, dailyTasksRunOnTheirOwn } from '../../electron/core/backup/daily-tasks';
import { embeddingModelChanged, followEmbeddingSettings } from '../../electron/core/embedding/embedding-follows-settings';
import type { ModelChange } from '../../electron/core/embedding/embedding.service';
import { createEventBus } from '../../electron/core/runtime/event-bus';
import { scheduleReembedWhenVectorsMissing } from '../../electron/core/memory/reembed-triggers';
import { reportDeadJob } from '../../electron/core/jobs/dead-job-report';
import type { EnqueueInput, JobRow } from '../../electron/core/jobs/job-queue';
import { wakeQueueWhenHoldsChange } from '../../electron/core/jobs/queue-wake-triggers';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { recoverAtStart } from '../../electron/core/recover-at-start';

describe('the embedding model follows the settings (embedding/embedding-follows-settings.ts)', () => {
  it('switches on a change of embedding provider or model, and on a chat server change only when the embedder is the chat server', () => {
    expect(embeddingModelChanged(['embeddingModel'], { embeddingProvider: 'onnx' })).toBe(true);
    expect(embeddingModelChanged(['embeddingProvider'], { embeddingProvider: 'onnx' })).toBe(true);
    expect(embeddingModelChanged(['llmProvider'], { embeddingProvider: 'ollama' })).toBe(true);
    expect(embeddingModelChanged(['llmProvider'], { embeddingProvider: 'onnx' })).toBe(false);
    expect(embeddingModelChanged(['chatModel', 'learningSchedule'], { embeddingProvider: 'ollama' })).toBe(false);
  });

  it('asks the embedding service for the model the settings now name, and logs a failed switch', async () => {
    const events = createEventBus(silentLogger);
    const now = { embeddingProvider: 'onnx', embeddingModel: 'model-b' } as Pick<Settings, 'embeddingProvider' | 'embeddingModel'> as Settings;
    const switchModel = vi.fn(() => Promise.reject(new Error('no such model')));
    const warn = vi.fn();
    followEmbeddingSettings({ events, settings: () => now, embedding: { switchModel }, logger: { ...silentLogger, warn } });
    events.emit('settings.changed', { keys: ['chatModel'] });
    expect(switchModel).not.toHaveBeenCalled();
    events.emit('settings.changed', { keys: ['embeddingModel'] });
    expect(switchModel).toHaveBeenCalledWith('onnx', 'model-b');
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('embedding model switch failed', { error: 'no such model' }));
  });
});

/** A queue that keeps what was enqueued; `list` shows it as queued. */
function fakeQueue() {
  const enqueued: EnqueueInput[] = [];
  return {
    enqueued,
    enqueue: (input: EnqueueInput) => enqueued.push(input),
    list: () => enqueued.map((e, i) => ({ id: i + 1, kind: e.kind, status: 'queued' }) as JobRow),
  };
}

/** An embedding service whose status changes and model switches the test makes happen. */
function fakeEmbedding(readyAtStart: boolean) {
  const statusListeners: Array<(s: EmbeddingStatus) => void> = [];
  const modelListeners: Array<(change: ModelChange) => void> = [];
  return {
    onStatusChange: (l: (s: EmbeddingStatus) => void) => (statusListeners.push(l), () => {}),
    onModelChanged: (l: (change: ModelChange) => void) => (modelListeners.push(l), () => {}),
    ensureReady: () => Promise.resolve(readyAtStart),
    becomes: (state: EmbeddingStatus['state']) => statusListeners.forEach((l) => l({ state } as EmbeddingStatus)),
    switched: () => modelListeners.forEach((l) => l({ previousModelId: 'old', status: { state: 'ready' } as EmbeddingStatus })),
  };
}

describe('re-embedding is scheduled when vectors are missing (memory/reembed-triggers.ts)', () => {
  const clock = { now: () => 1_000 };
  const reasons = (queue: ReturnType<typeof fakeQueue>) => queue.enqueued.map((e) => (e.payload as { reason: string }).reason);

  it('at start once the embedder is ready, when some memories lack a vector', async () => {
    const queue = fakeQueue();
    scheduleReembedWhenVectorsMissing({ queue, clock, embedding: fakeEmbedding(true), memories: { missingVectorCount: () => 3 } });
    await vi.waitFor(() => expect(reasons(queue)).toEqual(['startup']));
  });

  it('not at start when every memory has its vector, or no embedder is ready', async () => {
    for (const [ready, missing] of [[true, 0], [false, 3]] as const) {
      const queue = fakeQueue();
      scheduleReembedWhenVectorsMissing({ queue, clock, embedding: fakeEmbedding(ready), memories: { missingVectorCount: () => missing } });
      await new Promise((settled) => setImmediate(settled)); // ensureReady's answer has been handled
      expect(queue.enqueued).toEqual([]);
    }
  });

  it('when the embedder becomes ready with vectors missing, and after every model switch; never twice while one waits', () => {
    const queue = fakeQueue();
    const embedding = fakeEmbedding(false);
    let missing = 0;
    scheduleReembedWhenVectorsMissing({ queue, clock, embedding, memories: { missingVectorCount: () => missing } });
    embedding.becomes('ready');
    expect(queue.enqueued).toEqual([]);
    missing = 2;
    embedding.becomes('loading');
    expect(queue.enqueued).toEqual([]);
    embedding.becomes('ready');
    expect(reasons(queue)).toEqual(['embedder-ready']);
    embedding.switched();
    expect(reasons(queue)).toEqual(['embedder-ready']);
    queue.enqueued.length = 0;
    embedding.switched();
    expect(reasons(queue)).toEqual(['model-changed']);
  });
});

describe('a dead job is recorded on the timeline and announced (jobs/dead-job-report.ts)', () => {
  it('records its kind of failure with ids and the error class only, then emits job.failed as final', () => {
    const events = createEventBus(silentLogger);
    const seen: EventMessage[] = [];
    events.subscribe((m) => seen.push(m));
    const record = vi.fn();
    const job = { id: 7, kind: 'summarize', threadId: 3, messageId: 11 } as JobRow;
    reportDeadJob({ timeline: { record }, events })(job, 'LLM_TIMEOUT');
    expect(record).toHaveBeenCalledWith('summary_failed', { threadId: 3, messageId: 11 }, { jobId: 7, code: 'LLM_TIMEOUT' });
    expect(seen).toEqual([{ event: 'job.failed', payload: { jobId: 7, kind: 'summarize', code: 'LLM_TIMEOUT', final: true } }]);
  });
});

describe('the queue wakes when a hold may have lifted (jobs/queue-wake-triggers.ts)', () => {
  it('on every change of the model lane, and on a change of the learning schedule or the mains-power rule only', () => {
    const events = createEventBus(silentLogger);
    const notifyChange = vi.fn();
    let laneChanged = () => {};
    wakeQueueWhenHoldsChange({ queue: { notifyChange }, lane: { onChange: (l) => (laneChanged = l) }, events });
    laneChanged();
    expect(notifyChange).toHaveBeenCalledTimes(1);
    events.emit('settings.changed', { keys: ['chatModel', 'embeddingModel'] });
    expect(notifyChange).toHaveBeenCalledTimes(1);
    events.emit('settings.changed', { keys: ['learningSchedule'] });
    events.emit('settings.changed', { keys: ['theme', 'learningNeedsPower'] });
    expect(notifyChange).toHaveBeenCalledTimes(3);
  });
});

describe('the daily tasks (backup/daily-tasks.ts)', () => {
  it('run in order: the backup, maintenance, the profile, the working memory clean-up; each only when a day has passed', async () => {
    const ran: string[] = [];
    const step = (name: string) => async () => void ran.push(name);
    const never = () => null;
    const tasks = dailyTasks({
      backups: { lastAutomaticAt: never, backup: step('backup') },
      maintenance: { lastRunAt: () => 999, run: step('maintenance') },
      profile: { lastDailyAt: never, refreshDaily: () => void ran.push('profile') },
      workingMemoryCleanup: { name: 'working memory', lastRunAt: never, run: step('working memory') },
    });
    expect(tasks.map((t) => t.name)).toEqual(['backup', 'maintenance', 'profile', 'working memory']);
    const daily = createDailyScheduler({ clock: { now: () => 1_000 }, logger: silentLogger, tasks });
    expect(await daily.runDue()).toEqual(['backup', 'profile', 'working memory']);
    expect(ran).toEqual(['backup', 'profile', 'working memory']);
    await daily.stop();
  });

  it('run on their own in the long-running hosts only, unless the host says otherwise', () => {
    expect(dailyTasksRunOnTheirOwn('electron', undefined)).toBe(true);
    expect(dailyTasksRunOnTheirOwn('web', undefined)).toBe(true);
    expect(dailyTasksRunOnTheirOwn('cli', undefined)).toBe(false);
    expect(dailyTasksRunOnTheirOwn('test', undefined)).toBe(false);
    expect(dailyTasksRunOnTheirOwn('test', true)).toBe(true);
    expect(dailyTasksRunOnTheirOwn('electron', false)).toBe(false);
  });
});

describe('the recovery at start (recover-at-start.ts)', () => {
  it('stops replies left streaming, removes abandoned imports, and logs what opening the database did', () => {
    const info = vi.fn();
    const warn = vi.fn();
    const chat = { recoverInterrupted: vi.fn() };
    const memoryImporter = { recoverAbandoned: vi.fn() };
    const restore = { status: 'refused' as const, reason: 'damaged', keptAt: '/b/staged.db' };
    recoverAtStart({ db: { appliedMigrations: ['0001_x'], preMigrationBackup: '/b/pre.db', restore }, logger: { ...silentLogger, info, warn }, chat, memoryImporter });
    expect(chat.recoverInterrupted).toHaveBeenCalledOnce();
    expect(memoryImporter.recoverAbandoned).toHaveBeenCalledOnce();
    expect(info).toHaveBeenCalledWith('database migrated', { applied: ['0001_x'], backup: '/b/pre.db' });
    expect(warn).toHaveBeenCalledWith('staged restore', restore);
  });
});
