/**
 * A database of N memories written through the product's own write path (memory service createMemory: row, version,
 * timeline event, FTS entry, float vector and bits), with synthetic clustered 384-dimension vectors
 * (test/fixtures/clustered-vectors.ts) and text, and queries whose vectors an embedder hands back without computing
 * anything (the benchmarks exclude query embedding). Built once per size per run, in a temporary folder removed
 * when the process exits.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MemoryCategory } from '../shared/contract';
import { createBackupScrubber } from '../electron/core/backup/backup-scrub';
import { createMessagesStore } from '../electron/core/conversation/messages.store';
import { openDatabase, sourceMigrationsDir, type OpenedDatabase } from '../electron/core/db/open-database';
import type { Embedder } from '../electron/core/embedding/embedder.port';
import { createEmbeddingService, type EmbeddingService } from '../electron/core/embedding/embedding.service';
import { createEventBus } from '../electron/core/runtime/event-bus';
import { createMemoryService, type MemoryService } from '../electron/core/memory/memory.service';
import { createMemoryStores } from '../electron/core/memory/memory.store';
import type { VectorIndexOptions } from '../electron/core/search/vector-index';
import { silentLogger } from '../electron/core/ports/logger.port';
import { derivePaths } from '../electron/core/ports/paths.port';
import { createSettingsService, type SettingsService } from '../electron/core/settings/settings.service';
import { createSettingsStore } from '../electron/core/settings/settings.store';
import { estimateTokens } from '../electron/core/text/token-estimate';
import { createThreadService } from '../electron/core/threads/thread.service';
import { createThreadsStore } from '../electron/core/conversation/threads.store';
import { createTimelineWriter } from '../electron/core/db/timeline-writer';
import { createVectorSpace, seededRandom } from '../test/fixtures/clustered-vectors';

export const DIMENSIONS = 384;
const MODEL_ID = 'bench:clustered-384';
const DAY = 86_400_000;
/** "Now" for every fixture: memories are spread over the year before it. */
export const FIXTURE_NOW = Date.UTC(2026, 0, 1);

export interface MemoryFixture {
  file: string;
  size: number;
  /** Vectors in insertion order; `ids[i]` is the memory made from `vectors[i]`. */
  vectors: Float32Array[];
  ids: number[];
  queries: Array<{ text: string; vector: Float32Array }>;
  /** Seconds spent writing the memories through createMemory (vectors made beforehand). */
  seedSeconds: number;
}

export interface OpenFixture {
  db: OpenedDatabase;
  memories: MemoryService;
  embedding: EmbeddingService;
  settings: SettingsService;
  close(): Promise<void>;
}

let root: string | null = null;
const built = new Map<number, Promise<MemoryFixture>>();

function tempRoot(): string {
  if (!root) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-memories-'));
    root = dir;
    process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return root;
}

/** An embedder for precomputed vectors: a query's vector is looked up, never computed. */
function lookupEmbedder(queries: ReadonlyMap<string, Float32Array>): Embedder {
  return {
    modelId: MODEL_ID,
    dimensions: DIMENSIONS,
    load: () => Promise.resolve(),
    embed(texts, kind) {
      const out = texts.map((t) => (kind === 'query' ? queries.get(t) : undefined));
      if (out.some((v) => !v)) return Promise.reject(new Error(`bench embedder: no ${kind} vector for one of ${texts.length} texts`));
      return Promise.resolve(out as Float32Array[]);
    },
    dispose: () => Promise.resolve(),
  };
}

/** Opens a fixture's database with a memory service of the product's composition (see test/support/memory-harness.ts). */
export async function openFixture(fixture: Pick<MemoryFixture, 'file' | 'queries'>, vectorSearch?: VectorIndexOptions): Promise<OpenFixture> {
  const db = openDatabase(fixture.file, { migrationsDir: sourceMigrationsDir() });
  const clock = { now: () => FIXTURE_NOW };
  const events = createEventBus(silentLogger);
  const settings = createSettingsService({ store: createSettingsStore(db.sqlite), clock, events, logger: silentLogger });
  const embedding = createEmbeddingService({ embedder: lookupEmbedder(new Map(fixture.queries.map((q) => [q.text, q.vector]))), logger: silentLogger });
  if (!(await embedding.ensureReady())) throw new Error('bench embedder did not load');
  const memories = createMemoryService({
    stores: createMemoryStores(db.sqlite, vectorSearch ? { vectorSearch } : {}),
    clock,
    events,
    logger: silentLogger,
    embedding,
    settings: () => settings.get(),
    backups: createBackupScrubber({ paths: derivePaths(path.dirname(fixture.file), { dbFile: fixture.file }), logger: silentLogger }),
    timeline: createTimelineWriter({ sqlite: db.sqlite, clock }),
    branches: createMessagesStore(db.sqlite).branches,
  });
  return {
    db,
    memories,
    embedding,
    settings,
    async close() {
      await embedding.dispose();
      db.close();
    },
  };
}

