import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestClock, openMemoryHarness } from '../support/memory-harness';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

describe('export, import, maintenance and backups in the terminal host', () => {
  const tempDir = useTempDirs();

  /** The CLI's core with an empty models folder (no embedding model, so keyword-only mode), run in the data folder. */
  function cliIn(dir: string) {
    return (...args: string[]) => runCliInProcess([...args, '--data-dir', dir], { MNEMO_MODELS_DIR: path.join(dir, 'no-models') }, { cwd: dir });
  }

  it('exports to a file or stdout, imports with a dry run first, and maintains', async () => {
    const dir = tempDir();
    const cli = cliIn(dir);
    expect((await cli('memory', 'add', '我每天早上喝咖啡', '--category', 'preference', '--pin')).code).toBe(0);
    expect((await cli('memory', 'add', 'Works on a birdhouse', '--category', 'project', '--importance', '0.7')).code).toBe(0);

    const md = await cli('memory', 'export', '--format', 'md', '--out', 'profile.md');
    expect(md.code, md.stderr).toBe(0);
    expect(md.stdout.trim()).toBe(`Exported 2 memories to ${path.join(dir, 'profile.md')}.`);
    expect(fs.readFileSync(path.join(dir, 'profile.md'), 'utf8')).toContain('## Preferences\n\n- 我每天早上喝咖啡 _(pinned · importance 0.50)_');

    const json = await cli('memory', 'export');
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ format: 'mnemo.memories', count: 2, memories: [{ content: '我每天早上喝咖啡' }, { content: 'Works on a birdhouse' }] });

    fs.writeFileSync(path.join(dir, 'other-assistant.txt'), 'Here is what I remember about you:\n1. Works on a birdhouse.\n2. Has a cat named 小白\n3. ok\n');
    const dry = await cli('memory', 'import', 'other-assistant.txt', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Dry run: nothing was written.');
    expect(dry.stdout).toContain('new 1 · duplicate 1 · conflict 0 · invalid 1');
    expect(dry.stdout).toMatch(/line 3 +new +Has a cat named 小白/);
    expect(dry.stdout).toContain('exact text only (semantic search is off');

    const real = await cli('memory', 'import', 'other-assistant.txt', '--json');
    expect(real.code, real.stderr).toBe(0);
    expect(JSON.parse(real.stdout)).toMatchObject({ dryRun: false, written: 1, items: [{ outcome: 'duplicate' }, { outcome: 'new', content: 'Has a cat named 小白' }, { outcome: 'invalid' }] });
    expect(JSON.parse((await cli('memory', 'list', '--json')).stdout)).toMatchObject({ total: 3 });

    // A second data folder from the JSON export: the same memories.
    fs.writeFileSync(path.join(dir, 'export.json'), json.stdout);
    const other = tempDir();
    const cli2 = cliIn(other);
    const imported = await cli2('memory', 'import', path.join(dir, 'export.json'));
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toContain('Imported 2 memories');
    expect(JSON.parse((await cli2('memory', 'list', '--pinned', '--json')).stdout)).toMatchObject({ total: 1, items: [{ content: '我每天早上喝咖啡', category: 'preference' }] });

    const maintained = await cli('memory', 'maintain');
    expect(maintained.code, maintained.stderr).toBe(0);
    expect(maintained.stdout).toMatch(/^merged +0 +\(not checked: semantic search is off\)$/m);
    expect(maintained.stdout).toMatch(/^decayed +0$/m);
    expect(maintained.stdout).toMatch(/^summaries +0 queued, 0 written since the last run$/m);
    // Not a terminal: no progress bar (cli-progress.int.test.ts shows the one a terminal gets).
    expect(maintained.stderr).toBe('');
    expect(maintained.stdout).not.toMatch(/\r|maintaining/);

    for (const args of [
      ['memory', 'import', 'missing.txt'],
      ['memory', 'import'],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
    // A value the contract does not accept is a wrong command line: exit 2, what is accepted, and which help to read.
    for (const args of [
      ['memory', 'export', '--format', 'pdf'],
      ['memory', 'import', 'other-assistant.txt', '--on-conflict', 'maybe'],
    ]) {
      const r = await cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(/^mnemo: --(format|on-conflict) must be one of .*\nSee "mnemo memory (export|import) --help"\.\n$/);
    }
  }, 300_000); // a dozen command lines, each opening a core: slow on a loaded machine

  it('backs up, lists, and restores over a database that no longer opens', { timeout: 300_000 }, async () => {
    const dir = tempDir();
    const cli = cliIn(dir);
    expect((await cli('memory', 'add', 'Lives in Lisbon')).code).toBe(0);
    const backup = await cli('db', 'backup', '--json');
    expect(backup.code, backup.stderr).toBe(0);
    const info = JSON.parse(backup.stdout) as { name: string; path: string };
    expect((await cli('db', 'backups')).stdout).toMatch(new RegExp(`manual .* ${info.name.replace(/[.]/g, '\\.')}`));

    // A file that is not a database is refused, and nothing is staged.
    fs.writeFileSync(path.join(dir, 'junk.sqlite'), 'not a database at all '.repeat(100));
    const junk = await cli('db', 'restore', 'junk.sqlite');
    expect(junk.code).toBe(1);
    expect(junk.stderr.trim()).toBe('mnemo: junk.sqlite cannot be restored: it is not a database file. Nothing was changed.');
    expect(fs.readdirSync(dir).filter((f) => f.includes('restore'))).toEqual([]);

    // The live database is damaged: every other command refuses it, restore still works.
    const live = path.join(dir, 'mnemo.db');
    const damaged = Buffer.from('this is no longer a sqlite file '.repeat(200));
    fs.writeFileSync(live, damaged);
    expect((await cli('db', 'check')).stderr).toMatch(/cannot read its database .*db restore FILE/);
    const restored = await cli('db', 'restore', info.name);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/^Restored mnemo-.*\.sqlite \(1 memory, schema \d{4}_\w+\)\.\nThe database it replaced is kept at .*pre-restore-\d+\.sqlite\.$/m);
    expect(JSON.parse((await cli('memory', 'list', '--json')).stdout)).toMatchObject({ total: 1, items: [{ content: 'Lives in Lisbon' }] });
    const kept = fs.readdirSync(path.join(dir, 'backups')).find((f) => f.startsWith('pre-restore-'))!;
    expect(fs.readFileSync(path.join(dir, 'backups', kept))).toEqual(damaged);
  });

  it('an import past the cap says, dry run first, that imported memories never count, and what the next maintenance will trash', async () => {
    const dir = tempDir();
    // A cap of 100 and 103 memories Mnemo learned on its own, set up before the CLI opens the folder.
    const h = openMemoryHarness(dir, { embedder: null, clock: createTestClock(Date.now()) });
    h.settings.update({ activeMemoryCap: 100 });
    for (let i = 0; i < 103; i++) h.memories.createMemory({ content: `Learned fact number ${i}`, category: 'knowledge' }, { origin: 'extraction' });
    await h.close();
    const cli = cliIn(dir);
    fs.writeFileSync(path.join(dir, 'facts.txt'), Array.from({ length: 60 }, (_, i) => `- Imported fact number ${i}`).join('\n'));

    const dry = await cli('memory', 'import', 'facts.txt', '--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      'After this import you will have 163 memories active, more than the cap of 100. The cap counts only what Mnemo learned on its own (103 now): imported memories never count and are never trashed for it.',
    );
    expect(dry.stdout).toContain(
      'Mnemo learned 3 memories more than the cap allows: the next maintenance moves its 3 least useful learned ones to the trash, where "memory restore ID" brings one back within 30 days.',
    );

    const real = await cli('memory', 'import', 'facts.txt');
    expect(real.code, real.stderr).toBe(0);
    expect(real.stdout).toContain('You now have 163 memories active, more than the cap of 100.');

    const maintained = await cli('memory', 'maintain');
    expect(maintained.code, maintained.stderr).toBe(0);
    expect(maintained.stdout).toMatch(/^trashed \(cap\) +3 +\(learned memories beyond the cap, least useful first\)$/m);
    expect(maintained.stdout).toMatch(/^cap +100 learned of 100 allowed; 160 active \(what you wrote, edited, pinned, approved or imported never counts\)$/m);
    expect(JSON.parse((await cli('memory', 'list', '--status', 'trashed', '--json')).stdout)).toMatchObject({ total: 3 });
    expect(JSON.parse((await cli('memory', 'list', 'Imported', '--json')).stdout)).toMatchObject({ total: 60 });

    // Back at the cap for learned memories: one more import still goes past the cap, and trashes nothing.
    fs.writeFileSync(path.join(dir, 'one.txt'), '- Keeps bees on the roof\n');
    const one = (await cli('memory', 'import', 'one.txt', '--dry-run')).stdout;
    expect(one).toContain('After this import you will have 161 memories active, more than the cap of 100.');
    expect(one).toContain('Nothing will be moved to the trash for the cap.');
  }, 300_000);
});
