/**
 * The user's side of MCP through the contract (mcp.clients.*, memory.access) and the store that records what apps
 * read: a read is tallied per memory with one timeline event per call, and a purge takes a memory's log with it, here
 * and in the backups.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../shared/client';
import type { Core } from '../../electron/core/create-core';
import { derivePaths } from '../../electron/core/ports/paths.port';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { mcpStoreOver } from '../support/mcp-store-over';
import { createTestClock } from '../support/memory-harness';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

describe('MCP clients and the memory access log', () => {
  const tempDir = useTempDirs();
  const open: Array<{ close(): void } | Core> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await ('dispose' in o ? o.dispose() : o.close());
  });

  function start(): { core: Core; client: Client; dir: string; clock: ReturnType<typeof createTestClock> } {
    const dir = tempDir();
    const clock = createTestClock();
    const { core, client } = createTestCore(dir, { startQueue: false, embedder: createBagOfWordsEmbedder(), clock });
    open.push(core);
    return { core, client, dir, clock };
  }

  /** The store over a second connection, as `mnemo mcp` (another process) has it. */
  function storeOver(dir: string, clock: ReturnType<typeof createTestClock>) {
    const over = mcpStoreOver(dir, clock);
    open.push(over);
    return over.store;
  }

  it('names an app before its first call, then keeps what the user set when it calls', async () => {
    const { client, dir, clock } = start();
    const named = unwrap(await client.call('mcp.clients.set', { name: 'LM Studio', access: 'off' }));
    expect(named).toEqual({ name: 'LM Studio', access: 'off', conversations: false, firstSeenAt: null, lastSeenAt: null, reads: 0, writes: 0 });
    const store = storeOver(dir, clock);
    clock.advance(1000);
    const seen = store.seen('LM Studio');
    expect(seen.access).toBe('off');
    expect(seen.firstSeenAt).toBe(clock.now());
    expect(store.seen('Claude Desktop').access).toBe('read');
    const { clients } = unwrap(await client.call('mcp.clients.list', {}));
    expect(clients.map((c) => c.name).sort()).toEqual(['Claude Desktop', 'LM Studio']);
  });

  it('refuses a set that changes nothing, an empty name and an unknown access', async () => {
    const { client } = start();
    for (const input of [{ name: 'Jan' }, { name: '  ', access: 'read' }, { name: 'Jan', access: 'admin' }]) {
      const res = await client.call('mcp.clients.set', input as never);
      expect(res.ok ? null : res.error.code).toBe('INVALID_INPUT');
    }
  });

  it('tallies reads per memory with one timeline event per call, and a purge takes the log with it, backups too', async () => {
    const { client, dir, clock } = start();
    const a = unwrap(await client.call('memory.create', { content: 'Lives in Porto' }));
    const b = unwrap(await client.call('memory.create', { content: 'Likes green tea' }));
    const store = storeOver(dir, clock);
    store.seen('Jan');
    store.recordRead('Jan', { tool: 'search_memory', memoryIds: [a.id, b.id], items: 2 });
    clock.advance(5000);
    store.recordRead('Jan', { tool: 'list_recent_memories', memoryIds: [a.id], items: 1 });
    store.recordWrite('Jan', b.id);

    expect(unwrap(await client.call('memory.access', { memoryId: a.id })).entries).toEqual([{ client: 'Jan', reads: 2, writes: 0, lastAt: clock.now() }]);
    expect(unwrap(await client.call('memory.access', { memoryId: b.id })).entries).toEqual([{ client: 'Jan', reads: 1, writes: 1, lastAt: clock.now() }]);
    const { events } = unwrap(await client.call('timeline.list', { kinds: ['mcp_read'] }));
    expect(events.map((e) => e.data)).toEqual([
      { client: 'Jan', tool: 'list_recent_memories', memoryIds: [a.id], items: 1 },
      { client: 'Jan', tool: 'search_memory', memoryIds: [a.id, b.id], items: 2 },
    ]);
    const [jan] = unwrap(await client.call('mcp.clients.list', {})).clients;
    expect(jan).toMatchObject({ reads: 2, writes: 1 });

    const backup = unwrap(await client.call('db.backup', {})).path;
    unwrap(await client.call('memory.purge', { memoryId: a.id }));
    expect((await client.call('memory.access', { memoryId: a.id })).ok).toBe(false);
    const rows = (file: string) => {
      const db = new Database(file, { readonly: true, fileMustExist: true });
      try {
        return db.prepare('SELECT memory_id FROM mcp_memory_access ORDER BY memory_id').pluck().all();
      } finally {
        db.close();
      }
    };
    expect(rows(derivePaths(dir).dbFile)).toEqual([b.id]);
    expect(rows(backup)).toEqual([b.id]);
  });

  it('leaves a memory purged before its read was recorded out of the log', async () => {
    const { client, dir, clock } = start();
    const a = unwrap(await client.call('memory.create', { content: 'Plays the cello' }));
    unwrap(await client.call('memory.purge', { memoryId: a.id }));
    const store = storeOver(dir, clock);
    store.seen('Jan');
    store.recordRead('Jan', { tool: 'search_memory', memoryIds: [a.id], items: 1 });
    const { events } = unwrap(await client.call('timeline.list', { kinds: ['mcp_read'] }));
    expect(events[0]!.data).toMatchObject({ memoryIds: [] });
  });
});
