/**
 * Tiny benchmark harness: time a function many times, report percentiles. Every suite measures Mnemo beside a
 * baseline in the same process and run, so ratios are comparable even when the machine is not.
 */
import os from 'node:os';

export interface Stats {
  n: number;
  p50: number;
  p95: number;
  mean: number;
}

export function summarize(samplesMs: number[]): Stats {
  const s = [...samplesMs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0;
  return { n: s.length, p50: at(0.5), p95: at(0.95), mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length) };
}

export async function timeIt(iterations: number, fn: (i: number) => unknown | Promise<unknown>, warmup = Math.min(5, iterations)): Promise<Stats> {
  for (let i = 0; i < warmup; i++) await fn(i);
  const samples: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const t0 = performance.now();
    await fn(i);
    samples.push(performance.now() - t0);
  }
  return summarize(samples);
}

export function fmt(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
}

export function machine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.cpus().length} x ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
}

export interface SuiteResult {
  suite: string;
  rows: Array<Record<string, string | number>>;
  notes: string[];
}

export function printTable(result: SuiteResult): void {
  console.log(`\n## ${result.suite}`);
  // A table without rows is a suite that was skipped: its notes say why.
  if (result.rows.length === 0) {
    for (const n of result.notes) console.log(`- ${n}`);
    return;
  }
  const cols = Object.keys(result.rows[0]!);
  const widths = cols.map((c) => Math.max(c.length, ...result.rows.map((r) => String(r[c]).length)));
  const line = (vals: string[]) => '| ' + vals.map((v, i) => v.padEnd(widths[i]!)).join(' | ') + ' |';
  console.log(line(cols));
  console.log('|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|');
  for (const r of result.rows) console.log(line(cols.map((c) => String(r[c]))));
  for (const n of result.notes) console.log(`- ${n}`);
}
