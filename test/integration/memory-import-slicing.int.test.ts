/**
 * A long import lets other work run while it plans (issue 11 item 12): before, planning 3,000 lines (hashing, the
 * duplicate lookup per line, a nearest-vector search per line) ran without ever returning to the event loop, so the
 * web host could answer nothing. Measured without clocks: a macrotask ticker counts the event-loop turns that happen
 * while the import runs.
 */
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';

const word = (n: number) => {
  let out = '';
  for (let v = n; out.length < 6; v = Math.floor(v / 26)) out += String.fromCharCode(97 + (v % 26));
  return out;
};

describe('a long import', () => {
  const tempDir = useTempDirs();

  it('gives the event loop turns while it plans, and still writes everything in one go', async () => {
    const { core, client } = createTestCore(tempDir(), { embedder: createBagOfWordsEmbedder({ dimensions: 256 }), startQueue: false });
    try {
      const content = Array.from({ length: 3000 }, (_, i) => `- Knows ${word(i * 7919 + 13)} ${word(i * 104729 + 5)} ${word(i * 1299709 + 3)}`).join('\n');

      let turns = 0;
      let running = true;
      const tick = () => {
        if (!running) return;
        turns++;
        setImmediate(tick);
      };
      setImmediate(tick);
      const report = unwrap(await client.call('memory.import', { content }));
      running = false;

      expect(report.written).toBe(3000);
      // The bag-of-words embedder answers without I/O, so every turn counted here is one the importer gave.
      expect(turns).toBeGreaterThan(1);
      expect(unwrap(await client.call('memory.stats', {})).total).toBe(3000);
    } finally {
      await core.dispose();
    }
  });
});
