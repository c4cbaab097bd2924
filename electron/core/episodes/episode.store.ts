/**
 * The one writer of episodes, episode_versions and episodes_fts (drizzle/0014). Every change of an episode's text
 * writes a version and its full-text entry in the caller's transaction; a row deleted (delete forever, or with its
 * thread) takes its entry with it by the migration's trigger, and its versions by the foreign key.
 */
import type { Episode, EpisodeVersion } from '../../../shared/contract';
import { forgetEpisodesInRecords } from '../conversation/prompt-record-scrub';
import { checkpointAfterPurge } from '../db/checkpoint-after-purge';
import type { Sqlite } from '../db/open-database';
import { writeTransaction } from '../db/write-transaction';
import type { Logger } from '../ports/logger.port';
import { createKeywordIndex } from '../search/keyword-index';
import { toFtsDocument } from '../text/fts-text';
import { episodeText } from './episode-prompt';

interface Row {
  id: number;
  thread_id: number;
  thread_title: string;
  title: string;
  content: string;
  from_message_id: number;
  to_message_id: number;
  started_at: number;
  ended_at: number;
  edited_by_user: number;
  status: Episode['status'];
  version: number;
  created_at: number;
  updated_at: number;
}

interface VersionRow {
  version: number;
  title: string;
  content: string;
  origin: EpisodeVersion['origin'];
  reason: EpisodeVersion['reason'];
  created_at: number;
}

