import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

describe('memory commands in the terminal host', () => {
  const tempDir = useTempDirs();

  /** The CLI's core with an empty models folder: no embedding model, so keyword-only mode. */
  function cliIn(dir: string) {
    return (...args: string[]) => runCliInProcess([...args, '--data-dir', dir], { MNEMO_MODELS_DIR: path.join(dir, 'no-models') });
  }

  // Each test runs a dozen or more command lines, each opening a core: slow on a loaded 2-core machine.
  it('add, list, search, edit, show, revert, delete, restore, purge and stats, keyword-only', { timeout: 300_000 }, async () => {
    const cli = cliIn(tempDir());
    const added = await cli('memory', 'add', '我每天早上喝咖啡, then tea', '--category', 'preference', '--importance', '0.8', '--pin', '--json');
    expect(added.code, added.stderr).toBe(0);
    const memory = JSON.parse(added.stdout) as { id: number; category: string; importance: number; pinned: boolean; embeddingModel: string | null };
    expect(memory).toMatchObject({ category: 'preference', importance: 0.8, pinned: true, embeddingModel: null });
    expect((await cli('memory', 'add', 'Works on a birdhouse', '--category', 'project', '--expires', '2099-01-01')).code).toBe(0);

    const listed = JSON.parse((await cli('memory', 'list', '--pinned', '--json')).stdout) as { items: Array<{ id: number }>; total: number };
    expect(listed).toMatchObject({ total: 1, items: [{ id: memory.id }] });

    const search = await cli('memory', 'search', '咖啡');
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('我每天早上喝咖啡');
    expect(search.stdout).toContain('keyword only');

    expect((await cli('memory', 'edit', String(memory.id), '--content', 'Drinks tea in the evening', '--unpin')).code).toBe(0);
    const shown = await cli('memory', 'show', String(memory.id));
    expect(shown.stdout).toMatch(/v1 .*user\/created .*我每天早上喝咖啡/);
    expect(shown.stdout).toMatch(/v2 .*user\/edited .*Drinks tea in the evening/);

    expect((await cli('memory', 'revert', String(memory.id), '1')).stdout).toContain('我每天早上喝咖啡');
    expect((await cli('memory', 'delete', String(memory.id))).stdout).toContain('trash');
    expect(JSON.parse((await cli('memory', 'list', '--status', 'trashed', '--json')).stdout)).toMatchObject({ total: 1 });
    expect((await cli('memory', 'restore', String(memory.id))).code).toBe(0);
    expect((await cli('memory', 'purge', String(memory.id))).code).toBe(0);

    const stats = await cli('memory', 'stats');
    expect(stats.code, stats.stderr).toBe(0);
    expect(stats.stdout).toMatch(/^memories\s+1$/m);
    expect(stats.stdout).toMatch(/semantic search: off \(model_missing\)/);
  });

  it('bad input and missing memories: exit 1 and one line; a value the contract refuses: exit 2', { timeout: 300_000 }, async () => {
    const cli = cliIn(tempDir());
    for (const args of [
      ['memory', 'show', '77'],
      ['memory', 'show', 'abc'],
      ['memory', 'add', 'x', '--expires', 'next week'],
      ['memory', 'revert', '1'],
      ['memory', 'edit', '1'],
      ['memory', 'search'],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).toMatch(/^mnemo: /);
    }
    // A value the contract does not accept is a wrong command line: exit 2, the reason, and where to read more.
    for (const args of [
      ['memory', 'add', 'x', '--importance', '1.5'],
      ['memory', 'add', 'x', '--category', 'hobby'],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^mnemo: --(importance|category) must be .*\nSee "mnemo memory add --help"\.\n$/);
    }
    expect((await cli('memory', 'add', 'Lives in Lisbon')).code).toBe(0);
    const dup = await cli('memory', 'add', 'lives in lisbon.');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/already have this memory \(#1/);
  });
});
