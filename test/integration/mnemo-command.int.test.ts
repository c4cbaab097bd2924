/**
 * The `mnemo` command as people run it: the launcher (scripts/mnemo.mjs) and the bundle built ahead of time
 * (scripts/build-cli.mjs), real processes on a real data folder. Strict options, help, version, `mnemo info`, colours
 * and progress as a pipe sees them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { MemoryCategory, operations, type OperationName } from '../../shared/contract';
import { ROOT, runMnemo } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

// Each test starts several CLI processes (each opens a core): minutes on a loaded 2-core machine.
const TIMEOUT_MS = 300_000;
const BUNDLE = path.join(ROOT, 'out', 'cli', 'main.js');
const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

describe('the mnemo command', () => {
  const tempDir = useTempDirs();

  beforeAll(() => {
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-cli.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
  }, TIMEOUT_MS);

  it('is the package\'s "bin", and answers --version and --help', { timeout: TIMEOUT_MS }, async () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(path.resolve(ROOT, pkg.bin.mnemo!)).toBe(path.join(ROOT, 'scripts', 'mnemo.mjs'));

    const v = await runMnemo(['--version']);
    expect(v).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await runMnemo(['--help']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/^ {2}memory +add, list, search/m);
    expect(help.stdout).toContain('exit status: 0 done, 1 the operation failed');
    const group = await runMnemo(['memory', '--help']);
    expect(group.code).toBe(0);
    expect(group.stdout).toContain(`--category ${MemoryCategory.options.join('|')}`);
  });

  it('a misspelt option or a bad value is refused with exit 2 and a suggestion, and nothing is stored', { timeout: TIMEOUT_MS }, async () => {
    const dir = tempDir();
    const mnemo = (...args: string[]) => runMnemo([...args, '--data-dir', dir]);
    const typo = await mnemo('memory', 'add', 'Prefers tea', '--categroy', 'skill');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('mnemo: Unknown option --categroy. Did you mean --category?\nSee "mnemo memory add --help".\n');
    for (const args of [
      ['memory', 'add', 'Prefers tea', '--category', 'hobby'],
      ['memory', 'add', 'Prefers tea', '--importance', '1.5'],
      ['memory', 'list', '--limit', '0'],
      ['memory', 'stast'],
    ]) {
      const r = await mnemo(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
    }
    expect(JSON.parse((await mnemo('memory', 'list', '--status', 'active,archived,trashed,review', '--json')).stdout)).toMatchObject({ total: 0 });

    // Spelt right, it is stored as asked, through the bundle.
    const added = await mnemo('memory', 'add', 'Prefers tea', '--category', 'skill', '--json');
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ content: 'Prefers tea', category: 'skill' });
    expect(JSON.parse((await mnemo('memory', 'stats', '--json')).stdout)).toMatchObject({ total: 1, byCategory: { skill: 1 } });
  });

  it("--json prints exactly the contract's output of the operation behind the command", { timeout: TIMEOUT_MS }, async () => {
    const dir = tempDir();
    const cases: Array<[OperationName, string[]]> = [
      ['memory.create', ['memory', 'add', 'Prefers tea', '--category', 'preference']],
      ['memory.list', ['memory', 'list']],
      ['memory.search', ['memory', 'search', 'tea']],
      ['memory.stats', ['memory', 'stats']],
      ['db.check', ['db', 'check']],
      ['queue.status', ['queue', 'status']],
      ['settings.get', ['settings', 'get']],
      ['profile.get', ['profile', 'show']],
      ['thread.export', ['thread', 'export', '--format', 'json']],
    ];
    for (const [op, args] of cases) {
      const r = await runMnemo([...args, '--json', '--data-dir', dir], { MNEMO_MODELS_DIR: path.join(dir, 'no-models') });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      const printed = JSON.parse(r.stdout) as unknown;
      // Parsing strips keys the schema does not know: equal means nothing extra and nothing missing.
      expect(operations[op].output.parse(printed), args.join(' ')).toEqual(printed);
    }
  });

  it('info: the folders, versions and the model server, each with where it came from', { timeout: TIMEOUT_MS }, async () => {
    const dir = tempDir();
    const byOption = await runMnemo(['info', '--json', '--data-dir', dir], { OLLAMA_HOST: '' });
    expect(byOption.code, byOption.stderr).toBe(0);
    const info = JSON.parse(byOption.stdout);
    expect(info).toEqual({
      version,
      dataDir: { path: dir, source: 'option' },
      database: path.join(dir, 'mnemo.db'),
      models: path.join(dir, 'models'),
      backups: path.join(dir, 'backups'),
      logs: path.join(dir, 'logs'),
      schemaVersion: expect.stringMatching(/^\d{4}_/),
      versions: { mnemo: version, node: process.versions.node, sqlite: expect.stringMatching(/^3\.\d+\.\d+$/), sqliteVec: expect.stringMatching(/^\d+\.\d+\.\d+/) },
      llm: { provider: 'ollama', url: 'http://127.0.0.1:11434', source: 'default', apiKeySet: false },
    });

    const byEnv = JSON.parse((await runMnemo(['info', '--json'], { MNEMO_DATA_DIR: dir, OLLAMA_HOST: 'http://127.0.0.1:5555' })).stdout);
    expect(byEnv.dataDir).toEqual({ path: dir, source: 'environment' });
    expect(byEnv.llm).toMatchObject({ url: 'http://127.0.0.1:5555', source: 'environment' });

    expect((await runMnemo(['settings', 'set', 'ollamaHost', 'http://127.0.0.1:6666', '--data-dir', dir])).code).toBe(0);
    const text = await runMnemo(['info', '--data-dir', dir], { OLLAMA_HOST: 'http://127.0.0.1:5555' });
    expect(text.stdout).toMatch(/^data folder +\S+ {2}\(from --data-dir\)$/m);
    expect(text.stdout).toMatch(/^model server +Ollama at http:\/\/127\.0\.0\.1:6666 {2}\(from settings\)$/m);
    expect(text.stdout).toMatch(/^versions +Node \S+, SQLite \S+, sqlite-vec \S+$/m);
  });

  it('colours only when asked in a pipe (FORCE_COLOR), never with NO_COLOR; no progress in a pipe', { timeout: TIMEOUT_MS }, async () => {
    const dir = tempDir();
    const plain = await runMnemo(['memory', 'show', '99', '--data-dir', dir], { NO_COLOR: '', FORCE_COLOR: '' });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toMatch(/^mnemo: /);
    const forced = await runMnemo(['memory', 'show', '99', '--data-dir', dir], { FORCE_COLOR: '1' });
    expect(forced.stderr.startsWith('\x1b[31mmnemo:\x1b[39m ')).toBe(true);
    const noColor = await runMnemo(['info', '--data-dir', dir], { NO_COLOR: '1', FORCE_COLOR: '' });
    expect(noColor.stdout).not.toContain('\x1b[');

    const file = path.join(dir, 'import.txt');
    fs.writeFileSync(file, Array.from({ length: 300 }, (_, i) => `- Remembers fact number ${i}`).join('\n'));
    const imported = await runMnemo(['memory', 'import', file, '--data-dir', dir], { NO_COLOR: '1' });
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^Imported 300 memories/);
    expect(imported.stderr).toBe('');
  });

  it('rebuilds a stale bundle before running it', { timeout: TIMEOUT_MS }, async () => {
    const past = new Date('2000-01-01T00:00:00Z');
    fs.utimesSync(BUNDLE, past, past);
    const r = await runMnemo(['--version']);
    expect(r).toMatchObject({ code: 0, stdout: `${version}\n` });
    expect(fs.statSync(BUNDLE).mtimeMs).toBeGreaterThan(past.getTime() + 1000);
  });
});
