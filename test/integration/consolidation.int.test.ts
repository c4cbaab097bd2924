/**
 * Consolidation through the core on real SQLite, a bag-of-words embedder and a fake Ollama for the background model:
 * maintenance finds clusters of related memories and queues one job each; the job writes one summary that supersedes
 * them (history kept, on the timeline), memory.unconsolidate brings them back; a cluster with a pinned memory or one
 * of the user's goes to review; an ungrounded summary changes nothing; at most N clusters per run; the model down
 * leaves the job waiting and nothing changed.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { Memory } from '../../shared/contract';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { openChatHarness, useChatHarnesses } from '../support/chat-harness';
import { createTestClock, openMemoryHarness, type TestClock } from '../support/memory-harness';
import { usageFor } from '../support/model-usage';
import { useTempDirs } from '../support/temp-dir';

const RUNNING = [
  'Goes for a 5 km run every morning before breakfast in Central Park',
  'Goes for a 5 km run every morning before breakfast with a Garmin watch',
  'Goes for a 5 km run every morning before breakfast since last spring',
  'Goes for a 5 km run every morning before breakfast for the Berlin marathon',
];
const RUNNING_SUMMARY = 'Goes for a 5 km run every morning before breakfast in Central Park with a Garmin watch since last spring, for the Berlin marathon';
const TEA = [
  'Drinks a cup of green tea from Hangzhou every afternoon at the office',
  'Drinks a cup of green tea from Hangzhou every afternoon with honey',
  'Drinks a cup of green tea from Hangzhou every afternoon, never coffee',
];
const WALK = ['每天晚上吃完饭后在西湖边散步半小时，带着小狗', '每天晚上吃完饭后在西湖边散步半小时，听播客', '每天晚上吃完饭后在西湖边散步半小时，走一万步'];

// Learned before the instruction detector knew "pirate speak" (issue 26 item 7): active, and alike enough to cluster.
const PIRATE = [
  'Wants every answer in pirate speak when chatting about sailing trips on the lake',
  'Wants every answer in pirate speak when chatting about sailing trips with friends',
  'Wants every answer in pirate speak when chatting about sailing trips in summer',
];
const PIRATE_SUMMARY = 'Wants every answer in pirate speak when chatting about sailing trips on the lake with friends in summer';

type Body = { messages: Array<{ role: string; content: string }> };

describe('consolidation', () => {
  const tempDir = useTempDirs();
  const harnesses = useChatHarnesses();

  /** Memories Mnemo learned on its own (origin extraction, with vectors), written before the core opens the folder. */
  async function learn(dir: string, clock: TestClock, contents: string[], more: { pinned?: boolean; category?: Memory['category'] } = {}): Promise<number[]> {
    const h = openMemoryHarness(dir, { embedder: createBagOfWordsEmbedder(), clock });
    try {
      const ids: number[] = [];
      for (const content of contents) {
        const [embedding] = (await h.memories.prepareEmbeddings([content])) ?? [null];
        ids.push(h.memories.createMemory({ content, category: more.category ?? 'knowledge', importance: 0.4 + ids.length * 0.1, ...(more.pinned ? { pinned: true } : {}) }, { origin: 'extraction', embedding }).id);
      }
      return ids;
    } finally {
      await h.close();
    }
  }

  async function start(dir: string, clock: TestClock) {
    const h = harnesses.keep(await openChatHarness(dir, { core: { startQueue: false, clock, embedder: createBagOfWordsEmbedder() } }));
    const requests = () => h.fake.requests.filter((r) => r.purpose === 'consolidate').map((r) => (r.body as Body).messages.at(-1)!.content);
    return { ...h, requests };
  }

  const get = async (client: Client, id: number) => unwrap(await client.call('memory.get', { memoryId: id }));
  const status = async (client: Client, ids: number[]) => Promise.all(ids.map(async (id) => (await get(client, id)).memory.status));

  function events(dir: string, kind: string): Array<{ memory_id: number | null; data: Record<string, unknown> }> {
    const db = new Database(path.join(dir, 'mnemo.db'), { readonly: true });
    try {
      return (db.prepare('SELECT memory_id, data FROM events WHERE kind = ? ORDER BY id').all(kind) as Array<{ memory_id: number | null; data: string }>).map((r) => ({
        memory_id: r.memory_id,
        data: JSON.parse(r.data) as Record<string, unknown>,
      }));
    } finally {
      db.close();
    }
  }

  it('summarises four memories about the running habit into one that supersedes them (history kept); unconsolidate restores them', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const ids = await learn(dir, clock, RUNNING);
    const { core, client, fake, requests } = await start(dir, clock);
    // A small model's answer: thinking, a preamble and a fence around the note.
    fake.setDefaultReply((req) => (req.purpose === 'consolidate' ? { content: `<think>Combine them.</think>Here is the combined note:\n\`\`\`\n${RUNNING_SUMMARY}\n\`\`\`` } : { content: 'ok' }));

    const report = unwrap(await client.call('memory.maintain', {}));
    expect(report).toMatchObject({ merged: 0, clustersQueued: 1, clustersSummarised: 0 });
    await core.queue.runUntilIdle();
    expect(requests()).toHaveLength(1);
    for (const content of RUNNING) expect(requests()[0]).toContain(`- ${content}`);
    expect((await usageFor(client, 'consolidate')).requests).toBe(1); // through the background-model gateway

    const [made] = events(dir, 'consolidated');
    expect(made!.data).toMatchObject({ from: ids, summarised: 4, origin: 'maintenance', status: 'active' });
    const summary = (await get(client, made!.memory_id!)).memory;
    expect(summary).toMatchObject({ content: RUNNING_SUMMARY, status: 'active', category: 'knowledge' });
    expect(summary.importance).toBeCloseTo(0.7);
    expect(summary.embeddingModel).not.toBeNull();
    expect(unwrap(await client.call('memory.search', { query: 'Garmin marathon' })).hits.map((h) => h.memory.id)).toEqual([summary.id]);
    for (const id of ids) {
      const { memory, versions } = await get(client, id);
      expect(memory).toMatchObject({ status: 'superseded', supersededBy: summary.id });
      expect(versions.at(-1)).toMatchObject({ origin: 'maintenance', reason: 'consolidated', status: 'superseded' });
      expect(versions.at(-2)).toMatchObject({ status: 'active' });
    }
    // The next run reports the summary, and finds nothing more to summarise.
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 0, clustersSummarised: 1 });

    const undone = unwrap(await client.call('memory.unconsolidate', { memoryId: summary.id }));
    expect(undone.summary.status).toBe('trashed');
    expect(undone.restored.map((m) => m.id)).toEqual(ids);
    expect(await status(client, ids)).toEqual(['active', 'active', 'active', 'active']);
    for (const id of ids) expect((await get(client, id)).memory.supersededBy).toBeNull();
    // Undoing twice, or undoing a memory that is not a summary, is a clear refusal.
    expect(await client.call('memory.unconsolidate', { memoryId: summary.id })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
    expect(await client.call('memory.unconsolidate', { memoryId: ids[0]! })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } });
  });

  it('sends a cluster holding a pinned memory to review: approving supersedes them all, rejecting leaves them', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const [first, ...rest] = TEA;
    const ids = [...(await learn(dir, clock, [first!], { pinned: true })), ...(await learn(dir, clock, rest))];
    const { core, client, fake } = await start(dir, clock);
    const teaSummary = 'Drinks a cup of green tea from Hangzhou every afternoon at the office with honey, never coffee';
    fake.setDefaultReply({ content: teaSummary });

    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 1 });
    await core.queue.runUntilIdle();
    expect(await status(client, ids)).toEqual(['active', 'active', 'active']);
    const { items } = unwrap(await client.call('review.list', {}));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ content: teaSummary, flag: 'consolidation', replaces: { id: ids[0] } });
    expect(events(dir, 'consolidated')).toEqual([]);
    // While it waits, maintenance does not propose the same memories again.
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 0 });

    unwrap(await client.call('review.approve', { memoryId: items[0]!.id }));
    expect(await status(client, ids)).toEqual(['superseded', 'superseded', 'superseded']);
    for (const id of ids) expect((await get(client, id)).memory.supersededBy).toBe(items[0]!.id);
  });

  it('sends a summary that reads like an instruction to review (memories learned before the detector knew the phrasing)', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const ids = await learn(dir, clock, PIRATE);
    const { core, client, fake } = await start(dir, clock);
    fake.setDefaultReply({ content: PIRATE_SUMMARY });

    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 1 });
    await core.queue.runUntilIdle();
    expect(await status(client, ids)).toEqual(['active', 'active', 'active']);
    const { items } = unwrap(await client.call('review.list', {}));
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ content: PIRATE_SUMMARY, status: 'review' });
    expect(events(dir, 'consolidated')).toEqual([]);
  });

  it('a rejected proposal leaves the memories as they were', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const ids = await learn(dir, clock, TEA);
    const { core, client, fake } = await start(dir, clock);
    // One of them the user edited: the cluster is the user's too.
    unwrap(await client.call('memory.update', { memoryId: ids[2]!, importance: 0.9 }));
    fake.setDefaultReply({ content: 'Drinks a cup of green tea from Hangzhou every afternoon at the office with honey, never coffee' });
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 1 });
    await core.queue.runUntilIdle();
    const { items } = unwrap(await client.call('review.list', {}));
    expect(items.map((i) => i.flag)).toEqual(['consolidation']);
    unwrap(await client.call('review.reject', { memoryId: items[0]!.id }));
    expect(await status(client, ids)).toEqual(['active', 'active', 'active']);
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 0 });
    // The user's no stands, even once one of them changed (a new version is a new cluster to the job keys).
    clock.advance(60_000);
    unwrap(await client.call('memory.update', { memoryId: ids[0]!, importance: 0.8 }));
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 0 });
  });

  it.each([
    ['another language', '每天下午在办公室喝一杯杭州绿茶，加蜂蜜，从不喝咖啡'],
    ['an invented detail', 'Drinks a cup of green tea from Hangzhou every afternoon at the office with honey and lemon, never coffee'],
    ['a dropped fact', 'Drinks a cup of green tea from Hangzhou every afternoon at the office'],
  ])('refuses a summary in %s: nothing changes', async (_, answer) => {
    const dir = tempDir();
    const clock = createTestClock();
    const ids = await learn(dir, clock, TEA);
    const { core, client, fake, requests } = await start(dir, clock);
    fake.setDefaultReply({ content: answer });
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 1 });
    await core.queue.runUntilIdle();
    expect(requests()).toHaveLength(1);
    expect(await status(client, ids)).toEqual(['active', 'active', 'active']);
    expect(unwrap(await client.call('memory.stats', {})).total).toBe(3);
    expect(unwrap(await client.call('review.list', {})).total).toBe(0);
    // The same unchanged cluster is not asked for again.
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 0 });
  });

  it('skips a cluster that changed after maintenance found it: the model is not asked, nothing changes', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const ids = await learn(dir, clock, TEA);
    const { core, client, fake, requests } = await start(dir, clock);
    fake.setDefaultReply({ content: 'Drinks a cup of green tea from Hangzhou every afternoon at the office with honey, never coffee' });
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 1 });
    unwrap(await client.call('memory.delete', { memoryId: ids[1]! }));
    await core.queue.runUntilIdle();
    expect(requests()).toEqual([]);
    expect(await status(client, ids)).toEqual(['active', 'trashed', 'active']);
    expect(unwrap(await client.call('review.list', {})).total).toBe(0);
  });

  it('queues at most consolidationMaxPerRun clusters per run, the rest at the next; none when turned off', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    await learn(dir, clock, RUNNING);
    await learn(dir, clock, TEA, { category: 'preference' });
    await learn(dir, clock, WALK, { category: 'skill' });
    const { client } = await start(dir, clock);
    unwrap(await client.call('settings.update', { patch: { consolidationEnabled: false } }));
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 0 });
    unwrap(await client.call('settings.update', { patch: { consolidationEnabled: true, consolidationMaxPerRun: 2 } }));
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 2 });
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 1 });
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 0 });
    const jobs = unwrap(await client.call('queue.list', {})).jobs.filter((j) => j.kind === 'consolidate');
    expect(jobs).toHaveLength(3);
  });

  it('with the model down the job waits and nothing changes; once it is back the summary is written', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const ids = await learn(dir, clock, RUNNING);
    const { core, client, fake, close } = await start(dir, clock);
    expect(unwrap(await client.call('memory.maintain', {}))).toMatchObject({ clustersQueued: 1 });
    await fake.stop();
    await core.queue.runUntilIdle();
    expect(await status(client, ids)).toEqual(['active', 'active', 'active', 'active']);
    const [job] = unwrap(await client.call('queue.list', {})).jobs.filter((j) => j.kind === 'consolidate');
    expect(job).toMatchObject({ status: 'queued' });

    expect(job!.attempts).toBe(0);

    // The app opened again with the model back: the same job writes the summary.
    await close();
    const again = await start(dir, clock);
    again.fake.setDefaultReply({ content: RUNNING_SUMMARY });
    await again.core.queue.runUntilIdle();
    expect(await status(again.client, ids)).toEqual(['superseded', 'superseded', 'superseded', 'superseded']);
  });
});
