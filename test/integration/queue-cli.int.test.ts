/**
 * `queue status` in the terminal tells the truth about a pause, although its process never ran the queue: with
 * Ollama down and jobs waiting it says paused, why, and what to do; a pause the last `queue run` hit (the model is
 * missing) is shown with its time until a run gets past it. The terminal host in this process (run.ts), a fake Ollama on loopback.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';
import { runCliInProcess as cli } from '../support/run-cli';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';
import { isLearning } from '../support/request-kind';

/** Every test runs a few command lines, each opening a core: seconds on a loaded machine. */
const TEST_TIMEOUT_MS = 120_000;

/** Asynchronous, so the fake Ollama in this process keeps answering while the CLI runs. */

describe('queue status from the terminal', () => {
  const tempDir = useTempDirs();
  const fakes: FakeOllama[] = [];
  afterEach(async () => {
    for (const fake of fakes.splice(0)) await fake.close();
  });

  /** A data folder with one exchange whose learning (extraction, title) waits in the queue. */
  async function withWaitingJobs(): Promise<{ fake: FakeOllama; env: Record<string, string> }> {
    const fake = await startFakeOllama();
    fakes.push(fake);
    // Learning finds nothing worth keeping; a title is a title.
    fake.setDefaultReply((req) => ({ content: isLearning(req.purpose) ? '{"memories": []}' : 'Sailing' }));
    const dataDir = tempDir();
    const { core, client } = createTestCore(dataDir, { llm: (host) => createOllamaLlm({ host }), env: { OLLAMA_HOST: fake.url }, startQueue: false });
    try {
      unwrap(await client.call('chat.send', { text: 'I really love sailing on cold mornings.' }));
    } finally {
      await core.dispose();
    }
    return { fake, env: { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: dataDir } };
  }

  it('Ollama down while jobs wait: paused, with the reason and what to do; not paused once it is back', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { fake, env } = await withWaitingJobs();
    await fake.stop();

    const text = await cli(['queue', 'status'], env);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/queued\s+[1-9]/);
    expect(text.stdout).toContain(`paused   yes: Cannot reach Ollama at ${fake.url}. Start it with "ollama serve" or set OLLAMA_HOST.`);
    expect(text.stdout).toContain('Waiting jobs are kept. Once that is fixed the app resumes by itself; from the terminal run "queue run --until-idle".');
    const json = await cli(['queue', 'status', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ paused: { code: 'OLLAMA_UNREACHABLE' } });

    await fake.restart();
    const back = await cli(['queue', 'status', '--json'], env);
    expect(JSON.parse(back.stdout)).toMatchObject({ paused: null, queued: expect.any(Number) });
  });

  it('a pause the last run hit (model missing) shows, with its time, until a run gets past it', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { fake, env } = await withWaitingJobs();
    fake.setModels([{ name: 'nomic-embed-text', capabilities: ['embedding'] }]); // Ollama answers; llama3.2 is gone

    const run = await cli(['queue', 'run', '--until-idle'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Queue paused: Model "llama3.2" is not installed in Ollama.');

    const status = await cli(['queue', 'status'], env);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(/paused {3}yes \(since \d{4}-\d\d-\d\d \d\d:\d\d\): Model "llama3\.2" is not installed in Ollama\. Install it with "ollama pull llama3\.2"\./);

    fake.setModels([{ name: 'llama3.2' }, { name: 'nomic-embed-text', capabilities: ['embedding'] }]);
    const again = await cli(['queue', 'run', '--until-idle'], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/queued\s+0/);
    expect(again.stdout).toContain('paused   no');
  });
});
