/**
 * Mnemo answering a quality suite's questions: the memories go into a fresh core (memory.create), then every question is
 * asked twice, through chat.send in a new thread (the prompt's memories, memoriesUsed) and memory.search (top
 * `searchLimit`), through a real core whose real Ollama adapter talks to the fake Ollama on loopback. With an embedder,
 * fails unless every memory got a vector and every search ran hybrid, so a model that silently did not load cannot pass
 * for semantic search. Answers are indexes into `memories`, best first. A memory with `learnedAt` is created at that
 * time (the core's clock set to it), as extraction would have learned it then; the questions are then asked at `now`.
 * openMnemo keeps the core open, for asking the same questions under several settings (bench/locomo-variants.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, unwrap } from '../shared/client';
import type { MemoryCategory, OpInput, Settings } from '../shared/contract';
import { createCore } from '../electron/core/create-core';
import type { Embedder } from '../electron/core/embedding/embedder.port';
import { createInProcessTransport } from '../electron/core/in-process.transport';
import { createOllamaLlm } from '../electron/core/llm/ollama.llm';
import { startFakeOllama } from '../test/fakes/fake-ollama';

type SettingsPatch = OpInput<'settings.update'>['patch'];

export interface AskOptions {
  embedder: Embedder | null;
  /** settings.retrieval.minSimilarity for this core; default: the setting's default. */
  minSimilarity?: number;
  searchLimit?: number;
  /** The time the questions are asked (with memories' learnedAt); default: the real clock. */
  now?: number;
  /** settings.timeZone for this core (the zone dates are read in); default: the system's. */
  timeZone?: string;
}

export async function askMnemo(
  memories: ReadonlyArray<{ content: string; category: MemoryCategory; learnedAt?: number }>,
  questions: readonly string[],
  options: AskOptions,
): Promise<{ prompt: number[][]; search: number[][] }> {
  const store = await openMnemo(memories, options);
  try {
    return await store.ask(questions);
  } finally {
    await store.dispose();
  }
}

/** A core holding the memories, kept open so the same questions can be asked under several settings. */
export interface MnemoStore {
  /** Every question through chat.send (the prompt's memories) and, unless `search` is false, memory.search. */
  ask(questions: readonly string[], opts?: { search?: boolean }): Promise<{ prompt: number[][]; search: number[][] }>;
  /** settings.update with this patch; the settings after it. */
  patchSettings(patch: SettingsPatch): Promise<Settings>;
  dispose(): Promise<void>;
}

export async function openMnemo(
  memories: ReadonlyArray<{ content: string; category: MemoryCategory; learnedAt?: number }>,
  { embedder, minSimilarity, searchLimit = 10, now, timeZone }: AskOptions,
): Promise<MnemoStore> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-ask-'));
  const fake = await startFakeOllama();
  let at: number | null = null;
  const clock = { now: () => at ?? Date.now() };
  const core = createCore({ dataDir: dir, host: 'cli', embedder, clock, startQueue: false, llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url } });
  const dispose = async () => {
    await core.dispose();
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const client = createClient(createInProcessTransport(core));
    const patchSettings = async (patch: SettingsPatch): Promise<Settings> => {
      const { openaiApiKeySet: _, ...settings } = unwrap(await client.call('settings.update', { patch }));
      return settings;
    };
    if (minSimilarity !== undefined) await patchSettings({ retrieval: { minSimilarity } });
    if (timeZone !== undefined) await patchSettings({ timeZone });
    const indexOf = new Map<number, number>();
    let withVector = 0;
    for (const [i, m] of memories.entries()) {
      at = m.learnedAt ?? null;
      const made = unwrap(await client.call('memory.create', { content: m.content, category: m.category }));
      indexOf.set(made.id, i);
      if (made.embeddingModel !== null) withVector++;
    }
    if (embedder && withVector !== memories.length) throw new Error(`only ${withVector} of ${memories.length} memories got a vector from ${embedder.modelId}`);
    at = now ?? null;
    const indexes = (ids: number[]) => ids.map((id) => indexOf.get(id) ?? -1);

    const ask: MnemoStore['ask'] = async (questions, { search: searchToo = true } = {}) => {
      const prompt: number[][] = [];
      const search: number[][] = [];
      for (const text of questions) {
        const sent = unwrap(await client.call('chat.send', { text }));
        prompt.push(indexes(sent.memoriesUsed.map((u) => u.memoryId)));
        if (!searchToo) continue;
        const found = unwrap(await client.call('memory.search', { query: text, limit: searchLimit }));
        if (embedder && found.mode !== 'hybrid') throw new Error(`memory.search answered in ${found.mode} mode with ${embedder.modelId}`);
        search.push(indexes(found.hits.map((h) => h.memory.id)));
      }
      return { prompt, search };
    };
    return { ask, patchSettings, dispose };
  } catch (e) {
    await dispose();
    throw e;
  }
}
