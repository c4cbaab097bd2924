/**
 * Another process holding Mnemo's database (reliability anchor D6): a second Mnemo, the CLI, a backup tool. A short
 * hold is waited out (busy_timeout 5 s) and the write succeeds; a hold past the timeout is a typed, retryable DB_BUSY
 * with what to do, never an unexpected error, and nothing is half-written. The holder is a real second process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { openDatabase, sourceMigrationsDir } from '../../electron/core/db/open-database';
import { writeTransaction } from '../../electron/core/db/write-transaction';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

/**
 * Starts a process that takes the write lock (BEGIN IMMEDIATE), runs `write` in it if given, and commits after `ms`;
 * resolves once it holds the lock.
 */
function holdWriteLock(file: string, ms: number, write = ''): Promise<ChildProcess> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE');
    db.exec(${JSON.stringify(write)});
    process.stdout.write('locked\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, ${ms});`;
  const child = spawn(process.execPath, ['-e', script], { cwd: path.resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('locked') && resolve(child));
    child.on('exit', (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
}

describe('another process holding the database', () => {
  const tempDir = useTempDirs();
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const c of children.splice(0)) c.kill('SIGKILL');
  });

  it('a short hold is waited out; a long one is DB_BUSY with what to do, and nothing is half-written', async () => {
    const { core, client } = createTestCore(path.join(tempDir(), 'data'), { embedder: null, startQueue: false });
    try {
      const file = core.paths.dbFile;
      children.push(await holdWriteLock(file, 1000));
      const waited = await client.call('memory.create', { content: 'Written once the other process let go', category: 'knowledge' });
      expect(waited).toMatchObject({ ok: true });

      children.push(await holdWriteLock(file, 8000));
      const refused = await client.call('memory.create', { content: 'Written while it is held', category: 'knowledge' });
      expect(refused).toMatchObject({ ok: false, error: { code: 'DB_BUSY', message: expect.stringContaining('Try again') } });
      expect(unwrap(await client.call('memory.list', {})).items.map((m) => m.content)).toEqual(['Written once the other process let go']);
      expect(unwrap(await client.call('timeline.list', {})).events.filter((e) => e.kind === 'learned')).toHaveLength(1);
    } finally {
      await core.dispose();
    }
  }, 30_000);

  // Why writeTransaction begins IMMEDIATE: a deferred transaction reads from the snapshot it began with, and when
  // another process commits before it writes, SQLite refuses the write (SQLITE_BUSY_SNAPSHOT) however long it waits.
  it('a write transaction that reads first waits for the other writer and reads what it committed', async () => {
    const db = openDatabase(path.join(tempDir(), 'mnemo.db'), { migrationsDir: sourceMigrationsDir() });
    try {
      children.push(await holdWriteLock(db.path, 1000, "INSERT INTO settings (key, value, updated_at) VALUES ('theirs', '1', 1)"));
      const seen = writeTransaction(db.sqlite, () => {
        const keys = db.sqlite.prepare('SELECT key FROM settings ORDER BY key').pluck().all() as string[];
        db.sqlite.prepare("INSERT INTO settings (key, value, updated_at) VALUES ('mine', '1', 2)").run();
        return keys;
      });
      expect(seen).toEqual(['theirs']);
      expect(db.sqlite.prepare('SELECT key FROM settings ORDER BY key').pluck().all()).toEqual(['mine', 'theirs']);
    } finally {
      db.close();
    }
  }, 30_000);
});
