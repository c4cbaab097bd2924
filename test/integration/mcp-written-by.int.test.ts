/**
 * A memory an app wrote over MCP (`remember`) says so wherever its source is shown: memory.get's provenance, the review
 * inbox's item, `mnemo memory show`. The app is read from the memory's creating event, so it goes when the memory is
 * purged; an app that only said again what the user had told Mnemo is in the access log, not the provenance.
 * The same server as `mnemo mcp` (cli/mcp-server.ts) over the SDK's in-memory transport, on a real core.
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client as CoreClient } from '../../shared/client';
import type { Core } from '../../electron/core/create-core';
import { createMcpServer } from '../../electron/cli/mcp-server';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { runCliInProcess } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

describe('a memory an app wrote names the app', () => {
  const tempDir = useTempDirs();
  const open: Array<{ close(): Promise<void> } | Core> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await ('dispose' in o ? o.dispose() : o.close());
  });

  function start(): { core: Core; client: CoreClient; dir: string } {
    const dir = tempDir();
    const { core, client } = createTestCore(dir, { startQueue: false, embedder: createBagOfWordsEmbedder() });
    open.push(core);
    return { core, client, dir };
  }

  /** An app connected to the core as `mnemo mcp` serves it; `remember` answers with its text. */
  async function connect(core: Core, name: string) {
    const { server } = createMcpServer({ tools: core.mcpTools, version: '0.0.0', logger: silentLogger });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const mcp = new Client({ name, version: '1' });
    await mcp.connect(clientSide);
    open.push(mcp, server);
    return async (args: Record<string, unknown>) => {
      const result = CallToolResultSchema.parse(await mcp.callTool({ name: 'remember', arguments: args }));
      return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
    };
  }
  const idIn = (text: string) => Number(/memory (\d+)/.exec(text)?.[1]);

  it('memory.get and the review inbox name the app that wrote it; the user’s own memory names none', async () => {
    const { core, client } = start();
    unwrap(await client.call('mcp.clients.set', { name: 'Cursor', access: 'write' }));
    const cursor = await connect(core, 'Cursor');
    const kept = await cursor({ text: 'Uses Rust for work', user_words: 'At work I mostly use Rust these days', category: 'skill' });
    const detail = unwrap(await client.call('memory.get', { memoryId: idIn(kept) }));
    expect(detail.provenance.writtenBy).toEqual({ app: 'Cursor' });
    expect(detail.provenance.evidence).toBe('At work I mostly use Rust these days');

    // A read-only app's fact waits in review: the card says which app proposed it.
    const claude = await connect(core, 'Claude Desktop');
    expect(await claude({ text: 'Is allergic to peanuts', user_words: 'I am allergic to peanuts' })).toContain('review');
    const { items } = unwrap(await client.call('review.list', {}));
    expect(items.map((i) => [i.content, i.writtenBy])).toEqual([['Is allergic to peanuts', { app: 'Claude Desktop' }]]);

    // Approved, it is still the app's memory.
    unwrap(await client.call('review.approve', { memoryId: items[0]!.id }));
    expect(unwrap(await client.call('memory.get', { memoryId: items[0]!.id })).provenance.writtenBy).toEqual({ app: 'Claude Desktop' });

    // The user's memory, even one an app says again later, was not written by an app.
    const own = unwrap(await client.call('memory.create', { content: 'Lives in Porto' }));
    expect(await cursor({ text: 'Lives in Porto' })).toContain('already remembers');
    expect(unwrap(await client.call('memory.get', { memoryId: own.id })).provenance).not.toHaveProperty('writtenBy');
    expect(unwrap(await client.call('memory.access', { memoryId: own.id })).entries).toMatchObject([{ client: 'Cursor', writes: 1 }]);
  });

  it('mnemo memory show says which app wrote it, not a deleted thread', async () => {
    const { core, client, dir } = start();
    unwrap(await client.call('mcp.clients.set', { name: 'LM Studio', access: 'write' }));
    const lmStudio = await connect(core, 'LM Studio');
    const id = idIn(await lmStudio({ text: 'Uses Rust for work', user_words: 'At work I mostly use Rust these days' }));
    const show = await runCliInProcess(['memory', 'show', String(id), '--data-dir', dir], { MNEMO_MODELS_DIR: path.join(dir, 'no-models') });
    expect(show.code).toBe(0);
    expect(show.stdout).toMatch(/^source {6}written by LM Studio \(connected app\)$/m);
    expect(show.stdout).toMatch(/^evidence {4}"At work I mostly use Rust these days"$/m);
    expect(show.stdout).not.toContain('(deleted)');
  });

  it('goes with the memory when it is deleted for good: a memory written after it is not the app’s', async () => {
    const { core, client } = start();
    unwrap(await client.call('mcp.clients.set', { name: 'Cursor', access: 'write' }));
    const cursor = await connect(core, 'Cursor');
    const id = idIn(await cursor({ text: 'Uses Rust for work', user_words: 'At work I mostly use Rust these days' }));
    expect(unwrap(await client.call('memory.get', { memoryId: id })).provenance.writtenBy).toEqual({ app: 'Cursor' });
    unwrap(await client.call('memory.delete', { memoryId: id }));
    unwrap(await client.call('memory.purge', { memoryId: id }));
    const gone = await client.call('memory.get', { memoryId: id });
    expect(gone.ok ? null : gone.error.code).toBe('NOT_FOUND');
    // The creating event stays on the timeline without its memory (events never hold the user's text)...
    const { events } = unwrap(await client.call('timeline.list', { kinds: ['learned'] }));
    expect(events.map((e) => [e.memoryId, e.data.mcpClient])).toEqual([[null, 'Cursor']]);
    // ...so the user's next memory, whatever id it gets, is not attributed to the app.
    const next = unwrap(await client.call('memory.create', { content: 'Lives in Porto' }));
    expect(unwrap(await client.call('memory.get', { memoryId: next.id })).provenance).not.toHaveProperty('writtenBy');
  });
});
