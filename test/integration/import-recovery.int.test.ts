/**
 * What an import killed halfway through its write leaves behind (memories hidden under its batch, memory-import.ts) is
 * removed when a core starts, but only when the importing process is gone: the same judgement as a job's lease
 * (lease-owner.ts), with the batch's newest write as its heartbeat. Another live process's import is left alone.
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

const MINUTE = 60_000;

/** Writes hidden rows the way an importing process does, as if it had been stopped right there. */
function leaveHiddenRows(dataDir: string, batch: string, lastWriteAt: number, n: number): void {
  const db = new Database(path.join(dataDir, 'mnemo.db'));
  try {
    const insert = db.prepare(
      `INSERT INTO memories (content, content_hash, category, status, import_batch, created_at, updated_at)
       VALUES (?, ?, 'knowledge', 'importing', ?, ?, ?)`,
    );
    const version = db.prepare(
      `INSERT INTO memory_versions (memory_id, version, content, category, importance, pinned, status, origin, reason, created_at)
       VALUES (?, 1, ?, 'knowledge', 0.5, 0, 'active', 'import', 'imported', ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < n; i++) {
        const content = `${batch} memory ${i}`;
        const id = Number(insert.run(content, `${batch}-${i}`, batch, lastWriteAt, lastWriteAt).lastInsertRowid);
        version.run(id, content, lastWriteAt);
      }
    })();
  } finally {
    db.close();
  }
}

function hiddenBatches(dataDir: string): string[] {
  const db = new Database(path.join(dataDir, 'mnemo.db'), { readonly: true });
  try {
    return (db.prepare('SELECT DISTINCT import_batch FROM memories WHERE import_batch IS NOT NULL ORDER BY 1').pluck().all() as string[]);
  } finally {
    db.close();
  }
}

describe('unfinished imports at start-up', () => {
  const tempDir = useTempDirs();

  it('removes the batches of gone processes and of silent ones, keeps a live process’s, and shows none of them', async () => {
    const dataDir = tempDir();
    await createTestCore(dataDir).core.dispose();
    const host = os.hostname();
    const exited = spawnSync(process.execPath, ['-e', '0']).pid!; // a process of this machine that no longer exists
    const now = Date.now();
    const deadOwner = `${exited}@${host}#dead1/1`;
    const liveOwner = `${process.pid}@${host}#other1/1`; // this test process, but another core's importer
    const silentOwner = `${process.pid}@${host}#other2/1`; // alive, but its last write is 11 minutes old
    const remoteOwner = `4242@another-machine#far1/1`; // cannot be asked; wrote a moment ago
    leaveHiddenRows(dataDir, deadOwner, now - MINUTE, 3);
    leaveHiddenRows(dataDir, liveOwner, now - 1000, 2);
    leaveHiddenRows(dataDir, silentOwner, now - 11 * MINUTE, 2);
    leaveHiddenRows(dataDir, remoteOwner, now - 1000, 1);

    const { core, client } = createTestCore(dataDir);
    try {
      expect(hiddenBatches(dataDir)).toEqual([liveOwner, remoteOwner].sort());
      expect(unwrap(await client.call('memory.stats', {})).total).toBe(0);
      expect(unwrap(await client.call('memory.list', { statuses: ['active', 'archived', 'trashed', 'superseded', 'review', 'rejected'] })).items).toEqual([]);
      const kept = new Database(path.join(dataDir, 'mnemo.db'), { readonly: true });
      const firstKept = kept.prepare('SELECT min(id) FROM memories').pluck().get() as number;
      kept.close();
      const got = await client.call('memory.get', { memoryId: firstKept });
      expect(got.ok ? 'found' : got.error.code).toBe('NOT_FOUND');
    } finally {
      await core.dispose();
    }
  });
});
