import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeOllama } from '../fakes/fake-ollama';
import { runCli as cliAsync } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

const ROOT = path.resolve(import.meta.dirname, '../..');

function cli(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts'), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('terminal host', () => {
  const tempDir = useTempDirs();

  it('db check --json prints integrity, journal mode, synchronous, foreign keys and the schema version', () => {
    const dir = tempDir();
    const r = cli(['db', 'check', '--json', '--data-dir', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      integrity: 'ok',
      journalMode: 'wal',
      synchronous: 'FULL',
      foreignKeys: true,
      schemaVersion: expect.stringMatching(/^\d{4}_/),
      path: path.join(dir, 'mnemo.db'),
    });
  });

  it('takes the data folder from MNEMO_DATA_DIR', () => {
    const dir = tempDir();
    const r = cli(['db', 'check'], { MNEMO_DATA_DIR: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/integrity\s+ok/);
    expect(fs.existsSync(path.join(dir, 'mnemo.db'))).toBe(true);
  });

  it('a corrupt database: exit 1 with one line that says what to do, file untouched', () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    fs.writeFileSync(file, 'not a database at all, but precious'.repeat(200));
    const before = fs.readFileSync(file);
    const r = cli(['db', 'check', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot read its database .* Restore a backup/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('settings get/set/reset: keys from the contract, values validated as in the app, mistakes exit 2 with a suggestion', { timeout: 300_000 }, () => {
    const dir = tempDir();
    const run = (...args: string[]) => cli(['settings', ...args, '--data-dir', dir]);
    const all = run('get');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^retrieval\.limit\s+12 {2}\(default\)$/m);
    expect(all.stdout).toMatch(/^contextWindowTokens\s+8192 {2}\(default\)$/m);

    expect(run('set', 'contextWindowTokens', '16384')).toMatchObject({ code: 0, stdout: 'contextWindowTokens = 16384\n' });
    expect(run('set', 'timeZone', 'asia/shanghai').stdout).toBe('timeZone = Asia/Shanghai\n');
    const one = run('get', 'contextWindowTokens', '--json');
    expect(JSON.parse(one.stdout)).toBe(16384);
    expect(run('get').stdout).toMatch(/^contextWindowTokens\s+16384$/m);

    // The contract's own rule refuses it: the operation failed (1), nothing changed.
    const refused = run('set', 'contextWindowTokens', '1000');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The context window must be at least 2048 tokens');
    // The command line is wrong: 2, with the nearest key or the type the setting takes.
    const typo = run('set', 'retreival.limit', '8');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean "retrieval.limit"?');
    const notNumber = run('set', 'retrieval.limit', 'eight');
    expect(notNumber.code).toBe(2);
    expect(notNumber.stderr).toContain('retrieval.limit takes a number; "eight" is not one.');
    expect(run('set', 'retrieval.limit').code).toBe(2);

    expect(run('reset', 'contextWindowTokens').stdout).toBe('contextWindowTokens = 8192 (default)\n');
    expect(JSON.parse(run('get', '--json').stdout)).toMatchObject({ contextWindowTokens: 8192, timeZone: 'Asia/Shanghai', retrieval: { limit: 12 } });
  });

  it('usage errors exit 2', () => {
    expect(cli(['no', 'such', '--data-dir', tempDir()]).code).toBe(2);
    expect(cli(['db', 'check', '--data-dir']).code).toBe(2);
  });
});


describe('terminal host: chat, threads, models, queue', () => {
  const tempDir = useTempDirs();

  it('chat streams the reply; --json prints thread_id, message_id, reply, memories_used; thread list/show see it', async () => {
    const fake = await startFakeOllama();
    try {
      const dir = tempDir();
      const env = { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: dir };
      fake.script({ content: 'Bonjour! How can I help?' });
      const plain = await cliAsync(['chat', 'Hello', 'there'], env);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout.trim()).toBe('Bonjour! How can I help?');

      fake.script({ content: 'Second answer.' });
      const json = await cliAsync(['chat', '--thread', '1', '--json', 'and again'], env);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({ thread_id: 1, message_id: 4, reply: 'Second answer.', status: 'complete', memories_used: [], forgets: [], searches: [] });

      const list = await cliAsync(['thread', 'list', '--json'], env);
      expect(JSON.parse(list.stdout)).toMatchObject([{ id: 1, messageCount: 4 }]);
      const show = await cliAsync(['thread', 'show', '1'], env);
      expect(show.stdout).toContain('Bonjour! How can I help?');
      expect(show.stdout).toContain('and again');

      const models = await cliAsync(['models'], env);
      expect(models.code).toBe(0);
      expect(models.stdout).toContain('llama3.2:latest');

      const queued = await cliAsync(['queue', 'status', '--json'], env);
      expect(JSON.parse(queued.stdout)).toMatchObject({ queued: 4, running: null }); // extract x2 + title + one working-memory update for both exchanges
      fake.setDefaultReply({ content: 'A title' });
      const run = await cliAsync(['queue', 'run', '--until-idle'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/running\s+-/);
    } finally {
      await fake.close();
    }
  });

  it('Ollama unreachable: exit 1 with one line naming the host', async () => {
    const fake = await startFakeOllama();
    await fake.close();
    const r = await cliAsync(['chat', 'hello?'], { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: tempDir() });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(fake.url);
    const models = await cliAsync(['models'], { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: tempDir() });
    expect(models.code).toBe(1);
    expect(models.stderr).toContain(fake.url);
  });
});
