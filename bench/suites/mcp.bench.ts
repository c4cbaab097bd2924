/**
 * `search_memory` over MCP beside the same search in-process, on the benchmarks' memory fixture (N memories written
 * through the product's write path). Rows, interleaved query by query so machine load falls on each alike:
 * - in-process: the core's MCP tool called directly (core.mcpTools.searchMemory: consent, search, access log);
 * - MCP in memory: the same server `mnemo mcp` runs (cli/mcp-server.ts) over the SDK's in-memory transport:
 *   what the protocol (JSON-RPC, schema checks, result text) adds;
 * - MCP over stdio: `mnemo mcp` as an app runs it, a child process driven by the SDK's client.
 * All three search by keyword: the child has no embedding model, so the in-process rows have none either (vector
 * search is the retrieval suite's). Each call also records the access log and its timeline event, as in use.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createCore } from '../../electron/core/create-core';
import { createMcpServer } from '../../electron/cli/mcp-server';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { fmt, summarize, type SuiteResult } from '../harness';
import { memoryFixture } from '../memory-fixture';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLIENT = 'bench';

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export async function mcpBench(memories: number, calls: number): Promise<SuiteResult> {
  const { buildCli } = (await import(path.join(ROOT, 'scripts', 'build-cli.mjs'))) as { buildCli(root: string): Promise<string> };
  await buildCli(ROOT);
  const fixture = await memoryFixture(memories);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mnemo-bench-mcp-'));
  fs.copyFileSync(fixture.file, path.join(dataDir, 'mnemo.db'));
  const core = createCore({ dataDir, host: 'test', embedder: null, startQueue: false, paths: { modelsDir: path.join(dataDir, 'no-models') } });
  const { server } = createMcpServer({ tools: core.mcpTools, version: 'bench', logger: silentLogger });
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const inMemory = new Client({ name: CLIENT, version: '1' });
  await inMemory.connect(clientSide);
  const stdio = new Client({ name: CLIENT, version: '1' });
  await stdio.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [path.join(ROOT, 'scripts', 'mnemo.mjs'), 'mcp', '--data-dir', dataDir],
      env: { ...(process.env as Record<string, string>), MNEMO_MODELS_DIR: path.join(dataDir, 'no-models') },
      stderr: 'ignore',
    }),
  );
  try {
    const queries = fixture.queries.map((q) => q.text);
    const args = (i: number) => ({ query: queries[i % queries.length]!, limit: 10 });
    const rows = {
      inProcess: [] as number[],
      inMemory: [] as number[],
      stdio: [] as number[],
    };
    const run = {
      inProcess: (i: number) => core.mcpTools.searchMemory(CLIENT, args(i)),
      inMemory: (i: number) => inMemory.callTool({ name: 'search_memory', arguments: args(i) }),
      stdio: (i: number) => stdio.callTool({ name: 'search_memory', arguments: args(i) }),
    };
    // The same answer by every path (a check that the rows measure the same work), and a warm cache.
    const sample = await stdio.callTool({ name: 'search_memory', arguments: args(0) });
    if (sample.isError) throw new Error(`mcp bench: search_memory failed over stdio: ${JSON.stringify(sample.content)}`);
    const direct = (await run.inProcess(0)).text;
    if (JSON.stringify(sample.content).length < direct.length / 2) throw new Error('mcp bench: stdio answered less than the in-process call');
    for (let i = 0; i < 5; i++) for (const k of Object.keys(run) as Array<keyof typeof run>) await run[k](i);
    for (let i = 0; i < calls; i++) for (const k of Object.keys(run) as Array<keyof typeof run>) rows[k].push(await timed(() => run[k](i)));
    const base = summarize(rows.inProcess);
    const label = { inProcess: 'in-process (core.mcpTools.searchMemory)', inMemory: 'MCP, in-memory transport (same server)', stdio: 'MCP over stdio (mnemo mcp, child process)' };
    return {
      suite: `MCP: search_memory on ${memories.toLocaleString('en')} memories, keyword search, limit 10`,
      rows: (Object.keys(rows) as Array<keyof typeof rows>).map((k) => {
        const s = summarize(rows[k]);
        return { path: label[k], calls: s.n, 'p50 ms': fmt(s.p50), 'mean ms': fmt(s.mean), 'p95 ms': fmt(s.p95), 'x in-process (p50)': (s.p50 / base.p50).toFixed(2) };
      }),
      notes: ['each call also writes the access log and one timeline event', 'calls interleaved across the three paths'],
    };
  } finally {
    await stdio.close();
    await inMemory.close();
    await server.close();
    await core.dispose();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
