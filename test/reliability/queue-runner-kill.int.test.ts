/**
 * A terminal queue runner killed in the middle of a job loses nothing: the real CLI (`queue run --until-idle`, a
 * child process) is killed with SIGKILL while an extraction really runs (the fake Ollama has received the job's
 * request and is still streaming the slow reply), at seeded moments, once or twice per seed. The killed job is left
 * 'running' under the dead process's lease; the status must show it as stalled (never "nothing queued or running"),
 * and the next plain `queue run --until-idle` must take it back: every fact exactly once, every job done.
 *
 * Fakes only at the process edge: Ollama is a fake server speaking its real protocol (chat and embeddings); the CLI,
 * core, queue and database are the real ones. Set MNEMO_RUNNER_KILL_SEEDS to run more seeds locally.
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
import { parseLeaseOwner } from '../../electron/core/jobs/lease-owner';
import { startFakeOllama, type FakeOllama, type FakeRequestRecord } from '../fakes/fake-ollama';
import { createTestCore } from '../support/test-core';
import { seededRandom } from '../support/seeded-random';
import { expectDueJobsDone } from '../support/due-jobs';
import { useTempDirs } from '../support/temp-dir';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EXCHANGES = 4;
const SEEDS = Number(process.env.MNEMO_RUNNER_KILL_SEEDS ?? 10);
/** The extraction reply streams in pieces this far apart: a kill up to KILL_WINDOW_MS after its request lands mid-job. */
const CHUNK_DELAY_MS = 60;
const CHUNKS = 6;
const KILL_WINDOW_MS = 200;
/** Each CLI run starts a fresh tsx process (seconds on a loaded machine) before any job runs. */
const RUN_TIMEOUT_MS = 60_000;

/** A letters-only word made from a number (digits would be split off by the keyword index). */
const word = (n: number) => {
  let out = '';
  for (let v = n; out.length < 5; v = Math.floor(v / 26)) out += String.fromCharCode(97 + (v % 26));
  return out;
};
const factWords = (i: number) => `${word(i * 7919 + 11)} ${word(i * 104729 + 7)} ${word(i * 1299709 + 3)}`;
const isExtraction = (r: FakeRequestRecord) => r.purpose === 'extract';

interface Run {
  pid: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill(): void;
}

function startCli(args: string[], env: Record<string, string>): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts'), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<Awaited<Run['exited']>>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { pid: child.pid!, exited, kill: () => child.kill('SIGKILL') };
}

