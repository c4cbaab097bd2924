/**
 * The MCP clients store over a second connection to a data folder's database, as `mnemo mcp` (another process) has
 * it: how tests record an app's calls (seen, reads, writes) beside a running core without a real MCP client.
 */
import { openDatabase } from '../../electron/core/db/open-database';
import { createMcpClientsStore, type McpClientsStore } from '../../electron/core/mcp/mcp-clients.store';
import { systemClock, type Clock } from '../../electron/core/ports/clock.port';
import { derivePaths } from '../../electron/core/ports/paths.port';
import { createTimelineWriter } from '../../electron/core/db/timeline-writer';

/** `close()` ends the connection (the caller's, as with any database it opens). */
export function mcpStoreOver(dataDir: string, clock: Clock = systemClock): { store: McpClientsStore; close(): void } {
  const paths = derivePaths(dataDir);
  const db = openDatabase(paths.dbFile, { migrationsDir: paths.migrationsDir, now: () => clock.now() });
  return { store: createMcpClientsStore({ sqlite: db.sqlite, clock, timeline: createTimelineWriter({ sqlite: db.sqlite, clock }) }), close: () => db.close() };
}
