import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT } from './run-cli';

export interface McpSession {
  client: Client;
  /** What the server wrote on stderr so far (logs; stdout is the protocol's). */
  stderr(): string;
  /** Calls a tool; the text of its answer and whether it is a tool error. */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; result: CallToolResult }>;
  close(): Promise<void>;
}

/**
 * `mnemo mcp` as an app starts it: a child process (the `mnemo` launcher, which runs the CLI bundle) driven by the
 * SDK's own client over stdio, connecting as `clientName`. No embedding model (an empty models folder): keyword search.
 */
export async function connectMnemoMcp(dataDir: string, clientName: string): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(ROOT, 'scripts', 'mnemo.mjs'), 'mcp', '--data-dir', dataDir],
    env: { ...(process.env as Record<string, string>), MNEMO_MODELS_DIR: path.join(dataDir, 'no-models') },
    cwd: ROOT,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const client = new Client({ name: clientName, version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    async call(name, args = {}) {
      const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
      const text = result.content.map((c: { type: string; text?: string }) => (c.type === 'text' ? (c.text ?? '') : '')).join('\n');
      return { text, isError: result.isError === true, result };
    },
    close: () => client.close(),
  };
}
