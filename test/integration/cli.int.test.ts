import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakeOllama } from '../fakes/fake-ollama';
import { runCliInProcess as cli } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

describe('terminal host', () => {
  const tempDir = useTempDirs();

  it('db check --json prints integrity, journal mode, synchronous, foreign keys and the schema version', async () => {
    const dir = tempDir();
    const r = await cli(['db', 'check', '--json', '--data-dir', dir]);
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

  it('takes the data folder from MNEMO_DATA_DIR', async () => {
    const dir = tempDir();
    const r = await cli(['db', 'check'], { MNEMO_DATA_DIR: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/integrity\s+ok/);
    expect(fs.existsSync(path.join(dir, 'mnemo.db'))).toBe(true);
  });

  it('a corrupt database: exit 1 with one line that says what to do, file untouched', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'mnemo.db');
    fs.writeFileSync(file, 'not a database at all, but precious'.repeat(200));
    const before = fs.readFileSync(file);
    const r = await cli(['db', 'check', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot read its database .* Restore a backup/);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  it('settings get/set/reset: keys from the contract, values validated as in the app, mistakes exit 2 with a suggestion', { timeout: 300_000 }, async () => {
    const dir = tempDir();
    const run = (...args: string[]) => cli(['settings', ...args, '--data-dir', dir]);
    const all = await run('get');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^retrieval\.limit\s+12 {2}\(default\)$/m);
    expect(all.stdout).toMatch(/^contextWindowTokens\s+8192 {2}\(default\)$/m);

    expect(await run('set', 'contextWindowTokens', '16384')).toMatchObject({ code: 0, stdout: 'contextWindowTokens = 16384\n' });
    expect((await run('set', 'timeZone', 'asia/shanghai')).stdout).toBe('timeZone = Asia/Shanghai\n');
    const one = await run('get', 'contextWindowTokens', '--json');
    expect(JSON.parse(one.stdout)).toBe(16384);
    expect((await run('get')).stdout).toMatch(/^contextWindowTokens\s+16384$/m);

    // The contract's own rule refuses it: the operation failed (1), nothing changed.
    const refused = await run('set', 'contextWindowTokens', '1000');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The context window must be at least 2048 tokens');
    // The command line is wrong: 2, with the nearest key or the type the setting takes.
    const typo = await run('set', 'retreival.limit', '8');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean "retrieval.limit"?');
    const notNumber = await run('set', 'retrieval.limit', 'eight');
    expect(notNumber.code).toBe(2);
    expect(notNumber.stderr).toContain('retrieval.limit takes a number; "eight" is not one.');
    expect((await run('set', 'retrieval.limit')).code).toBe(2);

    expect((await run('reset', 'contextWindowTokens')).stdout).toBe('contextWindowTokens = 8192 (default)\n');
    expect(JSON.parse((await run('get', '--json')).stdout)).toMatchObject({ contextWindowTokens: 8192, timeZone: 'Asia/Shanghai', retrieval: { limit: 12 } });
  });

  it('usage errors exit 2', async () => {
    expect((await cli(['no', 'such', '--data-dir', tempDir()])).code).toBe(2);
    expect((await cli(['db', 'check', '--data-dir'])).code).toBe(2);
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
      const plain = await cli(['chat', 'Hello', 'there'], env);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).toBe('Bonjour! How can I help?\n'); // one line, ended, also in a pipe or a file

      fake.script({ content: 'Second answer.' });
      const json = await cli(['chat', '--thread', '1', '--json', 'and again'], env);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({ thread_id: 1, message_id: 4, reply: 'Second answer.', status: 'complete', memories_used: [], forgets: [], recalled_episodes: [], searches: [] });

      const list = await cli(['thread', 'list', '--json'], env);
      expect(JSON.parse(list.stdout)).toMatchObject([{ id: 1, messageCount: 4 }]);
      const show = await cli(['thread', 'show', '1'], env);
      expect(show.stdout).toContain('Bonjour! How can I help?');
      expect(show.stdout).toContain('and again');

      const models = await cli(['models'], env);
      expect(models.code).toBe(0);
      expect(models.stdout).toContain('llama3.2:latest');

      const queued = await cli(['queue', 'status', '--json'], env);
      expect(JSON.parse(queued.stdout)).toMatchObject({ queued: 5, running: null }); // extract x2 + title + a working-memory job per exchange
      fake.setDefaultReply({ content: 'A title' });
      const run = await cli(['queue', 'run', '--until-idle'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/running\s+-/);

      // A reply that ends its own line gets no second newline; one that starts with a blank line starts at its text.
      fake.script({ chunks: ['\n', 'Two lines:', '\nend.\n'] });
      const ended = await cli(['chat', '--incognito', 'Show me'], env);
      expect(ended.code, ended.stderr).toBe(0);
      expect(ended.stdout).toBe('Two lines:\nend.\n');
    } finally {
      await fake.close();
    }
  });

  it('Ollama unreachable: exit 1 with one line naming the host', async () => {
    const fake = await startFakeOllama();
    await fake.close();
    const r = await cli(['chat', 'hello?'], { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: tempDir() });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(fake.url);
    const models = await cli(['models'], { OLLAMA_HOST: fake.url, MNEMO_DATA_DIR: tempDir() });
    expect(models.code).toBe(1);
    expect(models.stderr).toContain(fake.url);
  });
});
