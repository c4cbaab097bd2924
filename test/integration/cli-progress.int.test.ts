/**
 * The progress bars of `memory maintain` and `models pull` as a terminal sees them: the commands run against a real
 * core, with the bar drawn by terminal.ts into a stream that says it is a TTY. (In a pipe the CLI gets no bar at all:
 * terminal.ts decides, cli-terminal.test.ts tests the decision, the CLI process tests check the streams.)
 */
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { Core } from '../../electron/core/create-core';
import type { CliContext } from '../../electron/cli/cli-command';
import { commands } from '../../electron/cli/commands';
import { findCommand } from '../../electron/cli/parse';
import { createProgressBar, paint } from '../../electron/cli/terminal';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { startFakeOllama } from '../fakes/fake-ollama';
import { createTestClock } from '../support/memory-harness';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

/** "Erase to the end of the line", after each redraw. */
const ERASE = '\x1b[K';

describe('progress bars on a terminal', () => {
  const tempDir = useTempDirs();
  const open: Core[] = [];
  afterEach(async () => {
    for (const core of open.splice(0)) await core.dispose();
  });

  /** Runs a command line's words as main.ts does, with stderr a 100-column terminal whose writes are kept. */
  async function runOnTerminal(core: Core, client: Client, words: string[]) {
    const found = findCommand(commands, words);
    if (!found || !found.command.run) throw new Error(`no command ${words.join(' ')}`);
    const stderr: string[] = [];
    const terminal = { isTTY: true, columns: 100, write: (t: string) => stderr.push(t) };
    const ctx: CliContext = {
      client,
      core,
      args: found.args,
      flags: {},
      json: false,
      io: { stdout: terminal, stderr: terminal, stdin: Readable.from([]), env: {}, cwd: process.cwd(), onInterrupt: () => () => {} },
      write: () => {},
      note: () => {},
      progress: (label) => createProgressBar(terminal, label),
      paint: paint(false),
      timeZone: 'UTC',
      localTime: (at) => new Date(at).toISOString(),
    };
    const out = await found.command.run(ctx);
    // Each redraw: "\r<line>\x1b[K"; the end: "\r\x1b[K".
    const lines = stderr.filter((t) => t !== `\r${ERASE}`).map((t) => t.replace(/^\r/, '').replace(ERASE, ''));
    return { out, stderr, lines };
  }

  it('memory maintain draws each step, the merge step from 0 to all checked, and clears the bar', { timeout: 120_000 }, async () => {
    const { core, client } = createTestCore(tempDir(), { startQueue: false, embedder: createBagOfWordsEmbedder(), clock: createTestClock() });
    open.push(core);
    for (let i = 0; i < 60; i++) unwrap(await client.call('memory.create', { content: `w${i}alpha w${i}beta w${i}gamma` }));
    const { out, stderr, lines } = await runOnTerminal(core, client, ['memory', 'maintain']);
    expect(out).toMatchObject({ ok: true, value: { merged: 0, mergeChecked: true } });
    expect(lines.map((l) => l.replace(/\s+/g, ' '))).toEqual([
      'maintaining [##############################] 100% marking expired 0/0',
      'maintaining [------------------------------] 0% checking for near-duplicates 0/60',
      'maintaining [##############################] 100% checking for near-duplicates 60/60',
      'maintaining [##############################] 100% decaying 0/0',
      'maintaining [##############################] 100% applying the cap 0/0',
      'maintaining [##############################] 100% emptying old trash 0/0',
    ]);
    expect(stderr.at(-1)).toBe('\r\x1b[K');
  });

  it('models pull draws Ollama\'s layers with their bytes, and clears the bar', { timeout: 120_000 }, async () => {
    const fake = await startFakeOllama({ models: [] });
    try {
      const { core, client } = createTestCore(tempDir(), { startQueue: false, embedder: null });
      open.push(core);
      unwrap(await client.call('settings.update', { patch: { ollamaHost: fake.url } }));
      const { out, stderr, lines } = await runOnTerminal(core, client, ['models', 'pull', 'qwen2.5:3b']);
      expect(out).toMatchObject({ ok: true, value: { name: 'qwen2.5:3b', started: true, status: 'success' } });
      expect(lines[0]).toMatch(/^pulling \[-+\] +0% {2}pulling manifest$/);
      expect(lines).toContainEqual(expect.stringMatching(/^pulling \[#+-+\] +50% {2}pulling [0-9a-f]{12} {2}962\.9 MB \/ 1925\.8 MB$/));
      // A line without bytes (the digest check) keeps the share of the layer before it.
      expect(lines).toContainEqual(expect.stringMatching(/^pulling \[#+\] 100% {2}verifying sha256 digest$/));
      expect(stderr.at(-1)).toBe('\r\x1b[K');
    } finally {
      await fake.close();
    }
  });
});
