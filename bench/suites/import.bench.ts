/**
 * Import throughput without embedding (no embedder: vectors come later in the background), for a text file of N lines
 * (English and Chinese, under category headings), through the real operation: contract validation, parsing, hashing,
 * the duplicate lookup per line, then one transaction writing each memory with its version, timeline event and FTS
 * entry. Beside it in the same run: the dry run (everything but the write), and the baseline, a plain INSERT of the
 * same rows (content, hash, category) into `memories` in one transaction, on the same database settings, with the
 * hashes computed beforehand.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCore } from '../../electron/core/create-core';
import { openDatabase, sourceMigrationsDir } from '../../electron/core/db/open-database';
import { contentHash } from '../../electron/core/memory/content-hash';
import { parseTextImport } from '../../electron/core/memory/import-parse';
import { fmt, type SuiteResult } from '../harness';
import { importFile } from '../import-file';


export async function importBench(lines: number): Promise<SuiteResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-import-'));
  const content = importFile(lines);
  try {
    // Mnemo: the dry run, then the real import, each in its own fresh data folder.
    const run = async (name: string, dryRun: boolean) => {
      const core = createCore({ dataDir: path.join(dir, name), host: 'cli', embedder: null, startQueue: false });
      try {
        const t0 = performance.now();
        const r = await core.call('memory.import', { content, dryRun });
        const ms = performance.now() - t0;
        if (!r.ok) throw new Error(`import bench: ${r.error.code} ${r.error.message}`);
        const report = r.value as { new: number; written: number };
        if (report.new !== lines || report.written !== (dryRun ? 0 : lines)) throw new Error(`import bench: ${report.new} new, ${report.written} written of ${lines}`);
        return ms;
      } finally {
        await core.dispose();
      }
    };
    const dryMs = await run('dry', true);
    const mnemoMs = await run('real', false);

    // Baseline: the same rows, plain INSERTs, one transaction.
    const rows = parseTextImport(content, 'knowledge').map((i) => ({ content: i.content, hash: contentHash(i.content), category: i.category ?? 'knowledge' }));
    const base = openDatabase(path.join(dir, 'base.db'), { migrationsDir: sourceMigrationsDir() });
    const insert = base.sqlite.prepare('INSERT INTO memories (content, content_hash, category, created_at, updated_at) VALUES (?, ?, ?, ?, ?)');
    const t1 = performance.now();
    base.sqlite.transaction(() => {
      const at = Date.now();
      for (const r of rows) insert.run(r.content, r.hash, r.category, at, at);
    })();
    const baseMs = performance.now() - t1;
    base.close();

    const perSecond = (ms: number) => Math.round((lines / ms) * 1000);
    return {
      suite: `Import throughput (${lines.toLocaleString('en')} text lines, no embedding)`,
      rows: [
        { variant: 'Mnemo memory.import (versions, events, FTS, one transaction)', 'total ms': fmt(mnemoMs), 'memories/s': perSecond(mnemoMs) },
        { variant: 'Mnemo memory.import dry run (parse, hash, duplicate lookups)', 'total ms': fmt(dryMs), 'memories/s': perSecond(dryMs) },
        { variant: 'baseline: plain INSERT of the same rows, one transaction', 'total ms': fmt(baseMs), 'memories/s': perSecond(baseMs) },
      ],
      notes: [`ratio Mnemo import / baseline: ${(mnemoMs / baseMs).toFixed(2)}x`, `of which planning (the dry run): ${((dryMs / mnemoMs) * 100).toFixed(0)}%`],
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
