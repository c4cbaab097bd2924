/**
 * A worker process for the crash-safety test: opens the real core on a data folder and drains the queue, then exits 0.
 * The parent kills it with SIGKILL at random moments and starts it again until it exits on its own.
 * Fakes only at the process edge: Ollama is the parent's fake server (OLLAMA_HOST), the embedder the bag-of-words port.
 */
import { createCore } from '../../electron/core/create-core';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: crash-child <dataDir>');
const core = createCore({
  dataDir,
  host: 'test',
  llm: (host) => createOllamaLlm({ host }),
  embedder: createBagOfWordsEmbedder({ dimensions: 512 }),
});
process.stdout.write('started\n');
await core.queue.waitForIdle();
const state = core.queue.state();
await core.dispose();
// Paused (Ollama unreachable) also counts as idle for waitForIdle: that is not a drained queue.
if (state.paused) {
  process.stderr.write(`queue paused: ${state.paused.code}\n`);
  process.exit(3);
}
process.stdout.write('drained\n');
process.exit(0);
