/**
 * `npm run bench [-- --only NAME[,NAME...]] [-- --quick]`: every suite measures Mnemo beside a baseline in the same run and
 * prints ratios. Record figures with this command in docs/BENCHMARKS.md.
 */
import { parseArgs } from 'node:util';
import { machine, printTable, type SuiteResult } from './harness';
import { cliStartupBench } from './suites/cli-startup.bench';
import { eventLoopBench } from './suites/event-loop.bench';
import { extractionQualityRealBench } from './suites/extraction-quality-real.bench';
import { forgetBench } from './suites/forget.bench';
import { importBench } from './suites/import.bench';
import { instructionDetectorBench } from './suites/instruction-detector.bench';
import { locomoRetrievalBench } from './suites/locomo-retrieval.bench';
import { mcpBench } from './suites/mcp.bench';
import { modelLaneBench } from './suites/model-lane.bench';
import { promptBench } from './suites/prompt.bench';
import { queueBench } from './suites/queue.bench';
import { responsivenessBench } from './suites/responsiveness.bench';
import { retrievalBench } from './suites/retrieval.bench';
import { retrievalQualityBench } from './suites/retrieval-quality.bench';
import { uiBench } from './suites/ui.bench';

const { values } = parseArgs({ options: { only: { type: 'string' }, quick: { type: 'boolean', default: false } } });
const quick = values.quick ?? false;

/** A suite answers one table, or several measured in the same run (retrieval-quality: keyword, then real model). */
const suites: Record<string, () => Promise<SuiteResult | SuiteResult[]>> = {
  queue: () => queueBench(quick ? 1_000 : 10_000),
  'event-loop': () => eventLoopBench(quick ? 50 : 500),
  import: () => importBench(quick ? 1_000 : 10_000),
  retrieval: () => retrievalBench(quick ? [1_000, 30_000] : [1_000, 10_000, 30_000, 100_000], quick ? 50 : 200),
  'retrieval-quality': () => retrievalQualityBench(),
  locomo: () => locomoRetrievalBench(),
  'extraction-quality-real': () => extractionQualityRealBench(),
  'instruction-detector': () => instructionDetectorBench(),
  forget: () => forgetBench(quick ? 3 : 10),
  prompt: () => promptBench(quick ? 10_000 : 100_000, quick ? 2_000 : 10_000, quick ? 50 : 200),
  ui: () => uiBench(quick ? 10_000 : 100_000, 1_000, quick ? 5 : 15),
  responsiveness: () => responsivenessBench(quick ? 500 : 3_000),
  'cli-startup': () => cliStartupBench(10_000, quick ? 5 : 20),
  mcp: () => mcpBench(quick ? 10_000 : 100_000, quick ? 50 : 200),
  'model-lane': () => modelLaneBench(quick ? { threads: 2, timeScale: 40 } : { threads: 4, timeScale: 20 }),
};

console.log(`# Mnemo benchmarks\n\nmachine: ${machine()}${quick ? '\nmode: --quick (smaller sizes)' : ''}`);
for (const [name, run] of Object.entries(suites)) {
  if (values.only && !values.only.split(',').includes(name)) continue;
  for (const result of [await run()].flat()) printTable(result);
}
