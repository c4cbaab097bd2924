/**
 * A purge takes what was written from the purged memory with it (issue 26 items 1 and 2), on real SQLite with a
 * fake Ollama for the background model: the profile's lines drawn from it leave the profile at once, with the model
 * server gone, in the database, its WAL and every backup; a consolidation summary written from it is purged too and
 * its other originals are active again; the answer says what went.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { openChatHarness, useChatHarnesses } from '../support/chat-harness';
import { createTestClock, openMemoryHarness } from '../support/memory-harness';
import { filesHolding } from '../support/files-holding';
import type { RequestPurpose } from '../support/request-kind';
import { useTempDirs } from '../support/temp-dir';

describe('a purge takes what was written from the memory', () => {
  const tempDir = useTempDirs();
  const harnesses = useChatHarnesses();

  async function start(dir: string, reply: (purpose: RequestPurpose | null) => string) {
    const clock = createTestClock(Date.UTC(2026, 10, 20, 9));
    const h = harnesses.keep(await openChatHarness(dir, { core: { startQueue: false, clock, embedder: createBagOfWordsEmbedder() } }));
    h.fake.setDefaultReply((req) => ({ content: reply(req.purpose) }));
    return h;
  }

  it('the profile loses the purged memory’s lines at once, with no model server, in the database, the WAL and every backup', async () => {
    const dir = tempDir();
    const { core, client, fake } = await start(dir, (purpose) =>
      purpose === 'profile' ? '## Name\n- Ana\n\n## Location\n- Lives in Porto\n\n## Preferences\n- Favourite painter: Qorvanix\n- Drinks green tea' : 'ok',
    );
    unwrap(await client.call('memory.create', { content: 'Name is Ana' }));
    unwrap(await client.call('memory.create', { content: 'Lives in Porto' }));
    const painter = unwrap(await client.call('memory.create', { content: 'My favourite painter is Qorvanix' }));
    unwrap(await client.call('memory.create', { content: 'Drinks green tea every afternoon' }));
    unwrap(await client.call('profile.refresh', {}));
    await core.queue.runUntilIdle();
    expect(unwrap(await client.call('profile.get', {}))?.content).toContain('Qorvanix');
    unwrap(await client.call('db.backup', {}));

    await fake.close(); // nothing of the purge needs the model
    const result = unwrap(await client.call('memory.purge', { memoryId: painter.id }));
    expect(result).toMatchObject({ purged: 1, derived: { summaries: 0, profileLines: 1 }, backups: { remaining: [] } });
    // The Preferences heading keeps the line the purged memory is not in.
    expect(unwrap(await client.call('profile.get', {}))?.content).toBe('## Name\n- Ana\n\n## Location\n- Lives in Porto\n\n## Preferences\n- Drinks green tea');
    expect(filesHolding(dir, 'Qorvanix')).toEqual([]);
  });

  it('a profile line drawn only from the purged memory takes its heading along, and the purge schedules a rewrite', async () => {
    const dir = tempDir();
    const { core, client } = await start(dir, (purpose) => (purpose === 'profile' ? '## Name\n- Ana\n## Work\n- Nurse at Qorvanix Clinic' : 'ok'));
    unwrap(await client.call('memory.create', { content: 'Name is Ana' }));
    const work = unwrap(await client.call('memory.create', { content: 'Works as a nurse at Qorvanix Clinic' }));
    unwrap(await client.call('profile.refresh', {}));
    await core.queue.runUntilIdle();
    const purge = unwrap(await client.call('memory.purge', { memoryId: work.id }));
    expect(purge.derived.profileLines).toBe(1);
    expect(unwrap(await client.call('profile.get', {}))?.content).toBe('## Name\n- Ana');
    // The purge scheduled a rewrite from what is left; it asks the model about the remaining memories only.
    expect(unwrap(await client.call('queue.list', {})).jobs.some((j) => j.kind === 'profile' && j.status === 'queued')).toBe(true);
    expect(filesHolding(dir, 'Qorvanix')).toEqual([]);
  });

  it('a consolidation summary written from the purged memory is purged too; its other originals are active again', async () => {
    const dir = tempDir();
    const clock = createTestClock(Date.UTC(2026, 10, 20, 9));
    const contents = ['Runs 5 km every morning in Qorvanix Park', 'Runs 5 km every morning with a Garmin watch'];
    const h = openMemoryHarness(path.join(dir), { embedder: createBagOfWordsEmbedder(), clock });
    const ids = contents.map((content) => h.memories.createMemory({ content, category: 'knowledge' }, { origin: 'extraction' }).id);
    await h.close();
    const { core, client } = await start(dir, (purpose) => (purpose === 'consolidate' ? 'Runs 5 km every morning in Qorvanix Park with a Garmin watch' : 'ok'));
    core.queue.enqueue({ kind: 'consolidate', payload: { memories: ids.map((id) => ({ id, version: 1 })) }, idempotencyKey: 'test:consolidate' });
    await core.queue.runUntilIdle();
    const summary = unwrap(await client.call('memory.list', { limit: 10 })).items.find((m) => m.content.includes('Garmin watch') && m.content.includes('Qorvanix'));
    expect(summary).toBeDefined();
    expect(unwrap(await client.call('memory.get', { memoryId: ids[1]! })).memory.status).toBe('superseded');
    unwrap(await client.call('db.backup', {}));

    unwrap(await client.call('memory.delete', { memoryId: ids[0]! }));
    const result = unwrap(await client.call('memory.purge', { memoryId: ids[0]! }));
    expect(result).toMatchObject({ purged: 1, derived: { summaries: 1, profileLines: 0 } });
    const after = unwrap(await client.call('memory.get', { memoryId: ids[1]! })).memory;
    expect(after).toMatchObject({ status: 'active', supersededBy: null, content: contents[1] });
    expect((await client.call('memory.get', { memoryId: summary!.id })).ok).toBe(false);
    expect(unwrap(await client.call('memory.search', { query: 'Qorvanix' })).hits).toEqual([]);
    expect(filesHolding(dir, 'Qorvanix')).toEqual([]);
  });
});
