/**
 * The real background jobs (extraction, title, summary) tell the renderer what they wrote only once it is written:
 * their events leave after the queue's transaction commits, never from a transaction that rolls back.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { EventMessage } from '../../shared/contract';
import type { FakeInferenceRequest } from '../fakes/fake-ollama';
import { useChatHarnesses } from '../support/chat-harness';
import { useTempDirs } from '../support/temp-dir';

const harnesses = useChatHarnesses();

const isExtraction = (r: FakeInferenceRequest) => r.purpose === 'extract';
const WRITTEN_BY_JOBS = ['memory.created', 'memory.learned', 'extraction.completed', 'summary.updated', 'thread.updated'];

describe('events of background jobs', () => {
  const tempDir = useTempDirs();

  it('a job whose write rolls back emits nothing; the retry that commits emits once', async () => {
    let now = Date.UTC(2026, 5, 1);
    const h = await harnesses.ollama(tempDir(), { core: { embedder: null, startQueue: false, clock: { now: () => now } } });
    const { core, client, fake } = h;
    unwrap(await client.call('settings.update', { patch: { summary: { minNewMessages: 2, minNewTokens: 100_000 } } }));
    fake.setDefaultReply((req) => {
      if (isExtraction(req)) {
        return { content: JSON.stringify({ memories: [{ content: 'Lives in Porto', category: 'knowledge', importance: 0.9, confidence: 0.9, validity: 'permanent', evidence: 'I live in Porto' }] }) };
      }
      if (req.purpose === 'title') return { content: 'Life in Porto' };
      if (req.purpose === 'summary') return { content: 'The user lives in Porto.' };
      return { content: 'Porto is a lovely city, thanks for telling me!' };
    });
    const sent = unwrap(await client.call('chat.send', { text: 'I live in Porto, near the river, since last year.' }));
    const events: EventMessage[] = [];
    core.subscribe((m) => events.push(m));
    const emitted = () => events.map((e) => e.event).filter((e) => WRITTEN_BY_JOBS.includes(e)).sort();

    // The database refuses to mark any job done (as a full disk could at that moment): each job's whole write,
    // handler's part included, rolls back after the handler's commit has run.
    const beside = new Database(core.paths.dbFile);
    try {
      beside.exec(`CREATE TRIGGER refuse_done BEFORE UPDATE OF status ON jobs WHEN NEW.status = 'done' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
      await core.queue.runUntilIdle();
      expect(emitted()).toEqual([]);
      expect(unwrap(await client.call('memory.list', {})).items).toEqual([]);
      const jobs = unwrap(await client.call('queue.list', { status: ['queued'] })).jobs;
      expect(jobs.map((j) => j.kind).sort()).toEqual(['episode', 'extract', 'focus', 'summarize', 'title']);
      beside.exec('DROP TRIGGER refuse_done');
    } finally {
      beside.close();
    }

    now += 60 * 60_000; // past the backoff
    await core.queue.runUntilIdle();
    expect(emitted()).toEqual(['extraction.completed', 'memory.created', 'memory.learned', 'summary.updated', 'thread.updated']);
    expect(unwrap(await client.call('thread.get', { threadId: sent.threadId })).title).toBe('Life in Porto');
  });
});
