/**
 * The relational schema of the whole product, as drizzle tables. drizzle-kit generates drizzle/*.sql from this file;
 * the FTS5 and vec0 virtual tables live in custom migrations beside them (drizzle cannot describe them).
 *
 * Conventions: integer ids; times are integer milliseconds since the epoch (UTC); booleans are 0/1 integers.
 * Status and kind columns carry CHECK constraints so a bug cannot write a value the product does not know.
 *
 * Data access: services do not query through drizzle. They use raw SQL through better-sqlite3, each statement
 * prepared once when the service is built, with its row type beside it (columns as SQLite returns them), mapped to
 * the contract type in one function. Most queries need what a query builder cannot express or hides (FTS5 MATCH,
 * vec0 KNN, RETURNING, INSERT … SELECT, index-friendly forms); hot paths should not rebuild SQL on every call; and
 * one style shows the reader the SQL SQLite actually runs (the builder, when threads used it, produced an
 * unqualified subquery column that silently meant the wrong table). drizzle keeps what it does best: this file
 * declares the tables, drizzle-kit generates drizzle/ from it, and test/integration/schema-drift.int.test.ts fails
 * when the two disagree.
 */
import { sql } from 'drizzle-orm';
import { blob, check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { AnySQLiteColumn } from 'drizzle-orm/sqlite-core';

export const threads = sqliteTable(
  'threads',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    title: text('title').notNull().default(''),
    /** 'auto' when generated from the first exchange, 'user' once the user renamed it; null until either. */
    titleSource: text('title_source'),
    incognito: integer('incognito', { mode: 'boolean' }).notNull().default(false),
    /** The chat model the user chose for this thread (thread.setModel, chat.send's model); null: the chatModel setting. */
    model: text('model'),
    /** The thread's own system prompt (thread.setInstructions), added after the global one; null: none. Never extracted from. */
    instructions: text('instructions'),
    /**
     * The last message of the branch the user sees (conversation/message-branches.ts): the conversation is the chain from it up
     * through parent_id. Null: the thread's newest message. A plain integer, not a foreign key: only the messages repo
     * writes it, and a declared reference between threads and messages both ways would make every change rebuild both.
     */
    activeLeafId: integer('active_leaf_id'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    lastActivityAt: integer('last_activity_at').notNull(),
  },
  (t) => [
    index('threads_last_activity_idx').on(t.lastActivityAt),
    check('threads_title_source_chk', sql`${t.titleSource} IS NULL OR ${t.titleSource} IN ('auto','user')`),
  ],
);

export const messages = sqliteTable(
  'messages',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    threadId: integer('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    content: text('content').notNull(),
    /** Reasoning text of thinking models: shown folded, never fed to summaries or extraction. */
    thinking: text('thinking').notNull().default(''),
    /** complete | streaming | stopped (by the user) | error | truncated (done_reason "length"). */
    status: text('status').notNull().default('complete'),
    errorCode: text('error_code'),
    model: text('model'),
    promptTokens: integer('prompt_tokens'),
    completionTokens: integer('completion_tokens'),
    /** Our own estimate, kept so prompt assembly never re-counts old messages. */
    estimatedTokens: integer('estimated_tokens').notNull().default(0),
    totalDurationMs: integer('total_duration_ms'),
    loadDurationMs: integer('load_duration_ms'),
    evalDurationMs: integer('eval_duration_ms'),
    /** A user message's attached files as the model sees them: JSON [{name, text}], text already extracted (null: none). */
    attachments: text('attachments'),
    /**
     * The message this one follows (conversation/message-branches.ts); null: the first of its thread. Siblings (same parent)
     * are versions: an edited question, a regenerated answer. A plain integer, not a foreign key: adding one would
     * rebuild this table (SQLite), and messages are only removed as leaves (chat.retry), which moves nothing under them.
     */
    parentId: integer('parent_id'),
    /**
     * While status is 'streaming': the process writing the reply, as a lease owner (jobs/lease-owner.ts), with
     * updated_at as its heartbeat, so every process on the data folder knows a reply is being written in the thread
     * and whether its writer is gone (chat/reply-writer.ts). Null otherwise.
     */
    writer: text('writer'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('messages_thread_idx').on(t.threadId, t.id),
    index('messages_parent_idx').on(t.threadId, t.parentId),
    // Replies being written: each reply's check (chat/reply-writer.ts) and each start read them without a scan.
    index('messages_streaming_idx').on(t.threadId).where(sql`${t.status} = 'streaming'`),
    check('messages_role_chk', sql`${t.role} IN ('user','assistant','system')`),
    check('messages_status_chk', sql`${t.status} IN ('complete','streaming','stopped','error','truncated')`),
  ],
);

/**
 * What the model saw for one answer (chat/prompt-context.ts): the system text without memories, the ids of the
 * memories, whether the summary was in, how many recent messages, and tokens per part against the budget. Counts and
 * ids only, never a copy of the messages: a row is a few hundred bytes plus the instructions it carried.
 */
export const messageContexts = sqliteTable('message_contexts', {
  messageId: integer('message_id')
    .primaryKey()
    .references(() => messages.id, { onDelete: 'cascade' }),
  /** JSON, validated by PromptContext (shared/contract/chat.contract.ts) when read. */
  breakdown: text('breakdown').notNull(),
});

export const threadSummaries = sqliteTable('thread_summaries', {
  threadId: integer('thread_id')
    .primaryKey()
    .references(() => threads.id, { onDelete: 'cascade' }),
  content: text('content').notNull(),
  /** The summary covers messages with id in [fromMessageId, toMessageId] of its thread. */
  fromMessageId: integer('from_message_id'),
  toMessageId: integer('to_message_id'),
  coveredCount: integer('covered_count').notNull().default(0),
  /** Messages after toMessageId not yet folded in because the background model failed; shown as a marker. */
  pendingCount: integer('pending_count').notNull().default(0),
  editedByUser: integer('edited_by_user', { mode: 'boolean' }).notNull().default(false),
  updatedAt: integer('updated_at').notNull(),
});

/** The user's profile: one row (id 1). source_hash: the memories the last refresh read, so an unchanged set is not rewritten. */
export const userProfile = sqliteTable(
  'user_profile',
  {
    id: integer('id').primaryKey(),
    content: text('content').notNull(),
    editedByUser: integer('edited_by_user', { mode: 'boolean' }).notNull().default(false),
    sourceHash: text('source_hash'),
    /**
     * What each line was written from (profile/profile-lines.ts ProfileSources, JSON): the memories the rewrite read,
     * and per line the memories it draws on. A purge removes the lines of a purged memory with it. Null: a profile
     * written before sources were kept (a purge then goes by the words lines share with the purged memory).
     */
    sources: text('sources'),
    memoryCount: integer('memory_count').notNull().default(0),
    updatedAt: integer('updated_at').notNull(),
    refreshedAt: integer('refreshed_at'),
  },
  (t) => [check('user_profile_single_row_chk', sql`${t.id} = 1`)],
);

/**
 * Working memory of a thread (chat/working-memory/): its current focus, one row per thread, and its tasks, one row
 * each. Two tables rather than one JSON column so that a user's edit of one task and the model's update of another
 * are row writes that cannot overwrite each other, each task keeps its own "edited by user" flag and expiry, and
 * expired rows are dropped by one DELETE. Both cascade with the thread.
 */
export const threadFocus = sqliteTable('thread_focus', {
  threadId: integer('thread_id')
    .primaryKey()
    .references(() => threads.id, { onDelete: 'cascade' }),
  /** One or two sentences; '' when there is none. */
  focus: text('focus').notNull().default(''),
  focusEditedByUser: integer('focus_edited_by_user', { mode: 'boolean' }).notNull().default(false),
  /** When the focus stops being shown and sent (renewed by each write of it); null: no focus. */
  focusExpiresAt: integer('focus_expires_at'),
  /** The last message the background model has read for this thread (0: none). */
  throughMessageId: integer('through_message_id').notNull().default(0),
  updatedAt: integer('updated_at').notNull(),
});

export const threadFocusTasks = sqliteTable(
  'thread_focus_tasks',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    threadId: integer('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    /** open | in_progress | done */
    state: text('state').notNull().default('open'),
    /** low | normal | high: how long the task is kept without news (working-memory-rules.ts). */
    importance: text('importance').notNull().default('normal'),
    /** The user wrote or edited the text: the model may change the state, never the text. */
    editedByUser: integer('edited_by_user', { mode: 'boolean' }).notNull().default(false),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    expiresAt: integer('expires_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    index('thread_focus_tasks_thread_idx').on(t.threadId, t.id),
    index('thread_focus_tasks_expires_idx').on(t.expiresAt),
    check('thread_focus_tasks_state_chk', sql`${t.state} IN ('open','in_progress','done')`),
    check('thread_focus_tasks_importance_chk', sql`${t.importance} IN ('low','normal','high')`),
  ],
);

export const memories = sqliteTable(
  'memories',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    content: text('content').notNull(),
    /** Hash of the normalized content: exact-duplicate detection and "rejected before" lookups. */
    contentHash: text('content_hash').notNull(),
    category: text('category').notNull(),
    importance: real('importance').notNull().default(0.5),
    confidence: real('confidence').notNull().default(1),
    pinned: integer('pinned', { mode: 'boolean' }).notNull().default(false),
    /** active | archived | trashed | superseded | review (waiting in the inbox) | rejected (remembered so it is not proposed
     * again) | importing (written by an import that has not finished: invisible, see importBatch). */
    status: text('status').notNull().default('active'),
    sourceThreadId: integer('source_thread_id').references(() => threads.id, { onDelete: 'set null' }),
    sourceMessageId: integer('source_message_id').references(() => messages.id, { onDelete: 'set null' }),
    /** A short quote of the user's words that justified the memory. */
    evidence: text('evidence'),
    validFrom: integer('valid_from'),
    expiresAt: integer('expires_at'),
    supersededBy: integer('superseded_by').references((): AnySQLiteColumn => memories.id, { onDelete: 'set null' }),
    accessCount: integer('access_count').notNull().default(0),
    lastUsedAt: integer('last_used_at'),
    /** The model that made this memory's vector; null while it has none (keyword search still finds it). */
    embeddingModel: text('embedding_model'),
    trashedAt: integer('trashed_at'),
    /**
     * Set while an import is being written in slices (memory-import.ts): the row then has status 'importing', which no
     * read asks for, until the import publishes it. Names the importing process (lease-owner.ts) and the import.
     */
    importBatch: text('import_batch'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('memories_status_idx').on(t.status, t.category),
    index('memories_import_batch_idx').on(t.importBatch).where(sql`${t.importBatch} IS NOT NULL`),
    index('memories_hash_idx').on(t.contentHash),
    index('memories_created_idx').on(t.createdAt),
    index('memories_source_thread_idx').on(t.sourceThreadId),
    index('memories_source_message_idx').on(t.sourceMessageId),
    index('memories_superseded_idx').on(t.supersededBy),
    // The memory browser lists one status sorted by one of these at 100k rows: each sort walks its index
    // (rowid is the implicit last column, so ties break by id) instead of sorting the whole status.
    index('memories_status_importance_idx').on(t.status, t.importance),
    index('memories_status_created_idx').on(t.status, t.createdAt),
    index('memories_status_last_used_idx').on(t.status, t.lastUsedAt),
    index('memories_status_access_idx').on(t.status, t.accessCount),
    index('memories_status_pinned_idx').on(t.status, t.pinned),
    index('memories_embedding_model_idx').on(t.embeddingModel),
    check('memories_category_chk', sql`${t.category} IN ('knowledge','preference','project','skill')`),
    check('memories_status_chk', sql`${t.status} IN ('active','archived','trashed','superseded','review','rejected','importing')`),
    check('memories_importance_chk', sql`${t.importance} >= 0 AND ${t.importance} <= 1`),
    check('memories_confidence_chk', sql`${t.confidence} >= 0 AND ${t.confidence} <= 1`),
  ],
);

export const memoryVersions = sqliteTable(
  'memory_versions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    memoryId: integer('memory_id')
      .notNull()
      .references(() => memories.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    content: text('content').notNull(),
    category: text('category').notNull(),
    importance: real('importance').notNull(),
    pinned: integer('pinned', { mode: 'boolean' }).notNull(),
    status: text('status').notNull(),
    expiresAt: integer('expires_at'),
    /** user | extraction | maintenance | import */
    origin: text('origin').notNull(),
    /** Why the change happened, e.g. 'created', 'edited', 'merged', 'superseded', 'decayed', 'reverted'. */
    reason: text('reason').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('memory_versions_memory_version_uq').on(t.memoryId, t.version),
    check('memory_versions_origin_chk', sql`${t.origin} IN ('user','extraction','maintenance','import')`),
  ],
);

/**
 * Episodes (electron/core/episodes/): what one stretch of a thread was about, written by the background model when
 * the thread went quiet. A stretch is the thread's messages with no gap longer than the quiet time
 * (episode-stretch.ts); one episode per stretch, rewritten while the stretch goes on. Their own table, not a memory
 * category: memories' category CHECK admits four categories, and rebuilding that table to add one is a risk the
 * episodes do not need. Full-text entries in episodes_fts (custom migration), removed by a trigger with the row.
 */
export const episodes = sqliteTable(
  'episodes',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    threadId: integer('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    /** One line: what the stretch was about (the model's first line, or the user's). */
    title: text('title').notNull().default(''),
    content: text('content').notNull(),
    /** The stretch: its first and last message (ids of the thread) and their times. */
    fromMessageId: integer('from_message_id').notNull(),
    toMessageId: integer('to_message_id').notNull(),
    startedAt: integer('started_at').notNull(),
    endedAt: integer('ended_at').notNull(),
    /** The text is (or builds on) the user's own edit: a rewrite keeps it as its base. */
    editedByUser: integer('edited_by_user', { mode: 'boolean' }).notNull().default(false),
    /** active | trashed (episode.delete; delete forever removes the row). */
    status: text('status').notNull().default('active'),
    /** The current version in episode_versions. */
    version: integer('version').notNull().default(1),
    trashedAt: integer('trashed_at'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
  },
  (t) => [
    index('episodes_thread_idx').on(t.threadId, t.fromMessageId),
    index('episodes_status_ended_idx').on(t.status, t.endedAt),
    check('episodes_status_chk', sql`${t.status} IN ('active','trashed')`),
  ],
);

/** Every text an episode has had: each model rewrite and each user edit, so any can be brought back (episode.revert). */
export const episodeVersions = sqliteTable(
  'episode_versions',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    episodeId: integer('episode_id')
      .notNull()
      .references(() => episodes.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    /** model | user */
    origin: text('origin').notNull(),
    /** written | rewritten | edited | reverted */
    reason: text('reason').notNull(),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('episode_versions_episode_version_uq').on(t.episodeId, t.version),
    check('episode_versions_origin_chk', sql`${t.origin} IN ('model','user')`),
  ],
);

export const messageMemories = sqliteTable(
  'message_memories',
  {
    messageId: integer('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    memoryId: integer('memory_id')
      .notNull()
      .references(() => memories.id, { onDelete: 'cascade' }),
    score: real('score').notNull(),
    /** pinned | semantic | keyword | recency */
    reason: text('reason').notNull(),
    rank: integer('rank').notNull(),
    /** The message's words the memory holds, as the message writes them (JSON array; text/matched-words.ts), or null. */
    matched: text('matched'),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.memoryId] }),
    index('message_memories_memory_idx').on(t.memoryId),
    check('message_memories_reason_chk', sql`${t.reason} IN ('pinned','semantic','keyword','recency')`),
  ],
);

/** Every kind of background job (job-payloads.ts): the durable queue of jobs/job-queue.ts. Named extraction_jobs before 0007. */
export const jobs = sqliteTable(
  'jobs',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** job-payloads.ts; the CHECK also admits kinds reserved for the memory layers of #14 (episode, focus, consolidate) */
    kind: text('kind').notNull(),
    /** e.g. "extract:<assistant message id>:v1": a crash can neither lose nor double a job. */
    idempotencyKey: text('idempotency_key').notNull(),
    threadId: integer('thread_id').references(() => threads.id, { onDelete: 'cascade' }),
    messageId: integer('message_id').references(() => messages.id, { onDelete: 'cascade' }),
    payload: text('payload').notNull().default('{}'),
    /** queued | running | done | dead | cancelled */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAfter: integer('run_after').notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: integer('lease_expires_at'),
    /** Incremented at every claim; a write is accepted only with the token of the current claim. */
    fencingToken: integer('fencing_token').notNull().default(0),
    lastErrorCode: text('last_error_code'),
    lastErrorMessage: text('last_error_message'),
    createdAt: integer('created_at').notNull(),
    updatedAt: integer('updated_at').notNull(),
    finishedAt: integer('finished_at'),
  },
  (t) => [
    uniqueIndex('jobs_idempotency_uq').on(t.idempotencyKey),
    index('jobs_ready_idx').on(t.status, t.runAfter),
    index('jobs_thread_idx').on(t.threadId),
    index('jobs_message_idx').on(t.messageId),
    check('jobs_kind_chk', sql`${t.kind} IN ('extract','summarize','title','reembed','profile','episode','focus','consolidate')`),
    check('jobs_status_chk', sql`${t.status} IN ('queued','running','done','dead','cancelled')`),
  ],
);

export const events = sqliteTable(
  'events',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** One of TimelineEventKind (shared/contract/timeline.contract.ts); written only by db/timeline-writer.ts. */
    kind: text('kind').notNull(),
    memoryId: integer('memory_id').references(() => memories.id, { onDelete: 'set null' }),
    threadId: integer('thread_id').references(() => threads.id, { onDelete: 'set null' }),
    messageId: integer('message_id').references(() => messages.id, { onDelete: 'set null' }),
    category: text('category'),
    /** Small JSON facts (ids, counts, version numbers). Never the user's text: a purge must leave no trace here. */
    data: text('data').notNull().default('{}'),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [index('events_created_idx').on(t.createdAt), index('events_memory_idx').on(t.memoryId), index('events_kind_idx').on(t.kind, t.createdAt)],
);

export const settings = sqliteTable('settings', {
  key: text('key').primaryKey(),
  /** JSON-encoded value, validated against the settings schema in shared/ on read and write. */
  value: text('value').notNull(),
  updatedAt: integer('updated_at').notNull(),
});

/**
 * The point memory_vector_bits is quantized around (one bit per dimension: the sign of vector - center), kept by
 * electron/core/memory/vector-index.ts. One row; `vector` is float32 little-endian with the vector tables' dimension.
 * `basis` is how many vectors the center is the mean of (0: the zero vector, i.e. plain signs).
 */
export const memoryVectorCenter = sqliteTable(
  'memory_vector_center',
  {
    id: integer('id').primaryKey(),
    vector: blob('vector', { mode: 'buffer' }).notNull(),
    basis: integer('basis').notNull(),
  },
  (t) => [check('memory_vector_center_one_row_chk', sql`${t.id} = 1`)],
);

/** "Do not use in this thread": memories the user excluded from one thread's prompts (from an answer's receipt). */
export const threadMemoryExclusions = sqliteTable(
  'thread_memory_exclusions',
  {
    threadId: integer('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    memoryId: integer('memory_id')
      .notNull()
      .references(() => memories.id, { onDelete: 'cascade' }),
    createdAt: integer('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.threadId, t.memoryId] }), index('thread_memory_exclusions_memory_idx').on(t.memoryId)],
);

/**
 * Other AI apps that reached Mnemo's memory over MCP (electron/core/mcp/), one row per client name as the app gives it
 * (`clientInfo.name`), with what the user allows it: 'read' (the default on its first call), 'write' (what it
 * remembers lands as a memory, not in the review inbox) or 'off'; `conversations`: it may search past conversations.
 * `reads` and `writes` count its calls. Written by mcp/mcp-clients.store.ts only.
 */
export const mcpClients = sqliteTable(
  'mcp_clients',
  {
    name: text('name').primaryKey(),
    access: text('access').notNull().default('read'),
    conversations: integer('conversations', { mode: 'boolean' }).notNull().default(false),
    /** Null while the user named it (to allow or switch it off) before it ever called. */
    firstSeenAt: integer('first_seen_at'),
    lastSeenAt: integer('last_seen_at'),
    reads: integer('reads').notNull().default(0),
    writes: integer('writes').notNull().default(0),
  },
  (t) => [check('mcp_clients_access_chk', sql`${t.access} IN ('read','write','off')`)],
);

/**
 * Which MCP client read or wrote which memory, how many times, and when last: the memory's access log. Rows go with
 * their memory (a purge cascades here, and backup/backup-scrub.ts deletes them from the backups) and with their client.
 * Written by mcp/mcp-clients.store.ts only.
 */
export const mcpMemoryAccess = sqliteTable(
  'mcp_memory_access',
  {
    client: text('client')
      .notNull()
      .references(() => mcpClients.name, { onDelete: 'cascade' }),
    memoryId: integer('memory_id')
      .notNull()
      .references(() => memories.id, { onDelete: 'cascade' }),
    reads: integer('reads').notNull().default(0),
    writes: integer('writes').notNull().default(0),
    lastAt: integer('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.client, t.memoryId] }), index('mcp_memory_access_memory_idx').on(t.memoryId)],
);
