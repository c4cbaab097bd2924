/**
 * `thread export|import`, `profile show|edit|refresh` and chat's matched words, as people run them: the terminal host
 * (in this process, run.ts) on real data folders, a fake Ollama on loopback for the replies and the profile's rewrite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { THREAD_EXPORT_FORMAT, operations } from '../../shared/contract';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

// Each test runs many command lines, each opening a core: a minute or more on a loaded 2-core machine.
const TIMEOUT_MS = 300_000;

describe('threads and the profile from the terminal', () => {
  const tempDir = useTempDirs();
  const fakes: FakeOllama[] = [];
  afterEach(async () => {
    for (const fake of fakes.splice(0)) await fake.close();
  });

  async function setUp() {
    const fake = await startFakeOllama();
    fakes.push(fake);
    const dir = tempDir();
    // No embedding model: retrieval is by keyword, whose receipts name the matched words.
    const env = { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: dir, MNEMO_MODELS_DIR: path.join(dir, 'no-models'), NO_COLOR: '1' };
    const mnemo = (args: string[], options: { stdin?: string; env?: Record<string, string> } = {}) => runCliInProcess(args, { ...env, ...options.env }, options);
    return { fake, dir, mnemo };
  }

  it('chat --json names the words each memory matched', { timeout: TIMEOUT_MS }, async () => {
    const { fake, mnemo } = await setUp();
    expect((await mnemo(['memory', 'add', 'Likes green tea in the morning'])).code).toBe(0);
    fake.script({ content: 'Green tea.' });
    const r = await mnemo(['chat', '--json', 'Which tea should I drink?']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { memories_used: Array<{ reason: string; matched?: string[] }> };
    expect(out.memories_used).toEqual([expect.objectContaining({ memory_id: 1, reason: 'keyword', matched: ['tea'] })]);
  });

  it('thread model / instructions set and show a thread’s own settings; thread context shows what the model saw', { timeout: TIMEOUT_MS }, async () => {
    const { fake, mnemo } = await setUp();
    fake.script({ content: 'Hi.' });
    expect((await mnemo(['chat', 'hello'])).code).toBe(0);

    expect((await mnemo(['thread', 'model', '1'])).stdout).toContain('answers with the default chat model (llama3.2)');
    const chosen = await mnemo(['thread', 'model', '1', 'qwen3:4b', '--json']);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(JSON.parse(chosen.stdout)).toMatchObject({ id: 1, model: 'qwen3:4b' });
    const missing = await mnemo(['thread', 'model', '1', 'no-such-model']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no-such-model/);
    expect((await mnemo(['thread', 'model', '1', '--default'])).stdout).toContain('default chat model');

    expect((await mnemo(['thread', 'instructions', '1'])).stdout).toContain('no instructions of its own');
    expect((await mnemo(['thread', 'instructions', '1', 'Answer', 'in', 'haiku.'])).code).toBe(0);
    expect((await mnemo(['thread', 'instructions', '1'])).stdout.trim()).toBe('Answer in haiku.');
    fake.script({ content: 'Autumn leaves.' });
    expect((await mnemo(['chat', '--thread', '1', 'a poem please'])).code).toBe(0);
    const system = (fake.requests.filter((r) => r.path === '/api/chat').at(-1)!.body as { messages: Array<{ content: string }> }).messages[0]!.content;
    expect(system).toContain('Answer in haiku.');
    expect((await mnemo(['thread', 'instructions', '1', '--clear'])).code).toBe(0);
    expect((await mnemo(['thread', 'instructions', '1', 'x', '--clear'])).code).toBe(1);

    const context = await mnemo(['thread', 'context', '4']);
    expect(context.code, context.stderr).toBe(0);
    expect(context.stdout).toMatch(/^llama3\.2, context window \d+ tokens/);
    expect(context.stdout).toMatch(/system text and instructions +\d+ +\d+/);
    expect(context.stdout).toContain('Answer in haiku.');
    const asJson = JSON.parse((await mnemo(['thread', 'context', '4', '--json'])).stdout) as { model: string; recent: { count: number } };
    expect(asJson).toMatchObject({ model: 'llama3.2', recent: { count: 2 } });
    expect((await mnemo(['thread', 'context', 'x'])).code).toBe(1);
    expect((await mnemo(['thread', 'model', '1', '--defualt'])).code).toBe(2);
  });

  it('thread export writes one thread or all, as Markdown or JSON; thread import reads the JSON back, once', { timeout: TIMEOUT_MS }, async () => {
    const { fake, dir, mnemo } = await setUp();
    fake.script({ content: '绿茶很好。Green tea is fine.' });
    expect((await mnemo(['chat', 'Which tea should I drink?'])).code).toBe(0);
    fake.script({ content: 'Rain is likely.' });
    expect((await mnemo(['chat', 'Will it rain?'])).code).toBe(0);

    // One thread, Markdown (the default), on stdout.
    const md = await mnemo(['thread', 'export', '1']);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout).toContain('Which tea should I drink?');
    expect(md.stdout).toContain('绿茶很好。Green tea is fine.');
    expect(md.stdout).not.toContain('Will it rain?');
    // --json without --out: the operation's own output.
    const asJson = await mnemo(['thread', 'export', '--json']);
    const printed = JSON.parse(asJson.stdout) as unknown;
    expect(operations['thread.export'].output.parse(printed)).toEqual(printed);
    expect(printed).toMatchObject({ count: 2, filename: expect.stringMatching(/\.md$/) });

    // All threads as JSON to a file: says where, and --json says {file, count, format}.
    const file = path.join(dir, 'threads.json');
    const written = await mnemo(['thread', 'export', '--format', 'json', '--out', file, '--json']);
    expect(written.code, written.stderr).toBe(0);
    expect(JSON.parse(written.stdout)).toEqual({ file, count: 2, format: 'json' });
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ format: THREAD_EXPORT_FORMAT, count: 2 });
    const said = await mnemo(['thread', 'export', '2', '--out', path.join(dir, 'rain.md')]);
    expect(said.stdout).toBe(`Exported 1 thread to ${path.join(dir, 'rain.md')}.\n`);

    // Into another data folder: a dry run writes nothing, the import writes both, a second import skips both.
    const other = { env: { MNEMO_DATA_DIR: tempDir() } };
    const dry = await mnemo(['thread', 'import', file, '--dry-run'], other);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^Dry run: nothing was written\.\nnew 2 · duplicate 0/);
    expect(dry.stdout).toMatch(/^title +messages +outcome$/m);
    expect(dry.stdout).toMatch(/ {7}2 {2}new$/m);
    expect(JSON.parse((await mnemo(['thread', 'list', '--json'], other)).stdout)).toEqual([]);

    const real = await mnemo(['thread', 'import', file], other);
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toMatch(/^Imported 2 threads\./);
    expect(real.stdout).toMatch(/ {7}2 {2}new -> #\d+$/m);
    expect(JSON.parse((await mnemo(['thread', 'list', '--json'], other)).stdout)).toHaveLength(2);

    const again = await mnemo(['thread', 'import', file, '--json'], other);
    const report = JSON.parse(again.stdout) as unknown;
    expect(operations['thread.import'].output.parse(report)).toEqual(report);
    expect(report).toMatchObject({ dryRun: false, new: 0, duplicate: 2, written: 0 });

    // Wrong input: a usage error for a format the contract does not know, clear failures for the rest.
    expect((await mnemo(['thread', 'export', '--format', 'html'])).code).toBe(2);
    const missing = await mnemo(['thread', 'export', '99']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^mnemo: .*99/);
    const noFile = await mnemo(['thread', 'import', path.join(dir, 'nope.json')]);
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain('Cannot read');
  });

  it('profile: none yet says how to make one; edit from stdin or a file, empty clears; refresh --wait runs the job and shows it', { timeout: TIMEOUT_MS }, async () => {
    const { fake, dir, mnemo } = await setUp();
    const none = await mnemo(['profile', 'show']);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toContain('No profile yet.');
    expect(none.stdout).toContain('"mnemo profile refresh --wait" writes one now');
    expect(JSON.parse((await mnemo(['profile', 'show', '--json'])).stdout)).toBeNull();

    const edited = await mnemo(['profile', 'edit'], { stdin: '## Name\n- Ana\n' });
    expect(edited.code, edited.stderr).toBe(0);
    expect(edited.stdout).toBe('Profile saved. Later refreshes build on your text.\n');
    expect(JSON.parse((await mnemo(['profile', 'show', '--json'])).stdout)).toMatchObject({ content: '## Name\n- Ana', editedByUser: true });
    const shown = await mnemo(['profile', 'show']);
    // Then what of it reaches the model (profile.get's fit, the prompt's own rule).
    expect(shown.stdout).toMatch(/^## Name\n- Ana\n\n\(written or edited by you\)\n\(all of it goes into every prompt: about \d+ of the \d+ tokens it may take with llama3\.2\)\n$/);

    const file = path.join(dir, 'profile.md');
    fs.writeFileSync(file, '## Name\n- Ana (call me Annie)\n');
    expect((await mnemo(['profile', 'edit', '--file', file])).code).toBe(0);
    expect((await mnemo(['profile', 'show'])).stdout).toContain('- Ana (call me Annie)');

    const cleared = await mnemo(['profile', 'edit'], { stdin: '' });
    expect(cleared.stdout).toBe('Profile cleared. The next refresh writes a new one from your memories.\n');
    expect(JSON.parse((await mnemo(['profile', 'show', '--json'])).stdout)).toBeNull();

    // The background model rewrites it from the memories, in this process, and the result is shown.
    fake.setDefaultReply((req) => {
      return req.purpose === 'profile' ? { content: '## Location\n- Porto' } : { content: '{"memories": []}' };
    });
    expect((await mnemo(['memory', 'add', 'Lives in Porto'])).code).toBe(0);
    const queued = await mnemo(['profile', 'refresh']);
    expect(queued.stdout).toMatch(/^Profile refresh queued \(job \d+\)\./);
    const refreshed = await mnemo(['profile', 'refresh', '--wait']);
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.stdout).toMatch(/^## Location\n- Porto\n\n\(rewritten from 1 memory at \d{4}-\d\d-\d\d \d\d:\d\d\)\n\(all of it goes into every prompt: about \d+ of the \d+ tokens it may take with llama3\.2\)\n$/);

    // Off: refused with what to do.
    expect((await mnemo(['settings', 'set', 'profileEnabled', 'false'])).code).toBe(0);
    const off = await mnemo(['profile', 'refresh']);
    expect(off.code).toBe(1);
    expect(off.stderr).toContain('The profile is turned off.');
  });
});
