/**
 * Responsiveness of the web host during long work (issue 11 item 12): while one client runs a 3,000-memory import with
 * local ONNX embedding through the real web host (HTTP, core in-process, as `npm run web` runs it), a second client
 * calls the cheap `queue.status` every 20 ms, and we report how long those calls took. Then the same for the
 * background re-embed of those memories, a maintenance run and a backup.
 *
 * The probing client runs in a worker thread with its own event loop and clock, so a blocked host cannot also delay
 * the probe's own timers and hide the wait. Calls are sent on a fixed 20 ms schedule whether or not earlier ones have
 * answered (open loop), so a call's latency is what a user clicking at that moment would wait.
 *
 * Beside it in the same run:
 * - floor: the same probe against the same host doing nothing;
 * - before: the same work with the embedder in the calling thread (`embeddingThread: 'in-process'`), the way every
 *   host ran it before the embedding worker (the import's planning and maintenance's merge pass are time-sliced in
 *   both rows: that part of the change has no switch);
 * - after: the composition root's default (embedding in a worker thread).
 *
 * Two models: the generated tiny model (test/fakes/tiny-onnx-model.ts), whose forward pass costs almost nothing, and
 * the same model with 6 feed-forward blocks, so that a text costs about the multiply-adds multilingual-e5-small (Mnemo's
 * default model) spends on it: e5-small does ~21 M per token over ~20 tokens for such a line, the tiny tokenizer spells
 * words out into ~3x more tokens, and 6 blocks do ~7 M per token. No real model is downloaded.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { createCore, type Core } from '../../electron/core/create-core';
import { startWebHost, type WebHost } from '../../electron/server/web-host';
import { writeTinyEmbeddingModel } from '../../test/fakes/tiny-onnx-model';
import { fmt, type SuiteResult } from '../harness';
import { importFile } from '../import-file';

const PROBE_INTERVAL_MS = 20;

/**
 * The probing client, as plain JavaScript for a worker thread: POST /rpc/queue.status every interval on keep-alive
 * connections until told to stop, then post back every latency (ms) and the number of failed calls.
 */
