/**
 * A process for the import-atomicity test: opens the real core on a data folder and imports the text file given, then
 * exits 0. It reports on stdout when the import starts, each progress event, and when it is done, so the parent can
 * kill it with SIGKILL while it plans (embedding in slices) or while it writes. Fake only at the process edge: the
 * bag-of-words embedder.
 */
import fs from 'node:fs';
import { createCore } from '../../electron/core/create-core';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';

const [dataDir, file] = process.argv.slice(2);
if (!dataDir || !file) throw new Error('usage: import-child <dataDir> <file>');
const core = createCore({ dataDir, host: 'test', embedder: createBagOfWordsEmbedder({ dimensions: 256 }), startQueue: false });
core.subscribe((m) => {
  if (m.event === 'import.progressed') process.stdout.write(`progress ${m.payload.done}/${m.payload.total}\n`);
});
process.stdout.write('started\n');
const result = await core.call('memory.import', { content: fs.readFileSync(file, 'utf8') });
await core.dispose();
if (!result.ok) {
  process.stderr.write(`import failed: ${result.error.code}\n`);
  process.exit(2);
}
process.stdout.write('done\n');
process.exit(0);
