/**
 * Memories' row shapes, their mapping to the contract's Memory and MemoryVersion, and the filter/sort SQL fragments
 * the stores build lists with (memory.store.ts runs them). Writes are memory-writer.ts's, where versions, events, FTS
 * and vectors change together.
 */
import type { Memory, MemoryCategory, MemoryOrigin, MemoryStatus, MemoryVersion } from '../../../shared/contract';

/**
 * The stored status of a memory an unfinished import is writing (memory-import.ts): not a contract status, so no list,
 * search, retrieval, export or count that names the statuses it wants ever returns one; lookups by id or hash exclude
 * it explicitly. Publishing gives the row its own status; a failed or abandoned import deletes it.
 */
export const IMPORTING = 'importing';

export interface MemoryRow {
  id: number;
  content: string;
  content_hash: string;
  category: MemoryCategory;
  importance: number;
  confidence: number;
  pinned: number;
  status: MemoryStatus;
  source_thread_id: number | null;
  source_message_id: number | null;
  evidence: string | null;
  valid_from: number | null;
  expires_at: number | null;
  superseded_by: number | null;
  access_count: number;
  last_used_at: number | null;
  embedding_model: string | null;
  trashed_at: number | null;
  created_at: number;
  updated_at: number;
}

export function isExpired(expiresAt: number | null, now: number): boolean {
  return expiresAt !== null && expiresAt <= now;
}

export function toMemory(r: MemoryRow, now: number): Memory {
  return {
    id: r.id,
    content: r.content,
    category: r.category,
    importance: r.importance,
    confidence: r.confidence,
    pinned: r.pinned === 1,
    status: r.status,
    expired: isExpired(r.expires_at, now),
    sourceThreadId: r.source_thread_id,
    sourceMessageId: r.source_message_id,
    evidence: r.evidence,
    validFrom: r.valid_from,
    expiresAt: r.expires_at,
    supersededBy: r.superseded_by,
    accessCount: r.access_count,
    lastUsedAt: r.last_used_at,
    embeddingModel: r.embedding_model,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    trashedAt: r.trashed_at,
  };
}

export interface VersionRow {
  version: number;
  content: string;
  category: MemoryCategory;
  importance: number;
  pinned: number;
  status: MemoryStatus;
  expires_at: number | null;
  origin: MemoryOrigin;
  reason: string;
  created_at: number;
}

export function toVersion(v: VersionRow): MemoryVersion {
  return {
    version: v.version,
    content: v.content,
    category: v.category,
    importance: v.importance,
    pinned: v.pinned === 1,
    status: v.status,
    expiresAt: v.expires_at,
    origin: v.origin,
    reason: v.reason,
    createdAt: v.created_at,
  };
}

export interface MemoryFilters {
  categories?: MemoryCategory[] | undefined;
  /** Default: active only. */
  statuses?: MemoryStatus[] | undefined;
  pinned?: boolean | undefined;
  expired?: boolean | undefined;
  /** Inclusive. */
  createdFrom?: number | undefined;
  /** Exclusive. */
  createdTo?: number | undefined;
  sourceThreadId?: number | undefined;
  /** The user message a memory was learned from (extraction records the user's message, whose words are the evidence). */
  sourceMessageId?: number | undefined;
  /** Never these (e.g. memories the user excluded from a thread). */
  excludeIds?: ReadonlySet<number> | undefined;
  /** Learned within [from, to) (LEARNED_AT_SQL): a question's time (time/time-window.ts) or a tool's date range. */
  learnedWithin?: { from: number; to: number } | undefined;
}

/**
 * When a memory was learned: the time of the message it was learned from (what the user said, and when; a thread
 * imported with its history keeps its dates), else when it was written (by hand, imported, a summary).
 */
export const LEARNED_AT_SQL = 'COALESCE((SELECT lm.created_at FROM messages lm WHERE lm.id = m.source_message_id), m.created_at)';

export type MemorySortKey = 'importance' | 'created' | 'lastUsed' | 'accessCount';

/**
 * ORDER BY clauses, largest first, ties newest first. Each matches an index (status, column): rowid is an index's
 * implicit last column, so a backwards walk yields "column DESC, id DESC" without a sort. last_used_at NULLs
 * (never used) sort last.
 */
export const SORT_SQL: Record<MemorySortKey, string> = {
  importance: 'm.importance DESC, m.id DESC',
  created: 'm.created_at DESC, m.id DESC',
  lastUsed: 'm.last_used_at DESC, m.id DESC',
  accessCount: 'm.access_count DESC, m.id DESC',
};

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** WHERE conditions (joined by AND) over alias `m`, and their parameters in order. */
export function filterSql(f: MemoryFilters, now: number): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const statuses = f.statuses && f.statuses.length > 0 ? [...new Set(f.statuses)] : ['active'];
  where.push(statuses.length === 1 ? 'm.status = ?' : `m.status IN (${placeholders(statuses.length)})`);
  params.push(...statuses);
  if (f.categories && f.categories.length > 0) {
    const categories = [...new Set(f.categories)];
    where.push(`m.category IN (${placeholders(categories.length)})`);
    params.push(...categories);
  }
  if (f.pinned !== undefined) {
    where.push('m.pinned = ?');
    params.push(f.pinned ? 1 : 0);
  }
  if (f.expired === true) {
    where.push('m.expires_at IS NOT NULL AND m.expires_at <= ?');
    params.push(now);
  } else if (f.expired === false) {
    where.push('(m.expires_at IS NULL OR m.expires_at > ?)');
    params.push(now);
  }
  if (f.createdFrom !== undefined) {
    where.push('m.created_at >= ?');
    params.push(f.createdFrom);
  }
  if (f.createdTo !== undefined) {
    where.push('m.created_at < ?');
    params.push(f.createdTo);
  }
  if (f.sourceThreadId !== undefined) {
    where.push('m.source_thread_id = ?');
    params.push(f.sourceThreadId);
  }
  if (f.sourceMessageId !== undefined) {
    where.push('m.source_message_id = ?');
    params.push(f.sourceMessageId);
  }
  if (f.excludeIds && f.excludeIds.size > 0) {
    where.push(`m.id NOT IN (${[...f.excludeIds].map(() => '?').join(',')})`);
    params.push(...f.excludeIds);
  }
  if (f.learnedWithin) {
    // A memory is written after the message it was learned from, so created_at >= from holds for every match: it
    // lets the (status, created_at) index skip what is older before the per-row lookup of the source message.
    where.push(`m.created_at >= ? AND ${LEARNED_AT_SQL} >= ? AND ${LEARNED_AT_SQL} < ?`);
    params.push(f.learnedWithin.from, f.learnedWithin.from, f.learnedWithin.to);
  }
  return { where, params };
}
