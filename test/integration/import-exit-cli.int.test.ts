/**
 * `thread import` and `memory import` as scripts run them: an import that brings nothing in because the file's entries
 * are invalid exits 1 with one line saying so and what to do (the table with each entry's reason still on stdout); a
 * partial import, or one whose entries are all here already, exits 0. The terminal host in this process (run.ts) on a
 * real data folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { THREAD_EXPORT_FORMAT, THREAD_EXPORT_VERSION } from '../../shared/contract';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

// Each test runs several command lines, each opening a core: a minute or more on a loaded 2-core machine.
const TIMEOUT_MS = 300_000;

const validThread = {
  title: 'Tea',
  createdAt: 1_700_000_000_000,
  lastActivityAt: 1_700_000_060_000,
  messages: [
    { role: 'user', content: 'Which tea should I drink?', createdAt: 1_700_000_000_000 },
    { role: 'assistant', content: 'Green tea.', createdAt: 1_700_000_060_000 },
  ],
};
const invalidThreads = [
  { title: 'No messages at all', createdAt: 1_700_000_000_000, lastActivityAt: 1_700_000_000_000 },
  { ...validThread, title: 'A speaker nobody knows', messages: [{ role: 'narrator', content: 'Once…', createdAt: 1_700_000_000_000 }] },
];

function exportFile(dir: string, name: string, threads: unknown[]): string {
  const file = path.join(dir, name);
  const doc = { format: THREAD_EXPORT_FORMAT, version: THREAD_EXPORT_VERSION, exportedAt: '2024-01-01T00:00:00.000Z', app: { name: 'Mnemo', version: '1', schemaVersion: '1' }, count: threads.length, threads };
  fs.writeFileSync(file, JSON.stringify(doc));
  return file;
}

describe('an import that brings nothing in fails in the terminal', () => {
  const tempDir = useTempDirs();

  function setUp() {
    const dir = tempDir();
    const env = { MNEMO_DATA_DIR: path.join(dir, 'data'), MNEMO_MODELS_DIR: path.join(dir, 'no-models'), NO_COLOR: '1' };
    return { dir, mnemo: (args: string[]) => runCliInProcess(args, env) };
  }

  it('thread import: every thread invalid exits 1 (dry run too); a partial import and a repeated one exit 0', { timeout: TIMEOUT_MS }, async () => {
    const { dir, mnemo } = setUp();
    const allInvalid = exportFile(dir, 'all-invalid.json', invalidThreads);

    for (const args of [['thread', 'import', allInvalid], ['thread', 'import', allInvalid, '--dry-run']]) {
      const r = await mnemo(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr, args.join(' ')).toMatch(/^mnemo: Nothing (was|would be) imported: every thread in the file is invalid \(the list gives each one's reason\)\. Import a file written by "mnemo thread export --format json"[^\n]*\n$/);
      // The reasons stay on stdout, one line per thread.
      expect(r.stdout, args.join(' ')).toMatch(/^No messages at all +0 +invalid +\(messages: /m);
      expect(r.stdout, args.join(' ')).toMatch(/^A speaker nobody knows +\d+ +invalid +\(messages\.0\.role: /m);
    }
    const asJson = await mnemo(['thread', 'import', allInvalid, '--json']);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stdout)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_INPUT', message: expect.stringMatching(/^Nothing was imported/) },
      report: { written: 0, invalid: 2, items: [{ outcome: 'invalid' }, { outcome: 'invalid' }] },
    });
    expect(JSON.parse((await mnemo(['thread', 'list', '--json'])).stdout)).toEqual([]);

    // One good thread beside the bad ones: imported, the skipped ones listed, exit 0.
    const partial = exportFile(dir, 'partial.json', [validThread, ...invalidThreads]);
    const some = await mnemo(['thread', 'import', partial]);
    expect(some.code, some.stderr).toBe(0);
    expect(some.stdout).toMatch(/^Imported 1 thread\.\nnew 1 · duplicate 0 (.*) · invalid 2/);
    expect(some.stdout).toMatch(/^No messages at all +0 +invalid/m);

    // The good one again beside one bad one: nothing new, but the valid one is here already, and one is invalid.
    const again = await mnemo(['thread', 'import', exportFile(dir, 'again.json', [validThread, invalidThreads[0]])]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^mnemo: Nothing was imported: 1 thread in the file is invalid and the other one is already here /);
    // Only duplicates: importing the same good file twice is fine.
    const good = exportFile(dir, 'good.json', [validThread]);
    const twice = await mnemo(['thread', 'import', good]);
    expect(twice.code, twice.stderr).toBe(0);
    expect(twice.stdout).toMatch(/^Imported 0 threads\.\nnew 0 · duplicate 1/);
  });

  it('memory import follows the same rule: every line invalid exits 1, some imported exits 0', { timeout: TIMEOUT_MS }, async () => {
    const { dir, mnemo } = setUp();
    const bad = path.join(dir, 'bad.txt');
    fs.writeFileSync(bad, 'ok\nno\n');
    const none = await mnemo(['memory', 'import', bad]);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^mnemo: Nothing was imported: every memory in the file is invalid \(the list gives each one's reason\)\. A file holds one memory per line[^\n]*\n$/);
    expect(none.stdout).toMatch(/^line 1 +invalid +ok +\(too short to be a memory\)$/m);

    const mixed = path.join(dir, 'mixed.txt');
    fs.writeFileSync(mixed, 'Has a cat named 小白\nok\n');
    const some = await mnemo(['memory', 'import', mixed]);
    expect(some.code, some.stderr).toBe(0);
    expect(some.stdout).toMatch(/^Imported 1 memory\./);
  });
});