function toEpisode(r: Row): Episode {
  return {
    id: r.id,
    threadId: r.thread_id,
    threadTitle: r.thread_title,
    title: r.title,
    content: r.content,
    fromMessageId: r.from_message_id,
    toMessageId: r.to_message_id,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    editedByUser: r.edited_by_user === 1,
    status: r.status,
    version: r.version,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

const SELECT = 'SELECT e.*, t.title AS thread_title FROM episodes AS e JOIN threads AS t ON t.id = e.thread_id';

/** The model's text for a stretch. */
export interface EpisodeDraft {
  threadId: number;
  title: string;
  content: string;
  fromMessageId: number;
  toMessageId: number;
  startedAt: number;
  endedAt: number;
}

export function createEpisodeStore(sqlite: Sqlite) {
  const q = {
    byId: sqlite.prepare(`${SELECT} WHERE e.id = ?`),
    // The episode of a stretch: the one whose messages overlap it (a stretch only grows, so at most one does).
    forStretch: sqlite.prepare(`${SELECT} WHERE e.thread_id = ? AND e.from_message_id <= ? AND e.to_message_id >= ? ORDER BY e.id DESC LIMIT 1`),
    page: sqlite.prepare(
      `${SELECT} WHERE e.status = @status AND (@threadId IS NULL OR e.thread_id = @threadId)
         AND (@endedAt IS NULL OR e.ended_at < @endedAt OR (e.ended_at = @endedAt AND e.id < @id))
       ORDER BY e.ended_at DESC, e.id DESC LIMIT @limit`,
    ),
    // Episodes that overlap a window, newest first: a question's time, or a tool's date range.
    within: sqlite.prepare(`${SELECT} WHERE e.status = 'active' AND e.started_at < @to AND e.ended_at >= @from ORDER BY e.ended_at DESC, e.id DESC LIMIT @limit`),
    versions: sqlite.prepare('SELECT version, title, content, origin, reason, created_at FROM episode_versions WHERE episode_id = ? ORDER BY version DESC'),
    version: sqlite.prepare('SELECT version, title, content, origin, reason, created_at FROM episode_versions WHERE episode_id = ? AND version = ?'),
    insert: sqlite.prepare(
      `INSERT INTO episodes (thread_id, title, content, from_message_id, to_message_id, started_at, ended_at, edited_by_user, status, version, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, 'active', 1, ?, ?) RETURNING id`,
    ),
    rewrite: sqlite.prepare(
      `UPDATE episodes SET title = ?, content = ?, from_message_id = ?, to_message_id = ?, started_at = ?, ended_at = ?, version = version + 1, updated_at = ?
       WHERE id = ? RETURNING version`,
    ),
    edit: sqlite.prepare('UPDATE episodes SET title = ?, content = ?, edited_by_user = 1, version = version + 1, updated_at = ? WHERE id = ? RETURNING version'),
    status: sqlite.prepare('UPDATE episodes SET status = ?, trashed_at = ?, updated_at = ? WHERE id = ?'),
    remove: sqlite.prepare('DELETE FROM episodes WHERE id = ?'),
    addVersion: sqlite.prepare('INSERT INTO episode_versions (episode_id, version, title, content, origin, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    ftsDelete: sqlite.prepare('DELETE FROM episodes_fts WHERE rowid = ?'),
    ftsInsert: sqlite.prepare('INSERT INTO episodes_fts (rowid, body) VALUES (?, ?)'),
    // A contentless-delete DELETE writes a tombstone; merging is what takes a purged episode's words off the disk.
    ftsOptimize: sqlite.prepare("INSERT INTO episodes_fts (episodes_fts) VALUES ('optimize')"),
  };
  const keywords = createKeywordIndex(sqlite, { fts: 'episodes_fts', documents: 'episodes' });

  function get(id: number): Episode | null {
    const r = q.byId.get(id) as Row | undefined;
    return r ? toEpisode(r) : null;
  }

  function index(id: number, text: { title: string; content: string }): void {
    q.ftsDelete.run(id);
    q.ftsInsert.run(id, toFtsDocument(episodeText(text)));
    keywords.changed();
  }

  return {
    get,
    keywords,
    forStretch: (threadId: number, firstId: number, lastId: number): Episode | null => {
      const r = q.forStretch.get(threadId, lastId, firstId) as Row | undefined;
      return r ? toEpisode(r) : null;
    },
    page(input: { status: Episode['status']; threadId: number | null; after: { endedAt: number; id: number } | null; limit: number }): Episode[] {
      const rows = q.page.all({ status: input.status, threadId: input.threadId, endedAt: input.after?.endedAt ?? null, id: input.after?.id ?? null, limit: input.limit }) as Row[];
      return rows.map(toEpisode);
    },
    /** Active episodes that overlap [from, to), newest first. */
    within: (window: { from: number; to: number }, limit: number): Episode[] => (q.within.all({ ...window, limit }) as Row[]).map(toEpisode),
    versions: (id: number): EpisodeVersion[] => (q.versions.all(id) as VersionRow[]).map(toVersion),
    version(id: number, version: number): EpisodeVersion | null {
      const r = q.version.get(id, version) as VersionRow | undefined;
      return r ? toVersion(r) : null;
    },
    /** The model's episode of a stretch: a new one, or a rewrite of `existing` (a new version). Inside a transaction. */
    writeByModel(draft: EpisodeDraft, existing: Episode | null, now: number): Episode {
      let id: number;
      let version: number;
      if (existing) {
        id = existing.id;
        version = (q.rewrite.get(draft.title, draft.content, draft.fromMessageId, draft.toMessageId, draft.startedAt, draft.endedAt, now, id) as { version: number }).version;
      } else {
        id = (q.insert.get(draft.threadId, draft.title, draft.content, draft.fromMessageId, draft.toMessageId, draft.startedAt, draft.endedAt, now, now) as { id: number }).id;
        version = 1;
      }
      q.addVersion.run(id, version, draft.title, draft.content, 'model', existing ? 'rewritten' : 'written', now);
      index(id, draft);
      return get(id)!;
    },
    /** The user's text (an edit, or an earlier version brought back): a new version, and the base of later rewrites. */
    writeByUser(id: number, text: { title: string; content: string }, reason: 'edited' | 'reverted', now: number): Episode {
      const { version } = q.edit.get(text.title, text.content, now, id) as { version: number };
      q.addVersion.run(id, version, text.title, text.content, 'user', reason, now);
      index(id, text);
      return get(id)!;
    },
    setStatus(id: number, status: Episode['status'], now: number): void {
      q.status.run(status, status === 'trashed' ? now : null, now, id);
    },
    /**
     * Deletes the row for good (versions by cascade, the full-text entry by trigger) and merges the index; other
     * answers' records of what the model saw that named it lose its name (conversation/prompt-record-scrub.ts).
     */
    purge(id: number): void {
      q.remove.run(id);
      q.ftsOptimize.run();
      keywords.changed();
      forgetEpisodesInRecords(sqlite, [id]);
    },
    /** After a purge has committed: the WAL folded in, so the deleted words leave the file (db/checkpoint-after-purge.ts). */
    checkpoint(logger: Logger): void {
      checkpointAfterPurge(sqlite, logger);
    },
    /** One BEGIN IMMEDIATE transaction (db/write-transaction.ts). */
    transaction<T>(fn: () => T): T {
      return writeTransaction(sqlite, fn);
    },
  };
}

function toVersion(r: VersionRow): EpisodeVersion {
  return { version: r.version, title: r.title, content: r.content, origin: r.origin, reason: r.reason, createdAt: r.created_at };
}

export type EpisodeStore = ReturnType<typeof createEpisodeStore>;
