/**
 * A missing or empty mnemo.db beside good backups is not a fresh install (issue: it was recreated without a word, and
 * its daily empty backups then pushed the good ones out). Real SQLite files, a real core, the real CLI and web host.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { MnemoError } from '../../shared/errors';
import { backupName } from '../../electron/core/backup/backup.service';
import { inspectDatabaseFile } from '../../electron/core/db/inspect-database-file';
import type { Core } from '../../electron/core/create-core';
import { sourceMigrationsDir } from '../../electron/core/db/open-database';
import { createTestClock } from '../support/memory-harness';
import { memoriesIn } from '../support/memories-in-file';
import { runCliInProcess as cli } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

const ROOT = path.resolve(import.meta.dirname, '../..');
const JAN_1 = Date.UTC(2026, 0, 1);

/** The web host as a process (it serves until stopped; here it must exit at once). */
function run(entry: string, args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, entry), ...args], { cwd: ROOT, encoding: 'utf8', env: process.env, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under a folder with a hash of its bytes. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  }
  return out;
}


describe('a missing or empty database beside good backups', () => {
  const tempDir = useTempDirs();
  const open: Core[] = [];
  afterEach(async () => {
    for (const core of open.splice(0)) await core.dispose();
  });
  function start(dir: string, options: Parameters<typeof createTestCore>[1] = {}) {
    const started = createTestCore(dir, { startQueue: false, embedder: null, clock: createTestClock(Date.UTC(2026, 0, 5)), ...options });
    open.push(started.core);
    return started;
  }

  /** A data folder that held three memories and a manual backup of them (2026-01-01), then lost its database. */
  async function lostDatabase(): Promise<{ dir: string; dbFile: string; backup: string }> {
    const dir = tempDir();
    const { core, client } = createTestCore(dir, { startQueue: false, embedder: null, clock: createTestClock(JAN_1) });
    try {
      for (const content of ['Prefers green tea', 'Lives in Lyon', '喜欢爬山']) unwrap(await client.call('memory.create', { content }));
      const backup = unwrap(await client.call('db.backup', {})).path;
      const dbFile = path.join(dir, 'mnemo.db');
      await core.dispose();
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbFile + suffix, { force: true });
      return { dir, dbFile, backup };
    } catch (e) {
      await core.dispose();
      throw e;
    }
  }

  function expectMissing(dir: string): MnemoError {
    try {
      start(dir);
    } catch (e) {
      expect(e).toBeInstanceOf(MnemoError);
      expect((e as MnemoError).code).toBe('DB_MISSING');
      return e as MnemoError;
    }
    throw new Error('expected DB_MISSING');
  }

  it('a deleted database: refused with DB_MISSING naming the newest good backup and both ways out; nothing created or changed', async () => {
    const { dir, dbFile, backup } = await lostDatabase();
    const before = snapshot(dir);
    const error = expectMissing(dir);
    expect(error.message).toContain(`Mnemo's database at ${dbFile} is missing`);
    expect(error.message).toContain(`${path.basename(backup)} from 2026-01-01 00:00 UTC (3 memories, 0 messages,`);
    expect(error.message).toContain(`db restore --latest --data-dir ${JSON.stringify(dir)}`);
    expect(error.message).toContain(`db start-empty --data-dir ${JSON.stringify(dir)}`);
    expect(error.details).toMatchObject({ state: 'missing', backup: { path: backup, memories: 3, messages: 0, createdAt: JAN_1 } });
    expect(fs.existsSync(dbFile)).toBe(false);
    expect(snapshot(dir)).toEqual(before);
  });

  it('a 0-byte database: refused the same way, and the file is left as it is', async () => {
    const { dir, dbFile } = await lostDatabase();
    fs.writeFileSync(dbFile, '');
    expect(expectMissing(dir).message).toContain('is empty (0 bytes)');
    expect(fs.statSync(dbFile).size).toBe(0);
  });

  it('a first start stays silent: no backups folder, or one holding only empty or damaged copies', async () => {
    const fresh = tempDir();
    start(fresh);
    expect(fs.existsSync(path.join(fresh, 'mnemo.db'))).toBe(true);

    const { dir, backup } = await lostDatabase();
    // An empty database's copy, and a damaged copy of a good one: neither worth offering.
    const empty = tempDir();
    const e = start(empty);
    const emptyBackup = unwrap(await e.client.call('db.backup', {})).path;
    fs.copyFileSync(emptyBackup, path.join(dir, 'backups', backupName('automatic', JAN_1 + 1000)));
    const bytes = fs.readFileSync(backup);
    bytes.fill(0xa5, 2 * 4096, bytes.length - 4096);
    fs.writeFileSync(backup, bytes);
    const { client } = start(dir);
    expect(unwrap(await client.call('memory.list', {})).total).toBe(0);
  });

  it('"restore newest": the newest copy that verifies and holds something, past a newer damaged one and a newer empty one', async () => {
    const { dir, backup } = await lostDatabase();
    const backups = path.join(dir, 'backups');
    // An older good copy with less in it: not the newest.
    const older = path.join(backups, backupName('manual', JAN_1 - 86_400_000));
    fs.copyFileSync(backup, older);
    const db = new Database(older);
    db.exec('DELETE FROM memory_versions; DELETE FROM memories_fts; DELETE FROM memories');
    db.prepare("INSERT INTO memories (content, content_hash, category, created_at, updated_at) VALUES ('Older only', 'h', 'preference', 1, 1)").run();
    db.close();
    // Newer, but damaged.
    const damaged = Buffer.from(fs.readFileSync(backup));
    damaged.fill(0x5a, 2 * 4096, damaged.length - 4096);
    fs.writeFileSync(path.join(backups, backupName('manual', JAN_1 + 2000)), damaged);
    expect(() => inspectDatabaseFile(path.join(backups, backupName('manual', JAN_1 + 2000)), sourceMigrationsDir())).toThrow(/it is damaged/);
    // Newer, but empty (kept aside by rotation).
    const empty = start(tempDir());
    fs.mkdirSync(path.join(backups, 'kept-aside'));
    fs.copyFileSync(unwrap(await empty.client.call('db.backup', {})).path, path.join(backups, 'kept-aside', backupName('automatic', JAN_1 + 3000)));

    const { client } = start(dir, { whenDatabaseMissing: 'restore-newest' });
    expect(
      unwrap(await client.call('memory.list', {}))
        .items.map((m) => m.content)
        .sort(),
    ).toEqual(['Lives in Lyon', 'Prefers green tea', '喜欢爬山']);
    expect(unwrap(await client.call('db.check', {})).integrity).toBe('ok');
  });

  it('"start empty": a new database, and from then on an ordinary start', async () => {
    const { dir, backup } = await lostDatabase();
    const first = start(dir, { whenDatabaseMissing: 'start-empty' });
    expect(unwrap(await first.client.call('memory.list', {})).total).toBe(0);
    unwrap(await first.client.call('memory.create', { content: 'A new beginning' }));
    await first.core.dispose();
    open.splice(open.indexOf(first.core), 1);
    const again = start(dir);
    expect(unwrap(await again.client.call('memory.list', {})).items.map((m) => m.content)).toEqual(['A new beginning']);
    expect(memoriesIn(backup)).toHaveLength(3);
  });

  it('the CLI says so in one line and offers the way out: db restore --latest, db start-empty', async () => {
    const { dir, dbFile } = await lostDatabase();
    const refused = await cli(['memory', 'list', '--data-dir', dir]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^mnemo: Mnemo's database at .* is missing, but the backups folder holds a good copy: .*db restore --latest.*db start-empty/);
    expect(fs.existsSync(dbFile)).toBe(false);

    // start-empty refuses where there is a database to lose; restore --latest brings the memories back.
    const restored = await cli(['db', 'restore', '--latest', '--data-dir', dir]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/^Restored mnemo-2026-01-01T00-00-00-000Z\.sqlite \(3 memories, schema \d{4}_/);
    expect(memoriesIn(dbFile)).toEqual(['Lives in Lyon', 'Prefers green tea', '喜欢爬山']);
    const before = snapshot(dir);
    const conflict = await cli(['db', 'start-empty', '--data-dir', dir]);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toMatch(/There is already a database at .*Nothing was changed\./);
    expect(snapshot(dir)).toEqual(before);

    fs.rmSync(dbFile);
    const empty = await cli(['db', 'start-empty', '--data-dir', dir]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toMatch(/^Started with an empty database at .*mnemo\.db\. The backups in .* stay as they were/);
    expect(memoriesIn(dbFile)).toEqual([]);
    expect((await cli(['db', 'check', '--data-dir', dir])).code).toBe(0);

    // Backups kept aside by rotation are not listed among the others, but the listing says where they are.
    fs.mkdirSync(path.join(dir, 'backups', 'kept-aside'));
    fs.copyFileSync(path.join(dir, 'backups', 'mnemo-2026-01-01T00-00-00-000Z.sqlite'), path.join(dir, 'backups', 'kept-aside', backupName('automatic', JAN_1 + 5000)));
    const listed = await cli(['db', 'backups', '--data-dir', dir]);
    expect(listed.stdout).toContain(`kept aside: 1 automatic backup holding much less than the others, in ${path.join(dir, 'backups', 'kept-aside')}`);
  }, 120_000);

  it('db restore --latest with no good backup says so and changes nothing', async () => {
    const dir = tempDir();
    const r = await cli(['db', 'restore', '--latest', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/There is no backup to restore in .*Nothing was changed\./);
    expect(fs.readdirSync(dir)).toEqual([]);
  }, 60_000);

  it('the web host prints the same, exits non-zero, and creates nothing', async () => {
    const { dir, dbFile } = await lostDatabase();
    const r = run('electron/server/main.ts', ['--port', '0', '--data-dir', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/is missing, but the backups folder holds a good copy: .*npm run -s cli -- db restore --latest --data-dir .*npm run -s cli -- db start-empty/);
    expect(r.stdout).not.toMatch(/Mnemo is running/);
    expect(fs.existsSync(dbFile)).toBe(false);
  }, 60_000);
});