const PROBE_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, token, intervalMs } = workerData;
const agent = new http.Agent({ keepAlive: true });
const target = new URL('/rpc/queue.status', url);
const latencies = [];
let failures = 0;
let inFlight = 0;
let stopping = false;
function probe() {
  const t0 = performance.now();
  inFlight++;
  const req = http.request(target, { method: 'POST', agent, headers: { authorization: 'Bearer ' + token, origin: url, 'content-type': 'application/json' } }, (res) => {
    res.resume();
    res.on('end', () => { latencies.push(performance.now() - t0); done(res.statusCode !== 200); });
  });
  req.on('error', () => done(true));
  req.end('{}');
}
function done(failed) {
  if (failed) failures++;
  inFlight--;
  if (stopping && inFlight === 0) finish();
}
function finish() {
  agent.destroy();
  parentPort.postMessage({ latencies, failures });
}
const timer = setInterval(probe, intervalMs);
parentPort.on('message', () => { stopping = true; clearInterval(timer); if (inFlight === 0) finish(); });
`;

interface ProbeResult {
  latencies: number[];
  failures: number;
}

/** Starts probing `host`; the returned function stops it and resolves with what was measured. */
function startProbe(host: WebHost): () => Promise<ProbeResult> {
  const worker = new Worker(PROBE_SOURCE, { eval: true, workerData: { url: host.url, token: host.token, intervalMs: PROBE_INTERVAL_MS } });
  const result = new Promise<ProbeResult>((resolve, reject) => {
    worker.once('message', (m: ProbeResult) => resolve(m));
    worker.once('error', reject);
  });
  return async () => {
    worker.postMessage('stop');
    const r = await result;
    await worker.terminate();
    return r;
  };
}

/** One RPC call over HTTP from this thread, as the browser's client makes it. */
function rpc(host: WebHost, name: string, input: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(`/rpc/${name}`, host.url), {
      method: 'POST',
      headers: { authorization: `Bearer ${host.token}`, origin: host.url, 'content-type': 'application/json' },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const envelope = JSON.parse(body) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
        if (envelope.ok) resolve(envelope.value);
        else reject(new Error(`${name}: ${envelope.error?.code} ${envelope.error?.message}`));
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(input));
  });
}

interface Measured {
  probe: ProbeResult;
  workMs: number;
  /** The longest the host's event loop was held, from a 10 ms-resolution delay histogram. */
  maxBlockMs: number;
}

/** Runs `work` while probing; the loop-delay histogram covers exactly the work. */
async function measure(host: WebHost, work: () => Promise<unknown>): Promise<Measured> {
  const stop = startProbe(host);
  await new Promise((r) => setTimeout(r, 200)); // the probe's worker is up and its connections open
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const t0 = performance.now();
  await work();
  const workMs = performance.now() - t0;
  lag.disable();
  return { probe: await stop(), workMs, maxBlockMs: lag.max / 1e6 };
}

type Thread = 'in-process' | 'worker';

export async function responsivenessBench(memories: number): Promise<SuiteResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-responsive-'));
  const modelsDir = path.join(dir, 'models');
  const staticDir = path.join(dir, 'static');
  fs.mkdirSync(staticDir);
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Mnemo</title>');
  const content = importFile(memories);
  const rows: SuiteResult['rows'] = [];
  const notes: string[] = [];
  const models = [
    { label: 'tiny model', name: 'mnemo-bench/tiny', computeBlocks: 0 },
    { label: 'e5-small-cost model', name: 'mnemo-bench/e5-small-cost', computeBlocks: 6 },
  ];
  try {
    for (const m of models) await writeTinyEmbeddingModel(modelsDir, { dims: 384, modelName: m.name, computeBlocks: m.computeBlocks });

    let run = 0;
    /** A core on a fresh data folder with the settings' embedding model set to `model`, behind the real web host. */
    const withHost = async <T>(model: string, thread: Thread, body: (host: WebHost, core: Core) => Promise<T>): Promise<T> => {
      const dataDir = path.join(dir, `data-${run++}`);
      const core = createCore({ dataDir, host: 'web', paths: { modelsDir }, embeddingThread: thread, startQueue: true, dailyTasks: false });
      const host = await startWebHost({ core, port: 0, staticDir });
      try {
        await rpc(host, 'settings.update', { patch: { embeddingProvider: 'onnx', embeddingModel: model } });
        return await body(host, core);
      } finally {
        await host.close();
        await core.dispose();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    };
    /** Waits for the settings' model switch (it runs after settings.update answers) to settle. */
    const ready = async (host: WebHost, model: string, want: boolean) => {
      for (let i = 0; i < 600; i++) {
        const status = (await rpc(host, 'embedding.status', {})) as { state: string; modelId: string | null };
        if (status.modelId === `onnx:${model}` && status.state !== 'loading') {
          if ((status.state === 'ready') !== want) throw new Error(`bench: embedding is ${JSON.stringify(status)}, expected ${want ? 'ready' : 'off'}`);
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`bench: the embedding model did not switch to ${model}`);
    };
    const importAll = async (host: WebHost) => {
      const report = (await rpc(host, 'memory.import', { content, onConflict: 'skip' })) as { written: number };
      if (report.written !== memories) throw new Error(`bench: imported ${report.written} of ${memories}`);
    };

    // Floor: the same probe, the same host, nothing running.
    const floor = await withHost(models[0]!.name, 'worker', async (host) => {
      await ready(host, models[0]!.name, true);
      return measure(host, () => new Promise((r) => setTimeout(r, 3000)));
    });
    rows.push(row('nothing (floor)', '-', '-', floor));

    for (const m of models) {
      const p99s: Record<Thread, Record<string, number>> = { 'in-process': {}, worker: {} };
      for (const thread of ['in-process', 'worker'] as const) {
        const results = p99s[thread];
        await withHost(m.name, thread, async (host) => {
          await ready(host, m.name, true);
          const imported = await measure(host, () => importAll(host));
          rows.push(row(`import ${memories.toLocaleString('en')}`, m.label, thread, imported));
          results.import = p99(imported);

          const maintained = await measure(host, () => rpc(host, 'memory.maintain', {}));
          rows.push(row('maintenance run', m.label, thread, maintained));
          results.maintenance = p99(maintained);

          const backedUp = await measure(host, () => rpc(host, 'db.backup', {}));
          rows.push(row('manual backup', m.label, thread, backedUp));
          results.backup = p99(backedUp);
        });
        // Re-embed: memories saved while the model was not installed get their vectors once it is chosen.
        await withHost('mnemo-bench/not-installed', thread, async (host, core) => {
          await ready(host, 'mnemo-bench/not-installed', false);
          await importAll(host);
          const reembedded = await measure(host, async () => {
            await rpc(host, 'settings.update', { patch: { embeddingModel: m.name } });
            await waitForReembed(core);
          });
          rows.push(row(`re-embed ${memories.toLocaleString('en')}`, m.label, thread, reembedded));
          results['re-embed'] = p99(reembedded);
        });
      }
      for (const work of Object.keys(p99s.worker)) {
        const before = p99s['in-process'][work]!;
        const after = p99s.worker[work]!;
        notes.push(`${m.label}, ${work}: p99 ${fmt(before)} ms in-process, ${fmt(after)} ms with the worker (${(before / Math.max(after, 0.001)).toFixed(1)}x); floor ${fmt(p99(floor))} ms`);
      }
    }
    notes.push(`load average while running (1/5/15 min): ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} on ${os.cpus().length} cores`);
    notes.push(`probe: POST /rpc/queue.status every ${PROBE_INTERVAL_MS} ms on keep-alive connections from a worker thread (open loop); "failed" counts resets and non-200 answers`);
    notes.push('max block: the longest the host thread was held (10 ms-resolution loop-delay histogram); goal (issue 11): p99 < 250 ms during the import');
    return { suite: `Web host responsiveness during long work (${memories.toLocaleString('en')} memories, local ONNX embedding, 384 dims)`, rows, notes };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function p99(m: Measured): number {
  const s = [...m.probe.latencies].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(0.99 * s.length))] ?? 0;
}

function row(work: string, model: string, thread: string, m: Measured): Record<string, string | number> {
  const s = [...m.probe.latencies].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return {
    work,
    model,
    embedding: thread,
    calls: s.length,
    failed: m.probe.failures,
    'p50 ms': fmt(at(0.5)),
    'p95 ms': fmt(at(0.95)),
    'p99 ms': fmt(at(0.99)),
    'max ms': fmt(s.at(-1) ?? 0),
    'max block ms': fmt(m.maxBlockMs),
    'work s': (m.workMs / 1000).toFixed(1),
  };
}

/** The re-embed job runs in the queue; done when no memory lacks a vector of the current model. */
async function waitForReembed(core: Core): Promise<void> {
  const deadline = Date.now() + 30 * 60_000;
  while (Date.now() < deadline) {
    await core.queue.waitForIdle();
    const stats = await core.call('memory.stats', {});
    if (!stats.ok) throw new Error(stats.error.message);
    const vectors = (stats.value as { vectors: { present: number; missing: number } }).vectors;
    if (vectors.missing === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('bench: the re-embed did not finish within 30 minutes');
}
