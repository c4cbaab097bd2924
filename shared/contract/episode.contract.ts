/**
 * Episodes: what one stretch of a thread was about (what the user wanted, what came of it, the people, places,
 * projects and tools involved, when), written by the background model once the thread has been quiet for
 * `episodeQuietMinutes`. One per stretch of activity, rewritten while the stretch goes on; editable like memories,
 * with every version kept. Incognito threads make none; deleting a thread deletes its episodes.
 */
import { z } from 'zod';
import { Id, Timestamp, operation } from './define';
import { BackupErasure } from './memory.contract';

export const EpisodeStatus = z.enum(['active', 'trashed']);

export const Episode = z.object({
  id: Id,
  threadId: Id,
  /** The thread's title now (the list links to the thread by it). */
  threadTitle: z.string(),
  /** One line: what the stretch was about. */
  title: z.string(),
  content: z.string(),
  /** The stretch: its first and last message, and their times. */
  fromMessageId: Id,
  toMessageId: Id,
  startedAt: Timestamp,
  endedAt: Timestamp,
  /** The text is (or builds on) the user's own edit: rewrites keep it as their base. */
  editedByUser: z.boolean(),
  status: EpisodeStatus,
  version: z.number().int().positive(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Episode = z.output<typeof Episode>;

export const EpisodeVersion = z.object({
  version: z.number().int().positive(),
  title: z.string(),
  content: z.string(),
  /** model: written or rewritten by the background model; user: the user's edit, revert or restore. */
  origin: z.enum(['model', 'user']),
  reason: z.enum(['written', 'rewritten', 'edited', 'reverted']),
  createdAt: Timestamp,
});
export type EpisodeVersion = z.output<typeof EpisodeVersion>;

const EpisodeText = z.string().trim().min(1, 'An episode cannot be empty; delete it instead.').max(20_000, 'An episode is at most 20,000 characters.');
const EpisodeTitle = z.string().trim().max(300, 'An episode title is at most 300 characters.');

export const episodeOperations = {
  'episode.list': operation(
    'Episodes, newest stretch first (one thread’s with threadId; the trash with status). With query: the episodes about it (keyword, Chinese and English), best first, in one page.',
    z
      .object({
        threadId: Id.optional(),
        query: z.string().max(500).optional(),
        status: EpisodeStatus.default('active'),
        limit: z.number().int().min(1).max(200).default(50),
        /** nextCursor of the previous page. */
        cursor: z.string().max(100).optional(),
      })
      .strict(),
    z.object({ episodes: z.array(Episode), nextCursor: z.string().nullable() }),
  ),
  'episode.get': operation('One episode with every version it has had, newest first.', z.object({ id: Id }).strict(), z.object({ episode: Episode, versions: z.array(EpisodeVersion) })),
  'episode.update': operation(
    'Replaces the episode’s text with the user’s (a new version); later rewrites of its stretch build on it.',
    z.object({ id: Id, content: EpisodeText, title: EpisodeTitle.optional() }).strict(),
    Episode,
  ),
  'episode.delete': operation(
    'Moves the episode to the trash; with forever, deletes it for good (the row, its versions and its search entry), from the database and from every backup in the data folder; backups says where it is gone from and names a file that could not be changed.',
    z.object({ id: Id, forever: z.boolean().default(false) }).strict(),
    z.object({ id: Id, forever: z.boolean(), /** forever only: what it did in the backups. */ backups: BackupErasure.optional() }),
  ),
  'episode.restore': operation('Brings a trashed episode back.', z.object({ id: Id }).strict(), Episode),
  'episode.revert': operation('Makes an earlier version’s text current again, as a new version.', z.object({ id: Id, version: z.number().int().positive() }).strict(), Episode),
  'episode.refresh': operation(
    'Asks the background model to write (or rewrite) the episode of the thread’s latest stretch now, without waiting for the thread to go quiet (a background job). Refused for incognito threads and while episodes are turned off.',
    z.object({ threadId: Id }).strict(),
    z.object({ jobId: Id }),
  ),
};

export const episodeEvents = {
  'episode.updated': z.object({ episode: Episode }),
  'episode.deleted': z.object({ id: Id, threadId: Id, forever: z.boolean() }),
};