const CATEGORIES: MemoryCategory[] = ['knowledge', 'preference', 'project', 'skill'];

export function memoryFixture(size: number): Promise<MemoryFixture> {
  let made = built.get(size);
  if (!made) {
    made = build(size);
    built.set(size, made);
  }
  return made;
}

async function build(size: number): Promise<MemoryFixture> {
  const space = createVectorSpace({ dimensions: DIMENSIONS, seed: 20_260_101 });
  const random = seededRandom(size);
  const made = Array.from({ length: size }, () => space.memory());
  const queries = new Map<string, Float32Array>();
  while (queries.size < 300) {
    const q = space.query();
    queries.set(q.text, q.vector);
  }
  const file = path.join(tempRoot(), `memories-${size}.db`);
  const fixture = { file, queries: [...queries].map(([text, vector]) => ({ text, vector })) };
  const open = await openFixture(fixture);
  const ids: number[] = [];
  const t0 = performance.now();
  const batch = open.db.sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const m = made[i]!;
      const memory = open.memories.createMemory(
        { content: m.text, category: CATEGORIES[m.topic % CATEGORIES.length]!, importance: Math.round(random() * 100) / 100 },
        { origin: 'extraction', embedding: { modelId: MODEL_ID, vector: m.vector } },
      );
      ids.push(memory.id);
    }
  });
  for (let i = 0; i < size; i += 5000) batch(i, Math.min(size, i + 5000));
  const seedSeconds = (performance.now() - t0) / 1000;
  // The service's clock is fixed; spread the memories over the year before it so recency varies as in a real store.
  const step = Math.floor((365 * DAY) / size);
  open.db.sqlite.prepare('UPDATE memories SET created_at = ? - (? - id) * ?, updated_at = ? - (? - id) * ?').run(FIXTURE_NOW, size, step, FIXTURE_NOW, size, step);
  await open.close();
  return { file, size, vectors: made.map((m) => m.vector), ids, queries: fixture.queries, seedSeconds };
}

/** Adds a thread of `count` alternating user/assistant messages through the messages repo; returns it and its last (user) message. */
export function seedThread(db: OpenedDatabase, count: number, userTexts: readonly string[]): { threadId: number; lastUserMessageId: number } {
  const threads = createThreadService({ store: createThreadsStore(db.sqlite), clock: { now: () => FIXTURE_NOW }, events: createEventBus(silentLogger) });
  const messages = createMessagesStore(db.sqlite);
  const random = seededRandom(count);
  const words = ['the', 'memory', 'garden', 'plan', 'tomorrow', 'because', 'train', 'python', 'recipe', 'sister', 'budget', 'meeting', 'weekend', 'project', 'idea', 'maybe'];
  const sentence = (n: number) => Array.from({ length: n }, () => words[Math.floor(random() * words.length)]!).join(' ') + '.';
  const thread = threads.create({ title: 'Long thread', incognito: false });
  let last = 0;
  db.sqlite.transaction(() => {
    for (let i = 0; i < count; i++) {
      // Alternating, ending with the user's message the prompt is assembled for.
      const user = (count - 1 - i) % 2 === 0;
      const content = i === count - 1 ? userTexts[0]! : user ? sentence(8 + Math.floor(random() * 40)) : sentence(30 + Math.floor(random() * 170));
      const m = messages.insert({ threadId: thread.id, role: user ? 'user' : 'assistant', content, status: 'complete', model: user ? null : 'bench', estimatedTokens: estimateTokens(content), now: FIXTURE_NOW - (count - i) * 60_000 });
      if (user) last = m.id;
    }
  })();
  return { threadId: thread.id, lastUserMessageId: last };
}
