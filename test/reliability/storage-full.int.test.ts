/**
 * A full disk (reliability anchor D4), on a real small filesystem: a 16 MB tmpfs holding the data folder, filled by
 * a file beside it. Writes must fail with STORAGE_FULL (never INTERNAL), nothing saved before may be lost, the
 * background queue must pause without burning attempts, and once space is freed everything resumes by itself and the
 * database passes integrity_check. Mounting needs root (CI runs as root); elsewhere the test is skipped, saying why.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createChatHarness } from '../support/chat-harness';
import { fillToTheLastByte, mountSmallDisk } from '../support/full-disk';

const disk = mountSmallDisk('mnemo-disk-full-');
const { root, mounted } = disk;


describe.skipIf(!mounted)('a full disk (16 MB tmpfs; skipped where a tmpfs cannot be mounted, i.e. without root)', () => {
  afterAll(() => {
    disk.remove();
  });

  it('refuses writes with STORAGE_FULL, loses nothing, pauses the queue without burning attempts, and resumes when space is freed', async () => {
    const h = await createChatHarness(root, { core: { embedder: null, startQueue: false } });
    try {
      const { core, client, fake } = h;
      fake.setDefaultReply((req) =>
        req.purpose === 'extract'
          ? { content: JSON.stringify({ memories: [{ content: 'Keeps a big aquarium', category: 'knowledge', importance: 0.7, confidence: 0.9, validity: 'permanent', evidence: 'a big aquarium' }] }) }
          : { content: 'How lovely, thank you for telling me about it!' },
      );
      const thread = unwrap(await client.call('thread.create', {}));
      unwrap(await client.call('chat.send', { threadId: thread.id, text: 'I keep a big aquarium in the living room, with neon tetras.' }));

      // Fill the disk, leaving a little room, then write memories until it is full.
      const filler = path.join(root, 'filler');
      const { bavail, bsize } = fs.statfsSync(root);
      fs.writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - 256 * 1024)));
      const saved: number[] = [];
      let refusal: { code: string; message: string } | null = null;
      for (let i = 0; i < 500 && !refusal; i++) {
        const r = await client.call('memory.create', { content: `Fact ${i}: ${'a long remembered detail '.repeat(60)}`.slice(0, 2000), category: 'knowledge' });
        if (r.ok) saved.push(r.value.id);
        else refusal = r.error;
      }
      expect(refusal).toMatchObject({ code: 'STORAGE_FULL', message: expect.stringContaining('free some space') });
      // Every write says so, including those whose statement returns the new row (INSERT ... RETURNING): in autocommit
      // their commit fails after the row was read, which once surfaced as "Thread N does not exist". As after a
      // restart on a full disk: the WAL folded back and emptied (done here by a second connection, with the filler
      // briefly away), then the very last byte taken, so even a row as small as a thread's finds no room.
      fs.rmSync(filler);
      const beside = new Database(path.join(root, 'data', 'mnemo.db'));
      try {
        expect(beside.pragma('wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
      } finally {
        beside.close();
      }
      fillToTheLastByte(filler);
      for (const [name, input] of [
        ['thread.create', {}],
        ['thread.create', { title: 'Aquarium plans' }],
        ['thread.rename', { threadId: thread.id, title: 'The aquarium' }],
        ['memory.create', { content: 'One more small fact', category: 'knowledge' }],
      ] as const) {
        expect(await client.call(name, input), name).toMatchObject({ ok: false, error: { code: 'STORAGE_FULL' } });
      }
      expect(unwrap(await client.call('thread.list', { limit: 10 })).threads.map((t) => t.id)).toEqual([thread.id]);

      // The queue meets the full disk too: it pauses, the job keeps its attempts.
      core.queue.start();
      await expect.poll(async () => unwrap(await client.call('queue.status', {})).paused?.code, { timeout: 20_000 }).toBe('STORAGE_FULL');
      const [job] = unwrap(await client.call('queue.list', { status: ['queued', 'running'] })).jobs.filter((j) => j.kind === 'extract');
      expect(job).toBeDefined();

      // Nothing saved before was lost.
      const listed = unwrap(await client.call('memory.list', { limit: 500 })).items.map((m) => m.id);
      expect(listed.sort((a, b) => a - b)).toEqual(saved);
      expect(unwrap(await client.call('thread.messages', { threadId: thread.id })).messages.map((m) => m.status)).toEqual(['complete', 'complete']);

      // Space comes back: the queue resumes by itself (after its probe interval) and learns the memory.
      fs.rmSync(filler);
      await expect
        .poll(async () => unwrap(await client.call('memory.list', { limit: 500 })).items.some((m) => m.content === 'Keeps a big aquarium'), { timeout: 40_000, interval: 500 })
        .toBe(true);
      const status = unwrap(await client.call('queue.status', {}));
      expect(status).toMatchObject({ paused: null, dead: 0 });
      expect(unwrap(await client.call('memory.create', { content: 'Written after space was freed', category: 'knowledge' })).id).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
    const db = new Database(path.join(root, 'data', 'mnemo.db'), { readonly: true });
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  }, 90_000);
});
