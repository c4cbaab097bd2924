/**
 * `mnemo mcp`: Mnemo's memory as an MCP server on stdio, for other AI apps (LM Studio, Claude Desktop, Jan, Cursor…)
 * to start; and `mnemo mcp clients`: which apps connected, and what each may do.
 *
 * While serving, stdout carries nothing but the protocol: the core logs to stderr (main.ts), and anything else
 * written to stdout is sent to stderr (takeStdoutForProtocol). The server ends when the app closes stdin or stops the process (SIGINT,
 * SIGTERM); then main.ts disposes the core (the database is closed cleanly).
 */
import type { Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { McpAccess, type McpClient } from '../../../shared/contract';
import { createMcpServer } from '../mcp-server';
import { createStderrLogger } from '../../core/ports/logger.port';
import { packageVersion } from '../../core/runtime/version';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { oneOf } from '../options';
import { UsageError } from '../parse';

function formatClients(clients: readonly McpClient[], time: CliContext['localTime']): string {
  const minute = (t: number | null) => (t === null ? 'never' : time(t));
  if (clients.length === 0) {
    return 'No app has used Mnemo’s memory yet. Add "mnemo mcp" to an app’s MCP servers (README: "Use Mnemo’s memory in other AI apps").';
  }
  const width = Math.max(...clients.map((c) => c.name.length));
  return clients
    .map((c) => {
      const may = c.access === 'off' ? 'off' : `${c.access}${c.conversations ? ' + conversations' : ''}`;
      return `${c.name.padEnd(width)}  ${may.padEnd(23)}  ${String(c.reads).padStart(5)} reads  ${String(c.writes).padStart(4)} writes  last ${minute(c.lastSeenAt)}`;
    })
    .join('\n');
}

/**
 * Stdout for the protocol alone: the transport gets the real write, and every other writer (console.log in this
 * process, a worker thread's output, which Node pipes into process.stdout) is sent to stderr. The SDK's transport uses
 * only write() and once('drain').
 */
function takeStdoutForProtocol(): Writable {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as (chunk: string) => boolean;
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  return { write: (chunk: string) => write(chunk), once: (event: string, listener: () => void) => stdout.once(event, listener) } as unknown as Writable;
}

/**
 * Serves until the app closes stdin or stops the process. The one command that owns its process (its stdout is the
 * protocol's, SIGTERM stops it), so it uses the process's streams, not ctx.io: it is tested as a real process.
 */
async function serve(ctx: CliContext): Promise<CliOutput> {
  const logger = createStderrLogger(ctx.io.env.MNEMO_LOG_LEVEL === 'debug' ? 'debug' : 'warn');
  const { server, whenIdle } = createMcpServer({ tools: ctx.core.mcpTools, version: packageVersion(), logger });
  const transport = new StdioServerTransport(process.stdin, takeStdoutForProtocol());
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    // The calls under way answer first: an app that sends a request and closes stdin still gets its answer.
    const stop = () => void whenIdle().then(() => server.close()).catch(() => resolve());
    process.stdin.once('end', stop);
    process.stdin.once('close', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.connect(transport);
  await closed;
  // Nothing for main.ts to print: stdout was the protocol's.
  return { ok: true, value: undefined, text: '' };
}

const CONVERSATIONS = ['on', 'off'] as const;

export const mcpCommands: CliCommand[] = [
  {
    words: ['mcp'],
    synopsis: 'mcp                     serve Mnemo’s memory to other AI apps over MCP (stdio): put this command in an app’s MCP settings',
    run: serve,
  },
  {
    words: ['mcp', 'clients'],
    synopsis: 'mcp clients             the apps that used Mnemo’s memory over MCP, and what each may do',
    async run({ client, localTime }) {
      const r = await client.call('mcp.clients.list', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: formatClients(r.value.clients, localTime) };
    },
  },
  {
    words: ['mcp', 'clients', 'set'],
    synopsis: 'mcp clients set NAME [read|write|off] [--conversations on|off]   what one app may do (quote a NAME with spaces)',
    options: { conversations: oneOf(CONVERSATIONS, 'whether it may also search your past conversations (never incognito ones)') },
    async run({ client, args, flags, localTime }) {
      const [name, access, ...rest] = args;
      if (name === undefined || rest.length > 0) throw new UsageError('Name one app, then read, write or off: mnemo mcp clients set "LM Studio" write');
      const parsed = access === undefined ? undefined : McpAccess.safeParse(access);
      if (parsed && !parsed.success) throw new UsageError(`Access is read, write or off (got "${access}").`);
      if (parsed === undefined && flags.conversations === undefined) throw new UsageError('Say what to change: read, write or off, and/or --conversations on|off.');
      const r = await client.call('mcp.clients.set', {
        name,
        ...(parsed?.success ? { access: parsed.data } : {}),
        ...(flags.conversations !== undefined ? { conversations: flags.conversations === 'on' } : {}),
      });
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: formatClients([r.value], localTime) };
    },
  },
];