describe('a CLI queue runner killed mid-job (kill -9)', () => {
  const tempDir = useTempDirs();
  let fake: FakeOllama;
  const templateRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-runner-kill-template-'));
  const template = path.join(templateRoot, 'data');

  beforeAll(async () => {
    fake = await startFakeOllama({ embedDim: 64 });
    fake.setDefaultReply((req) => {
      const last = req.messages.at(-1)!.content;
      // Working memory's update answers at once: the slow, killable job is extraction's.
      if (req.purpose === 'focus') return { content: '{"focus": "", "tasks": []}' };
      if (req.purpose === 'extract') {
        // One request may carry several waiting exchanges of the thread (a batch): a fact for each.
        const loves = [...last.matchAll(/Exchange (\d+): I really love ([a-z]+ [a-z]+ [a-z]+)/g)].map((m) => m[2]!);
        if (loves.length === 0) return { content: '{"memories": []}' };
        const json = JSON.stringify({ memories: loves.map((l) => ({ content: `Loves ${l}`, category: 'preference', importance: 0.6, confidence: 0.9, validity: 'permanent', evidence: `I really love ${l}` })) });
        const size = Math.ceil(json.length / CHUNKS);
        return { chunks: Array.from({ length: CHUNKS }, (_, i) => json.slice(i * size, (i + 1) * size)), delayMsPerChunk: CHUNK_DELAY_MS };
      }
      if (req.purpose === 'title') return { content: 'Loves' };
      if (req.purpose === 'summary') return { content: 'They talked about what they love.' };
      return { content: 'That sounds wonderful, tell me more about it please!' };
    });

    // The template: exchanges whose learning waits in the queue, embeddings through the same fake Ollama.
    const { core, client } = createTestCore(template, { llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url }, startQueue: false });
    try {
      unwrap(await client.call('settings.update', { patch: { embeddingProvider: 'ollama', embeddingModel: 'nomic-embed-text' } }));
      const threadId = unwrap(await client.call('thread.create', {})).id;
      for (let i = 0; i < EXCHANGES; i++) unwrap(await client.call('chat.send', { threadId, text: `Exchange ${i}: I really love ${factWords(i)}, it makes my day.` }));
      expect(unwrap(await client.call('queue.status', {})).queued).toBeGreaterThanOrEqual(EXCHANGES);
    } finally {
      await core.dispose();
    }
  }, RUN_TIMEOUT_MS);

  afterAll(async () => {
    await fake?.close();
    fs.rmSync(templateRoot, { recursive: true, force: true });
  });

  /** Runs `queue run --until-idle` and kills it `delayMs` after the `nth` extraction request reached Ollama. */
  async function killMidJob(dataDir: string, nth: number, delayMs: number): Promise<number> {
    let seen = 0;
    const reached = new Promise<void>((resolve) => {
      const wait = () =>
        void fake.nextRequest('/api/chat').then((r) => {
          if (isExtraction(r) && ++seen === nth) resolve();
          else wait();
        });
      wait();
    });
    const run = startCli(['queue', 'run', '--until-idle', '--data-dir', dataDir], { OLLAMA_HOST: fake.url });
    const outcome = await Promise.race([reached.then(() => 'reached' as const), run.exited]);
    if (outcome !== 'reached') throw new Error(`the runner ended before its job ${nth} started: ${JSON.stringify(outcome)}`);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    run.kill();
    expect((await run.exited).signal).toBe('SIGKILL');
    return run.pid;
  }

  function runningJobs(dataDir: string): Array<{ kind: string; lease_owner: string | null }> {
    const db = new Database(path.join(dataDir, 'mnemo.db'));
    try {
      return db.prepare("SELECT kind, lease_owner FROM jobs WHERE status = 'running'").all() as Array<{ kind: string; lease_owner: string | null }>;
    } finally {
      db.close();
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
      expect(contents).toEqual(Array.from({ length: EXCHANGES }, (_, i) => `Loves ${factWords(i)}`).sort());
      expect((db.prepare('SELECT count(*) AS n FROM memories').get() as { n: number }).n).toBe(EXCHANGES);
      expect((db.prepare('SELECT count(*) AS n FROM memory_versions').get() as { n: number }).n).toBe(EXCHANGES);
      expect((db.prepare('SELECT count(*) AS n FROM memory_vectors').get() as { n: number }).n).toBe(EXCHANGES);
    } finally {
      db.close();
    }
  }

  for (let s = 1; s <= SEEDS; s++) {
    it(`seed ${s}: killed while a job runs, the stuck job shows as stalled; a plain drain finds every fact exactly once`, { timeout: 4 * RUN_TIMEOUT_MS }, async () => {
      const dataDir = path.join(tempDir(), `seed-${s}`);
      fs.cpSync(template, dataDir, { recursive: true });
      const random = seededRandom(s * 7919);
      const kills = s % 3 === 0 ? 2 : 1;
      let stalled = 0;
      for (let k = 0; k < kills; k++) {
        // The four exchanges are learned in two requests (a batch of three, then one); after a kill, what is left may
        // need only one, so a second kill comes at the next run's first request.
        const nth = k === 0 ? 1 + Math.floor(random() * 2) : 1;
        const pid = await killMidJob(dataDir, nth, Math.floor(random() * KILL_WINDOW_MS));
        // The kill landed inside a job: exactly that job (or that batch of the thread's exchanges) is left running, under
        // the dead runner's lease.
        const running = runningJobs(dataDir);
        expect(running.length).toBeGreaterThanOrEqual(1);
        for (const job of running) {
          expect(job.kind).toBe('extract');
          expect(parseLeaseOwner(job.lease_owner)?.pid).toBe(pid);
        }
        stalled = running.length;
      }

      if (s === 1) {
        // What the user sees in a terminal (a CLI start costs seconds, so once): the stuck job, and what happens to it.
        const status = await startCli(['queue', 'status', '--data-dir', dataDir], { OLLAMA_HOST: fake.url }).exited;
        expect(status.code, status.stderr).toBe(0);
        expect(status.stdout).toMatch(new RegExp(`stalled\\s+${stalled}\\s+\\(left running by a runner that stopped; "queue run --until-idle" or the app runs it again\\)`));
      }
      // The same question through the contract, in this process: a host that never ran the queue sees the stalled job.
      const { core, client } = createTestCore(dataDir, { llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url }, startQueue: false });
      try {
        expect(unwrap(await client.call('queue.status', {}))).toMatchObject({ running: null, runningElsewhere: 0, stalled, paused: null });
      } finally {
        await core.dispose();
      }

      const drainStartedAt = Date.now();
      const drain = startCli(['queue', 'run', '--until-idle', '--data-dir', dataDir], { OLLAMA_HOST: fake.url });
      const drained = await drain.exited;
      expect(drained.code, drained.stderr).toBe(0);
      verify(dataDir, drainStartedAt);
    });
  }
});
