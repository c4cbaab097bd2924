import path from 'node:path';
import { createBackupScrubber } from '../../electron/core/backup/backup-scrub';
import { createMessagesStore, type MessagesStore } from '../../electron/core/conversation/messages.store';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../../electron/core/db/open-database';
import type { Embedder } from '../../electron/core/embedding/embedder.port';
import { createEmbeddingService, type EmbeddingService } from '../../electron/core/embedding/embedding.service';
import { createEventBus, type EventBus } from '../../electron/core/runtime/event-bus';
import { createMemoryService, type MemoryService } from '../../electron/core/memory/memory.service';
import { createMemoryStores } from '../../electron/core/memory/memory.store';
import type { Clock } from '../../electron/core/ports/clock.port';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { derivePaths } from '../../electron/core/ports/paths.port';
import { createSettingsService, type SettingsService } from '../../electron/core/settings/settings.service';
import { createSettingsStore } from '../../electron/core/settings/settings.store';
import { createThreadService, type ThreadService } from '../../electron/core/threads/thread.service';
import { createThreadsStore } from '../../electron/core/conversation/threads.store';
import { createTimelineWriter } from '../../electron/core/db/timeline-writer';

/** A clock tests move by hand (expiry, half-lives) instead of sleeping. */
export interface TestClock extends Clock {
  set(t: number): void;
  advance(ms: number): void;
}

export function createTestClock(start = Date.UTC(2026, 0, 1)): TestClock {
  let t = start;
  return {
    now: () => t,
    set: (v) => {
      t = v;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export interface MemoryHarness {
  db: OpenedDatabase;
  memories: MemoryService;
  embedding: EmbeddingService;
  settings: SettingsService;
  threads: ThreadService;
  messages: MessagesStore;
  events: EventBus;
  close(): Promise<void>;
}

/**
 * The memory service over a real database file, built from the same parts as createCore, for the internal API the
 * chat and extraction code call (retrieveForPrompt, recordUse, createMemory, fillMissingVectors) and that no
 * contract operation exposes.
 */
export function openMemoryHarness(dataDir: string, opts: { embedder: Embedder | null; clock: Clock }): MemoryHarness {
  const db = openDatabase(path.join(dataDir, 'mnemo.db'), { migrationsDir: sourceMigrationsDir(), now: () => opts.clock.now() });
  const events = createEventBus(silentLogger);
  const settings = createSettingsService({ store: createSettingsStore(db.sqlite), clock: opts.clock, events, logger: silentLogger });
  const embedding = createEmbeddingService({ embedder: opts.embedder, logger: silentLogger });
  const messages = createMessagesStore(db.sqlite);
  const memories = createMemoryService({
    stores: createMemoryStores(db.sqlite),
    clock: opts.clock,
    events,
    logger: silentLogger,
    embedding,
    settings: () => settings.get(),
    backups: createBackupScrubber({ paths: derivePaths(dataDir), logger: silentLogger }),
    timeline: createTimelineWriter({ sqlite: db.sqlite, clock: opts.clock }),
    branches: messages.branches,
  });
  const threads = createThreadService({ store: createThreadsStore(db.sqlite), clock: opts.clock, events });
  return {
    db,
    memories,
    embedding,
    settings,
    threads,
    messages,
    events,
    async close() {
      await embedding.dispose();
      db.close();
    },
  };
}
