/**
 * run(argv, io), the terminal host without a process: a run leaves the process as it found it. Whatever it opened on
 * the data folder (the database, its WAL and shared-memory files) is closed when it returns, failed or not; it writes
 * only to the streams it was given, sets no exit code and leaves no Ctrl-C listener behind. That is what lets the
 * CLI tests run command lines in the test's own process (test/support/run-cli.ts runCliInProcess).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

/** The files under `dir` this process holds open (Linux: /proc/self/fd). */
function openFilesUnder(dir: string): string[] {
  const held: string[] = [];
  for (const fd of fs.readdirSync('/proc/self/fd')) {
    try {
      const target = fs.readlinkSync(path.join('/proc/self/fd', fd));
      if (target.startsWith(dir + path.sep)) held.push(target);
    } catch {
      // The fd closed while listed (readdir's own one).
    }
  }
  return held;
}

describe.runIf(process.platform === 'linux')('run(argv, io) leaves the process as it found it', () => {
  const tempDir = useTempDirs();
  afterEach(() => void vi.restoreAllMocks());

  it('closes the database it opened, after a success and after a failure, and writes only to its own streams', { timeout: 120_000 }, async () => {
    const dir = fs.realpathSync(tempDir());
    const stdout = vi.spyOn(process.stdout, 'write');
    const stderr = vi.spyOn(process.stderr, 'write');
    const sigint = process.listenerCount('SIGINT');
    const exitCode = process.exitCode;

    const added = await runCliInProcess(['memory', 'add', 'Keeps bees', '--data-dir', dir], { MNEMO_MODELS_DIR: path.join(dir, 'no-models') });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(/Keeps bees/);
    expect(openFilesUnder(dir)).toEqual([]);

    const missing = await runCliInProcess(['memory', 'show', '999', '--data-dir', dir], { MNEMO_MODELS_DIR: path.join(dir, 'no-models') });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^mnemo: .*999/);
    expect(openFilesUnder(dir)).toEqual([]);

    const wrong = await runCliInProcess(['memory', 'show', '--data-dir', dir, '--no-such-flag']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^mnemo: /);

    expect(stdout).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
    expect(process.listenerCount('SIGINT')).toBe(sigint);
    expect(process.exitCode).toBe(exitCode);
  });
});
