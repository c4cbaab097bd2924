/**
 * Crash safety of the extraction queue: a child process runs the real queue over 100 queued exchanges and is killed
 * with SIGKILL at random points (during LLM calls, around the write transaction, right after commits), then restarted
 * until the queue drains. Afterwards: every job done, each expected memory exactly once, no orphan vector or FTS row,
 * integrity_check ok. Seeds are deterministic; set MNEMO_CRASH_SEEDS to run more locally.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { createTestCore } from '../support/test-core';
import { seededRandom } from '../support/seeded-random';
import { expectDueJobsDone } from '../support/due-jobs';
import { useTempDirs } from '../support/temp-dir';
import { isLearning } from '../support/request-kind';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXCHANGES = 100;
const SEEDS = Number(process.env.MNEMO_CRASH_SEEDS ?? 20);
/** A letters-only word made from a number (the fake embedder hashes words; digits would be split off). */
const word = (n: number) => {
  let out = '';
  for (let v = n; out.length < 5; v = Math.floor(v / 26)) out += String.fromCharCode(97 + (v % 26));
  return out;
};
/** Three words of its own per exchange: no two facts are near duplicates of each other. */
const factWords = (i: number) => `${word(i * 7919 + 11)} ${word(i * 104729 + 7)} ${word(i * 1299709 + 3)}`;


function runChild(dataDir: string, ollamaHost: string, killAfterMs: number | null): Promise<'drained' | 'killed'> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'test/reliability/crash-child.ts'), dataDir], {
      cwd: ROOT,
      env: { ...process.env, OLLAMA_HOST: ollamaHost },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      // Start the kill clock only once the core is up, so kills land in the work, not in tsx's start-up.
      if (killAfterMs !== null && out.includes('started') && !timer) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (d: Buffer) => (err += d));
    let timer: NodeJS.Timeout | undefined;
    child.on('exit', (code, signal) => {
      if (timer) clearTimeout(timer);
      if (signal === 'SIGKILL') return resolve('killed');
      if (code === 0 && out.includes('drained')) return resolve('drained');
      reject(new Error(`crash child exited with ${code}: ${err.slice(-2000)}`));
    });
  });
}

describe('extraction queue crash safety (kill -9)', () => {
  const tempDir = useTempDirs();
  let fake: FakeOllama;

  beforeAll(async () => {
    fake = await startFakeOllama();
    fake.setDefaultReply((req) => {
      const last = req.messages.at(-1)!.content;
      if (isLearning(req.purpose)) {
        // One request may carry several waiting exchanges of the thread (a batch): a fact for each.
        const loves = [...last.matchAll(/Exchange (\d+): I really love ([a-z]+ [a-z]+ [a-z]+)/g)].map((m) => m[2]!);
        if (loves.length === 0) return { content: '{"memories": []}' };
        // A few chunks with pauses: kills often land while the reply is still streaming.
        const json = JSON.stringify({ memories: loves.map((l) => ({ content: `Loves ${l}`, category: 'preference', importance: 0.6, confidence: 0.9, validity: 'permanent', evidence: `I really love ${l}` })) });
        return { chunks: [json.slice(0, 40), json.slice(40, 90), json.slice(90)], delayMsPerChunk: 2 };
      }
      if (req.purpose === 'title') return { content: 'Loves' };
      if (req.purpose === 'summary') return { content: 'They talked about what they love.' };
      return { content: 'That sounds wonderful, tell me more about it please!' };
    });
  });
  afterAll(async () => {
    await fake?.close();
  });

  async function seed(dataDir: string): Promise<void> {
    const { core, client } = createTestCore(dataDir, {
      llm: (host) => createOllamaLlm({ host }),
      env: { OLLAMA_HOST: fake.url },
      embedder: createBagOfWordsEmbedder({ dimensions: 512 }),
      startQueue: false,
    });
    try {
      let threadId: number | undefined;
      for (let i = 0; i < EXCHANGES; i++) {
        if (i % 25 === 0) threadId = unwrap(await client.call('thread.create', {})).id;
        unwrap(await client.call('chat.send', { threadId, text: `Exchange ${i}: I really love ${factWords(i)}, it makes my day.` }));
      }
    } finally {
      await core.dispose();
    }
  }

  function verify(dataDir: string, drainStartedAt: number): void {
    const db = new Database(path.join(dataDir, 'mnemo.db'));
    sqliteVec.load(db);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const jobs = expectDueJobsDone(db, drainStartedAt);
      expect(jobs.find((j) => j.kind === 'extract')?.n).toBe(EXCHANGES);
      const contents = (db.prepare("SELECT content FROM memories WHERE status = 'active' ORDER BY content").all() as Array<{ content: string }>).map((r) => r.content);
      const expected = Array.from({ length: EXCHANGES }, (_, i) => `Loves ${factWords(i)}`).sort();
      const reasons = db.prepare('SELECT reason, origin, count(*) AS n FROM memory_versions GROUP BY reason, origin').all();
      const merged = db.prepare("SELECT memory_id, content FROM memory_versions WHERE reason != 'created'").all();
      expect(contents, JSON.stringify({ reasons, merged: merged.slice(0, 20) })).toEqual(expected);
      const orphanVectors = db.prepare('SELECT count(*) AS n FROM memory_vectors WHERE memory_id NOT IN (SELECT id FROM memories)').get() as { n: number };
      expect(orphanVectors.n).toBe(0);
      const orphanFts = db.prepare('SELECT count(*) AS n FROM memories_fts WHERE rowid NOT IN (SELECT id FROM memories)').get() as { n: number };
      expect(orphanFts.n).toBe(0);
      const vectors = db.prepare('SELECT count(*) AS n FROM memory_vectors').get() as { n: number };
      expect(vectors.n).toBe(EXCHANGES);
      const versions = db.prepare('SELECT count(*) AS n FROM memory_versions').get() as { n: number };
      expect(versions.n).toBe(EXCHANGES);
    } finally {
      db.close();
    }
  }

  // Seeded once and copied for every seed; removed after the file.
  const templateRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-crash-template-'));
  const template = path.join(templateRoot, 'data');
  afterAll(() => fs.rmSync(templateRoot, { recursive: true, force: true }));

  it('seeds 100 queued exchanges', async () => {
    await seed(template);
    const db = new Database(path.join(template, 'mnemo.db'), { readonly: true });
    expect((db.prepare("SELECT count(*) AS n FROM jobs WHERE kind = 'extract' AND status = 'queued'").get() as { n: number }).n).toBe(EXCHANGES);
    db.close();
  });

  for (let s = 1; s <= SEEDS; s++) {
    it(`seed ${s}: killed at random points, restarted until drained: every job done, each memory exactly once`, { timeout: 300_000 }, async () => {
      expect(fs.existsSync(path.join(template, 'mnemo.db'))).toBe(true);
      const dataDir = path.join(tempDir(), `seed-${s}`);
      fs.cpSync(template, dataDir, { recursive: true });
      const random = seededRandom(s * 7919);
      let kills = 0;
      let lastStart = 0;
      for (let run = 0; run < 200; run++) {
        // Mostly short lives (kills inside LLM calls and commits); every few runs a longer one makes progress.
        const killAfter = run >= 8 ? null : random() < 0.2 ? 200 + Math.floor(random() * 600) : Math.floor(random() * 120);
        lastStart = Date.now();
        const outcome = await runChild(dataDir, fake.url, killAfter);
        if (outcome === 'drained') break;
        kills++;
      }
      expect(kills).toBeGreaterThan(0);
      verify(dataDir, lastStart);
    });
  }
});
