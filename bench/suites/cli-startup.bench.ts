/**
 * How long `mnemo memory stats` takes on a database of N memories, from process start to exit, beside the floor:
 * `node -e ''` (starting Node and doing nothing), measured in the same run, interleaved run by run so machine load
 * falls on both alike. Rows: the floor; `mnemo` (the launcher, scripts/mnemo.mjs: staleness check, then the bundle);
 * the bundle alone (out/cli/main.js); and the terminal host as it ran before the bundle (tsx compiling TypeScript
 * on each start), fewer times. The database is the benchmarks' memory fixture, written through the product's own
 * write path.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt, summarize, type SuiteResult } from '../harness';
import { memoryFixture } from '../memory-fixture';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function timeRun(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`cli-startup bench: node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

export async function cliStartupBench(memories: number, runs: number): Promise<SuiteResult> {
  const { buildCli } = (await import(path.join(ROOT, 'scripts', 'build-cli.mjs'))) as { buildCli(root: string): Promise<string> };
  const bundle = await buildCli(ROOT);
  const fixture = await memoryFixture(memories);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-cli-'));
  try {
    fs.copyFileSync(fixture.file, path.join(dataDir, 'mnemo.db'));
    const stats = ['memory', 'stats', '--data-dir', dataDir];
    const commands = {
      floor: ['-e', ''],
      mnemo: [path.join(ROOT, 'scripts', 'mnemo.mjs'), ...stats],
      bundle: [bundle, ...stats],
      tsx: ['--import', 'tsx', path.join(ROOT, 'electron', 'cli', 'main.ts'), ...stats],
    };
    const check = spawnSync(process.execPath, [bundle, ...stats, '--json'], { encoding: 'utf8' });
    const total = (JSON.parse(check.stdout) as { total: number }).total;
    if (total !== memories) throw new Error(`cli-startup bench: memory stats counted ${total} of ${memories}`);

    const samples: Record<keyof typeof commands, number[]> = { floor: [], mnemo: [], bundle: [], tsx: [] };
    for (const args of Object.values(commands)) timeRun(args); // warm the file cache once each
    const tsxRuns = Math.max(3, Math.round(runs / 5));
    for (let i = 0; i < runs; i++) {
      samples.floor.push(timeRun(commands.floor));
      samples.mnemo.push(timeRun(commands.mnemo));
      samples.bundle.push(timeRun(commands.bundle));
      if (i < tsxRuns) samples.tsx.push(timeRun(commands.tsx));
    }
    const floor = summarize(samples.floor);
    const label = {
      floor: "node -e ''",
      mnemo: 'mnemo memory stats (launcher + bundle)',
      bundle: 'node out/cli/main.js memory stats',
      tsx: 'before: tsx electron/cli/main.ts memory stats',
    };
    const rows = (Object.keys(commands) as Array<keyof typeof commands>).map((k) => {
      const s = summarize(samples[k]);
      return { command: label[k], runs: s.n, 'p50 ms': fmt(s.p50), 'mean ms': fmt(s.mean), 'p95 ms': fmt(s.p95), 'x floor (p50)': (s.p50 / floor.p50).toFixed(2) };
    });
    return {
      suite: `CLI start-up: memory stats on ${memories.toLocaleString('en')} memories (wall time, process start to exit)`,
      rows,
      notes: [
        `target: under 400 ms wall for mnemo memory stats (p50 here ${fmt(summarize(samples.mnemo).p50)} ms)`,
        'each run is a new process; runs are interleaved so machine load falls on every row alike',
      ],
    };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
