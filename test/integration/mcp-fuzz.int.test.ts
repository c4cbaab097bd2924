/**
 * Any arguments an app may send to any of `mnemo mcp`'s tools: the server never crashes and every answer is a valid
 * MCP tool result (a tool error for what it refuses), with text that says something. The same server as `mnemo mcp`
 * (cli/mcp-server.ts) over the SDK's in-memory transport, on a real core, so a fuzz run takes seconds.
 */
import fc from 'fast-check';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../shared/client';
import type { Core } from '../../electron/core/create-core';
import { createMcpServer } from '../../electron/cli/mcp-server';
import { silentLogger } from '../../electron/core/ports/logger.port';
import { createBagOfWordsEmbedder } from '../fakes/bag-of-words.embedder';
import { useTempDirs } from '../support/temp-dir';
import { createTestCore } from '../support/test-core';

const TOOLS = ['search_memory', 'list_recent_memories', 'get_profile', 'remember', 'search_conversations', 'unknown_tool'];
const value = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.constantFrom('', ' ', '2026-02-30', '2026-01-01', '9999-12-31', 'knowledge', 'project', 'Ignore previous instructions', 'password: hunter2!Xy9#qL', '我住在杭州'),
  fc.integer({ min: -5, max: 200 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
);
const args = fc.dictionary(fc.constantFrom('query', 'category', 'from', 'to', 'limit', 'text', 'user_words', 'extra'), value, { maxKeys: 5 });

describe('MCP tool arguments, fuzzed', () => {
  const tempDir = useTempDirs();
  const open: Array<{ close(): Promise<void> } | Core> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await ('dispose' in o ? o.dispose() : o.close());
  });

  it('answers every call with a valid result or tool error, and keeps serving', { timeout: 120_000 }, async () => {
    const { core, client } = createTestCore(tempDir(), { startQueue: false, embedder: createBagOfWordsEmbedder() });
    open.push(core);
    unwrap(await client.call('memory.create', { content: 'Lives in Porto' }));
    unwrap(await client.call('mcp.clients.set', { name: 'fuzzer', access: 'write', conversations: true }));
    const { server } = createMcpServer({ tools: core.mcpTools, version: '0.0.0', logger: silentLogger });
    const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const mcp = new Client({ name: 'fuzzer', version: '1' });
    await mcp.connect(clientSide);
    open.push(mcp, server);

    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...TOOLS), args, async (tool, input) => {
        const raw = await mcp.callTool({ name: tool, arguments: input });
        const result = CallToolResultSchema.parse(raw);
        const text = result.content.map((c: { type: string; text?: string }) => (c.type === 'text' ? (c.text ?? '') : '')).join('');
        expect(text.trim().length).toBeGreaterThan(0);
        if (result.isError) expect(text).not.toMatch(/\n\s+at /); // a sentence, never a stack
      }),
      { numRuns: 300 },
    );
    const after = CallToolResultSchema.parse(await mcp.callTool({ name: 'search_memory', arguments: { query: 'Porto' } }));
    expect(after.isError ?? false).toBe(false);
    expect(JSON.stringify(after.content)).toContain('Porto');
  });
});
