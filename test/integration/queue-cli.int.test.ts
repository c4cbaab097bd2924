/**
 * `queue status` in the terminal tells the truth about a pause, although its process never ran the queue: a pause
 * the last `queue run` hit (the model is missing) is shown with its time until a run gets past it; Ollama not
 * answering this terminal is this terminal's view, never the shared queue's pause, and says whether the app asks the
 * same address. The terminal host in this process (run.ts), a fake Ollama on loopback.
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

  it('the app learns from its OLLAMA_HOST, this terminal reaches none: not paused, said as this terminal\'s view', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { fake, env } = await withWaitingJobs(); // the app's Ollama (fake) answers
    const closed = await startFakeOllama();
    await closed.close(); // the address this shell's OLLAMA_HOST names: nothing listens

    const text = await cli(['queue', 'status'], { ...env, OLLAMA_HOST: closed.url });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/queued\s+[1-9]/);
    expect(text.stdout).toContain('paused   no');
    expect(text.stdout).toContain(`model    not reachable from this terminal: Cannot reach Ollama at ${closed.url}. Start it with "ollama serve" or set OLLAMA_HOST.`);
    expect(text.stdout).toContain("This terminal's address comes from its OLLAMA_HOST; the app reads its own OLLAMA_HOST and may reach Ollama elsewhere.");
    const json = JSON.parse((await cli(['queue', 'status', '--json'], { ...env, OLLAMA_HOST: closed.url })).stdout);
    expect(json).toMatchObject({ paused: null, unreachableHere: { code: 'OLLAMA_UNREACHABLE' } });

    // The terminal asking the app's address sees what the app sees.
    const same = await cli(['queue', 'status'], env);
    expect(same.stdout).toContain('paused   no');
    expect(same.stdout).not.toContain('not reachable');
    expect(fake.url).not.toBe(closed.url);
  });

  it('Ollama at the address in the data folder\'s settings down: not reachable from here, and the app asks the same address', { timeout: TEST_TIMEOUT_MS }, async () => {
    const { fake, env } = await withWaitingJobs();
    const set = await cli(['settings', 'set', 'ollamaHost', fake.url], env);
    expect(set.code, set.stderr).toBe(0);
    await fake.stop();

    const text = await cli(['queue', 'status'], { ...env, OLLAMA_HOST: '' });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('paused   no');
    expect(text.stdout).toContain(`not reachable from this terminal: Cannot reach Ollama at ${fake.url}.`);
    expect(text.stdout).toContain("The app asks the same address (this data folder's settings), so learning waits until the server answers.");

    await fake.restart();
    const back = await cli(['queue', 'status', '--json'], env);
    expect(JSON.parse(back.stdout)).toMatchObject({ paused: null, queued: expect.any(Number) });
    expect(JSON.parse(back.stdout)).not.toHaveProperty('unreachableHere');
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
