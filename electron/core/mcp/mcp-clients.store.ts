/**
 * The only writer of mcp_clients and mcp_memory_access: which apps used Mnemo's memory over MCP, what each may do, and
 * which memories each read or wrote.
 *
 * Invariants:
 * - A read records its tally and its one timeline event ('mcp_read', one per call, never one per memory) in one
 *   transaction with the client's count: the log never says more or less than what was given out.
 * - Access rows reference their memory and their client with ON DELETE CASCADE: a purged memory takes its log with it
 *   (and backup/backup-scrub.ts erases the rows from the backups).
 * - A memory given out but purged meanwhile is left out of the log (its row would fail the foreign key).
 */
import type { McpAccess, McpClient, McpMemoryAccess, TimelineEventData } from '../../../shared/contract';
import type { Sqlite } from '../db/open-database';
import { writeTransaction } from '../db/write-transaction';
import type { Clock } from '../ports/clock.port';
import type { TimelineWriter } from '../db/timeline-writer';

interface ClientRow {
  name: string;
  access: McpAccess;
  conversations: number;
  first_seen_at: number | null;
  last_seen_at: number | null;
  reads: number;
  writes: number;
}

const toClient = (r: ClientRow): McpClient => ({
  name: r.name,
  access: r.access,
  conversations: r.conversations === 1,
  firstSeenAt: r.first_seen_at,
  lastSeenAt: r.last_seen_at,
  reads: r.reads,
  writes: r.writes,
});

export type McpReadRecord = Omit<TimelineEventData<'mcp_read'>, 'client'>;

export interface McpClientsStore {
  get(name: string): McpClient | null;
  /** Most recently seen first; clients never seen (named by the user) last, by name. */
  list(): McpClient[];
  /** The client as it stands after this call was seen: registered with 'read' on its first. */
  seen(name: string): McpClient;
  /** Sets what the client may do; adds it (never seen) when unknown. */
  set(name: string, patch: { access?: McpAccess | undefined; conversations?: boolean | undefined }): McpClient;
  /** One read call: the client's count, each memory's tally, one timeline event. */
  recordRead(name: string, read: McpReadRecord): void;
  /** One write call (remember) that wrote or confirmed `memoryId`, inside the caller's transaction when there is one. */
  recordWrite(name: string, memoryId: number | null): void;
  /** One memory's access log, most recent first. */
  accessOf(memoryId: number): McpMemoryAccess[];
}

export function createMcpClientsStore(deps: { sqlite: Sqlite; clock: Clock; timeline: TimelineWriter }): McpClientsStore {
  const { sqlite, clock, timeline } = deps;
  const q = {
    get: sqlite.prepare('SELECT * FROM mcp_clients WHERE name = ?'),
    list: sqlite.prepare('SELECT * FROM mcp_clients ORDER BY last_seen_at IS NULL, last_seen_at DESC, name'),
    seen: sqlite.prepare(
      `INSERT INTO mcp_clients (name, access, first_seen_at, last_seen_at) VALUES (?, 'read', ?, ?)
       ON CONFLICT(name) DO UPDATE SET first_seen_at = coalesce(first_seen_at, excluded.first_seen_at), last_seen_at = excluded.last_seen_at`,
    ),
    add: sqlite.prepare(`INSERT OR IGNORE INTO mcp_clients (name, access) VALUES (?, 'read')`),
    setAccess: sqlite.prepare('UPDATE mcp_clients SET access = ? WHERE name = ?'),
    setConversations: sqlite.prepare('UPDATE mcp_clients SET conversations = ? WHERE name = ?'),
    countRead: sqlite.prepare('UPDATE mcp_clients SET reads = reads + 1 WHERE name = ?'),
    countWrite: sqlite.prepare('UPDATE mcp_clients SET writes = writes + 1 WHERE name = ?'),
    memoryExists: sqlite.prepare('SELECT 1 FROM memories WHERE id = ?').pluck(),
    tally: sqlite.prepare(
      `INSERT INTO mcp_memory_access (client, memory_id, reads, writes, last_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT(client, memory_id) DO UPDATE SET reads = reads + excluded.reads, writes = writes + excluded.writes, last_at = excluded.last_at`,
    ),
    accessOf: sqlite.prepare('SELECT client, reads, writes, last_at AS lastAt FROM mcp_memory_access WHERE memory_id = ? ORDER BY last_at DESC, client'),
  };
  const get = (name: string): McpClient | null => {
    const r = q.get.get(name) as ClientRow | undefined;
    return r ? toClient(r) : null;
  };
  const mustGet = (name: string): McpClient => get(name)!;
  return {
    get,
    list: () => (q.list.all() as ClientRow[]).map(toClient),
    seen(name) {
      return writeTransaction(sqlite, () => {
        const at = clock.now();
        q.seen.run(name, at, at);
        return mustGet(name);
      });
    },
    set(name, patch) {
      return writeTransaction(sqlite, () => {
        q.add.run(name);
        if (patch.access !== undefined) q.setAccess.run(patch.access, name);
        if (patch.conversations !== undefined) q.setConversations.run(patch.conversations ? 1 : 0, name);
        return mustGet(name);
      });
    },
    recordRead(name, read) {
      writeTransaction(sqlite, () => {
        const at = clock.now();
        q.countRead.run(name);
        const logged = read.memoryIds.filter((id) => q.memoryExists.get(id) !== undefined);
        for (const id of logged) q.tally.run(name, id, 1, 0, at);
        timeline.record('mcp_read', {}, { client: name, tool: read.tool, memoryIds: logged, items: read.items }, at);
      });
    },
    recordWrite(name, memoryId) {
      writeTransaction(sqlite, () => {
        q.countWrite.run(name);
        if (memoryId !== null) q.tally.run(name, memoryId, 0, 1, clock.now());
      });
    },
    accessOf: (memoryId) => q.accessOf.all(memoryId) as McpMemoryAccess[],
  };
}
