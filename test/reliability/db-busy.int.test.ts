/**
 * Another process holding Mnemo's database (reliability anchor D6): a second Mnemo, the CLI, a backup tool. A short
 * hold is waited out (busy_timeout 5 s) and the write succeeds; a hold past the timeout is a typed, retryable DB_BUSY
 * with what to do, never an unexpected error, and nothing is half-written. The holder is a real second process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

/** Starts a process that takes the write lock (BEGIN IMMEDIATE) and keeps it for `ms`; resolves once it holds it. */
function holdWriteLock(file: string, ms: number): Promise<ChildProcess> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN IMMEDIATE');
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
});
