import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { Core } from '../../electron/core/create-core';
import { estimateTokens } from '../../electron/core/text/token-estimate';
import { createChatHarness } from '../support/chat-harness';
import { createTestClock, openMemoryHarness, type MemoryHarness } from '../support/memory-harness';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

/**
 * Issue 17, part 1: with the right memories stored and no embedding model (keyword search only, where a new offline
 * user starts), questions asked the way people ask find what they mean, and questions about something else bring
 * nothing. Real core, real SQLite; the chat cases go through chat.send and the fake Ollama.
 */
const STORE = [
  'Lives in Porto',
  'Works at Acme Robotics',
  'Has a pet rabbit named Coco',
  'Bought flowers for Mother’s Day',
  'Saving for a new bike',
  'The dog of the neighbour is a border collie',
  'Is part of the book club',
  '我每天早上喝咖啡',
  '喜欢喝绿茶',
];

describe('retrieval that finds what the user means (keyword only)', () => {
  const tempDir = useTempDirs();
  const open: Array<{ close(): Promise<void> } | Core> = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await ('dispose' in o ? o.dispose() : o.close());
  });

  async function seeded(): Promise<Client> {
    const { core, client } = createTestCore(tempDir(), { startQueue: false, embedder: null, clock: createTestClock() });
    open.push(core);
    for (const content of STORE) unwrap(await client.call('memory.create', { content }));
    return client;
  }

  async function chatHarness(): Promise<{ client: Client; ids: Map<string, number> }> {
    const h = await createChatHarness(tempDir(), { core: { startQueue: false, embedder: null } });
    open.push(h);
    const ids = new Map<string, number>();
    for (const content of STORE) ids.set(content, unwrap(await h.client.call('memory.create', { content })).id);
    return { client: h.client, ids };
  }

  const promptMemories = async (client: Client, ids: Map<string, number>, text: string) => {
    const byId = new Map([...ids].map(([content, id]) => [id, content]));
    const sent = unwrap(await client.call('chat.send', { text }));
    return sent.memoriesUsed.map((u) => byId.get(u.memoryId));
  };

  it('the prompt for a question in other word forms carries the memory it is about', async () => {
    const { client, ids } = await chatHarness();
    expect(await promptMemories(client, ids, 'Where do I live now?')).toEqual(['Lives in Porto']);
    expect(await promptMemories(client, ids, 'What pets do I have?')).toEqual(['Has a pet rabbit named Coco']);
    expect(await promptMemories(client, ids, 'Where do I work?')).toEqual(['Works at Acme Robotics']);
    // Tips and weekends are in no memory, but the question names the city the user lives in.
    expect(await promptMemories(client, ids, 'Any tips for a weekend in Porto?')).toEqual(['Lives in Porto']);
  });

  it('a question about something the store does not hold adds no memory, whatever function words it shares', async () => {
    const { client, ids } = await chatHarness();
    // Every memory below shares "for", "the", "is" or "of" with these questions, and nothing else.
    expect(await promptMemories(client, ids, 'What should I cook for dinner tonight?')).toEqual([]);
    expect(await promptMemories(client, ids, 'What is the capital of France?')).toEqual([]);
  });

  it('memory.search answers a question in natural language; a search-box filter is answered as before', async () => {
    const client = await seeded();
    const search = async (query: string) => unwrap(await client.call('memory.search', { query })).hits.map((h) => h.memory.content);
    expect(await search('Where do I live now?')).toEqual(['Lives in Porto']);
    expect(await search('where do I work')).toEqual(['Works at Acme Robotics']);
    expect(await search('What is the capital of France?')).toEqual([]);
    // A search-box filter that every word matches is answered as before, the last word as a prefix.
    expect(await search('acme rob')).toEqual(['Works at Acme Robotics']);
    expect(await search('Lives')).toEqual(['Lives in Porto']);
  });

  it('Chinese two-character words match as before, in the prompt and in search', async () => {
    const { client, ids } = await chatHarness();
    const search = async (query: string) => unwrap(await client.call('memory.search', { query })).hits.map((h) => h.memory.content);
    expect(await search('咖啡')).toEqual(['我每天早上喝咖啡']);
    expect(await search('绿茶')).toEqual(['喜欢喝绿茶']);
    expect(await search('茶')).toEqual(['喜欢喝绿茶']);
    expect(await promptMemories(client, ids, '附近有好喝的咖啡吗')).toEqual(['我每天早上喝咖啡']);
    expect(await promptMemories(client, ids, '我喜欢喝什么茶？')).toEqual(['喜欢喝绿茶']);
  });
});

describe('word forms come from the index as it is now', () => {
  const tempDir = useTempDirs();
  const open: MemoryHarness[] = [];
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
  });

  const retrieve = async (h: MemoryHarness, query: string) =>
    (await h.memories.retrieveForPrompt({ query, threadId: 1, tokenBudget: 1000, estimateTokens })).items.map((i) => i.memory.content);

  it('a word form first written after a search is found by the next one, from this connection and from another', async () => {
    const dir = tempDir();
    const clock = createTestClock();
    const app = openMemoryHarness(dir, { embedder: null, clock });
    open.push(app);
    await app.memories.create({ content: 'Lives in Porto', category: 'knowledge', importance: 0.5, pinned: false });
    expect(await retrieve(app, 'Where did I live?')).toEqual(['Lives in Porto']);
    // "lived" is new to the index: the stem's words read for the search above must not hide it.
    await app.memories.create({ content: 'Lived in Lisbon until 2024', category: 'knowledge', importance: 0.5, pinned: false });
    expect((await retrieve(app, 'Where did I live?')).sort()).toEqual(['Lived in Lisbon until 2024', 'Lives in Porto']);

    // The CLI writes through its own connection to the same file while the app keeps its caches.
    const cli = openMemoryHarness(dir, { embedder: null, clock });
    open.push(cli);
    await cli.memories.create({ content: 'Living with two cats', category: 'knowledge', importance: 0.5, pinned: false });
    expect((await retrieve(app, 'Where did I live?')).sort()).toEqual(['Lived in Lisbon until 2024', 'Lives in Porto', 'Living with two cats']);
  });
});
