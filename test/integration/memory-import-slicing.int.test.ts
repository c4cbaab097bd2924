/**
 * A long import lets other work run while it plans and while it writes (issue 11 item 12): before, planning 3,000
 * lines (hashing, the duplicate lookup per line, a nearest-vector search per line) ran without ever returning to the
 * event loop, and the write was one transaction of about 1.5 s, so the web host could answer nothing. Measured without
 * clocks: a macrotask ticker counts the event-loop turns that happen while the import runs, and looks at the file.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { turnsDuring } from '../support/event-loop-turns';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

const word = (n: number) => {
  let out = '';
  for (let v = n; out.length < 6; v = Math.floor(v / 26)) out += String.fromCharCode(97 + (v % 26));
  return out;
};

describe('a long import', () => {
  const tempDir = useTempDirs();

  it('gives the event loop turns while it plans, and still writes everything', async () => {
    const { core, client } = createTestCore(tempDir(), { embedder: createBagOfWordsEmbedder({ dimensions: 256 }), startQueue: false });
    try {
      const content = Array.from({ length: 3000 }, (_, i) => `- Knows ${word(i * 7919 + 13)} ${word(i * 104729 + 5)} ${word(i * 1299709 + 3)}`).join('\n');

      const { value: report, turns } = await turnsDuring(async () => unwrap(await client.call('memory.import', { content })));

      expect(report.written).toBe(3000);
      // The bag-of-words embedder answers without I/O, so every turn counted here is one the importer gave.
      expect(turns).toBeGreaterThan(1);
      expect(unwrap(await client.call('memory.stats', {})).total).toBe(3000);
    } finally {
      await core.dispose();
    }
  });

  it('writes in slices with calls answered between them, and shows nothing of the import until all of it is written', async () => {
    const dir = tempDir();
    const { core, client } = createTestCore(dir, { embedder: createBagOfWordsEmbedder({ dimensions: 256 }), startQueue: false });
    // A second connection sees what each slice commits, as another process would.
    const file = new Database(path.join(dir, 'mnemo.db'), { readonly: true });
    try {
      unwrap(await client.call('memory.create', { content: 'Knows the importer well', category: 'knowledge' }));
      const content = Array.from({ length: 3000 }, (_, i) => `- Knows ${word(i * 7919 + 17)} ${word(i * 104729 + 7)} ${word(i * 1299709 + 1)}`).join('\n');
      const hidden = file.prepare("SELECT count(*) FROM memories WHERE status = 'importing'").pluck();

      const seen: Array<{ hidden: number; total: number; found: number; events: number }> = [];
      let running = true;
      const look = async () => {
        if (!running) return;
        const stats = unwrap(await client.call('memory.stats', {}));
        const search = unwrap(await client.call('memory.search', { query: 'Knows' }));
        const timeline = unwrap(await client.call('timeline.list', {}));
        seen.push({ hidden: hidden.get() as number, total: stats.total, found: search.hits.filter((h) => h.memory.content !== 'Knows the importer well').length, events: timeline.events.filter((e) => e.kind === 'imported').length });
        setImmediate(() => void look());
      };
      setImmediate(() => void look());
      const report = unwrap(await client.call('memory.import', { content }));
      running = false;

      expect(report.written).toBe(3000);
      const duringWrite = seen.filter((s) => s.hidden > 0);
      // Turns while slices were committed (before, the write held the event loop from start to end)...
      expect(duringWrite.length).toBeGreaterThan(1);
      // ...during which none of the import was visible: not counted, not found, not on the timeline. (Its hidden rows can
      // still outrank older memories in the keyword index's candidate window, so a search may list fewer meanwhile.)
      expect(duringWrite.every((s) => s.total === 1 && s.found === 0 && s.events === 0), JSON.stringify(duringWrite.slice(0, 5))).toBe(true);
      expect(hidden.get()).toBe(0);
      expect(unwrap(await client.call('memory.stats', {})).total).toBe(3001);
    } finally {
      file.close();
      await core.dispose();
    }
  });

  it('a memory written by hand between slices with the text of an already written line: one memory, the line reported duplicate', async () => {
    const dir = tempDir();
    const { core, client } = createTestCore(dir, { embedder: createBagOfWordsEmbedder({ dimensions: 256 }), startQueue: false });
    const file = new Database(path.join(dir, 'mnemo.db'), { readonly: true });
    try {
      const lines = Array.from({ length: 3000 }, (_, i) => `Knows ${word(i * 7919 + 23)} ${word(i * 104729 + 13)} ${word(i * 1299709 + 9)}`);
      const hidden = file.prepare("SELECT count(*) FROM memories WHERE status = 'importing'").pluck();
      let byHand: Promise<unknown> | undefined;
      const watch = () => {
        // The first line is written (hidden) by now: the hand-written copy is not a duplicate of anything visible.
        if ((hidden.get() as number) > 0) byHand = client.call('memory.create', { content: lines[0]!, category: 'knowledge' });
        else setImmediate(watch);
      };
      setImmediate(watch);
      const report = unwrap(await client.call('memory.import', { content: lines.map((l) => `- ${l}`).join('\n') }));
      expect(unwrap((await byHand) as Parameters<typeof unwrap>[0])).toMatchObject({ content: lines[0] });
      expect(report.items[0]).toMatchObject({ outcome: 'duplicate' });
      expect(report.items[0]!.memoryId).toBeUndefined();
      expect(report.written).toBe(2999);
      expect(file.prepare('SELECT count(*) FROM memories WHERE content = ?').pluck().get(lines[0])).toBe(1);
      expect(unwrap(await client.call('memory.stats', {})).total).toBe(3000);
    } finally {
      file.close();
      await core.dispose();
    }
  });

  it('removes what it wrote when Mnemo closes halfway through the write, and says the import was stopped', async () => {
    const dir = tempDir();
    const { core } = createTestCore(dir, { embedder: createBagOfWordsEmbedder({ dimensions: 256 }), startQueue: false });
    const file = new Database(path.join(dir, 'mnemo.db'), { readonly: true });
    try {
      const content = Array.from({ length: 3000 }, (_, i) => `- Knows ${word(i * 7919 + 19)} ${word(i * 104729 + 11)} ${word(i * 1299709 + 7)}`).join('\n');
      const hidden = file.prepare("SELECT count(*) FROM memories WHERE status = 'importing'").pluck();
      let hiddenWhenClosed = 0;
      let closed: Promise<void> | undefined;
      const watch = () => {
        hiddenWhenClosed = hidden.get() as number;
        if (hiddenWhenClosed > 0) closed = core.dispose();
        else setImmediate(watch);
      };
      setImmediate(watch);
      const result = await core.call('memory.import', { content });
      await closed;
      expect(hiddenWhenClosed).toBeGreaterThan(0);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatchObject({ code: 'ABORTED', message: expect.stringContaining('nothing was imported') });
      const n = (sql: string) => file.prepare(sql).pluck().get() as number;
      expect({ memories: n('SELECT count(*) FROM memories'), fts: n('SELECT count(*) FROM memories_fts'), versions: n('SELECT count(*) FROM memory_versions') }).toEqual({
        memories: 0,
        fts: 0,
        versions: 0,
      });
    } finally {
      file.close();
      await core.dispose();
    }
  });
});
