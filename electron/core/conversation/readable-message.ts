/**
 * The one "readable message" rule: which stored messages a model reads back as the conversation (prompt history,
 * summaries and their counts, episodes, working memory). A failed reply (status 'error'), a reply still being
 * written (status 'streaming': its text is not final), one of Mnemo's own notes (role 'system') and an empty row (a
 * reply stopped before its first word) are not part of what was said.
 *
 * Written twice on purpose, once for rows already read (isReadable) and once for SQL (READABLE_SQL), because some
 * readers walk a path in JavaScript (message-branches.ts pathUp) and others filter a range in SQL;
 * test/integration/conversation-stores.int.test.ts checks that both give the same answer on every kind of row.
 */
import type { Message } from '../../../shared/contract';

export interface ReadableFields {
  role: Message['role'] | string;
  status: Message['status'] | string;
  content: string;
}

export function isReadable(r: ReadableFields): boolean {
  return r.status !== 'error' && r.status !== 'streaming' && r.role !== 'system' && r.content !== '';
}

/** The rule as a SQL condition on a messages row aliased `alias`. */
export function readableSql(alias: string): string {
  return `${alias}.status NOT IN ('error', 'streaming') AND ${alias}.role != 'system' AND ${alias}.content != ''`;
}
