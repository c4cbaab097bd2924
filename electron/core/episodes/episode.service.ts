/**
 * Episodes for the user and for the rest of the core: scheduling, the user's reads and changes, and keyword search.
 *
 * When an episode is written: after each reply committed (message.completed) in a thread that is not incognito,
 * the thread's latest stretch gets its `episode` job due at the stretch's quiet time (last message + the quiet
 * minutes), one job per stretch (key episode:<thread>:<first message>), pushed back by each new exchange (the queue's
 * `schedule`). The job checks again that the stretch is quiet (episode.job.ts). The user can ask now
 * (episode.refresh). "Closed": Mnemo has no action that closes a thread; leaving it is the renderer's business and
 * not a signal the core has, so a stretch ends when it goes quiet, and a deleted thread takes its episodes with it
 * (foreign key cascade; their search entries by the migration's trigger).
 */
import type { BackupErasure, Episode, EpisodeVersion, Settings } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { BackupScrubber } from '../ports/backup-scrubber.port';
import type { MessagesStore } from '../conversation/messages.store';
import type { ThreadsStore } from '../conversation/threads.store';
import type { PromptEpisode } from '../ports/memory-retrieval.port';
import type { EventBus } from '../runtime/event-bus';
import { secretRefusal } from '../safety/secret-detector';
import type { JobQueue } from '../jobs/job-queue';
import { relevantMatches } from '../search/keyword-query';
import type { Clock } from '../ports/clock.port';
import type { Logger } from '../ports/logger.port';
import { termKeys } from '../text/meaningful-terms';
import type { TimelineWriter } from '../db/timeline-writer';
import { episodeText } from './episode-prompt';
import { quietAt, stretchesOf, type StampedMessage } from './episode-stretch';
import { quietMsOf } from './episode.job';
import type { EpisodeStore } from './episode.store';

/** Keyword matches read per search, before the relevance floor and the filters. */
const SEARCH_DEPTH = 200;

function readCursor(cursor: string | undefined): { endedAt: number; id: number } | null {
  if (cursor === undefined) return null;
  const m = /^(\d+):(\d+)$/.exec(cursor);
  if (!m) throw new MnemoError('INVALID_INPUT', 'This page cursor is not one episode.list gave; start again without it.');
  return { endedAt: Number(m[1]), id: Number(m[2]) };
}

/** An episode as a prompt and the memory tools show it (ports/memory-retrieval.port.ts): no text beyond its own. */
export function toPromptEpisode(e: Episode): PromptEpisode {
  return { episodeId: e.id, threadId: e.threadId, threadTitle: e.threadTitle, title: e.title, content: e.content, startedAt: e.startedAt };
}

export function createEpisodeService(deps: {
  messages: Pick<MessagesStore, 'stamps'>;
  threads: Pick<ThreadsStore, 'isIncognito'>;
  timeline: TimelineWriter;
  store: EpisodeStore;
  queue: JobQueue;
  clock: Clock;
  events: EventBus;
  settings: () => Settings;
  /** Where "delete forever" also reaches: every backup in the data folder (as for memories). */
  backups: BackupScrubber;
  logger: Logger;
}) {
  const { store, queue, clock, events, timeline } = deps;

  /** The thread's latest stretch, or null (incognito, gone, or no messages). */
  function latestStretch(threadId: number, settings: Settings): StampedMessage[] | null {
    if (deps.threads.isIncognito(threadId) !== false) return null;
    return stretchesOf(deps.messages.stamps(threadId), quietMsOf(settings)).at(-1) ?? null;
  }

  /** The latest stretch's episode job, due when the stretch goes quiet (or again, if it already ran: the stretch went on). */
  function schedule(threadId: number): void {
    const settings = deps.settings();
    if (!settings.episodesEnabled) return;
    const stretch = latestStretch(threadId, settings);
    if (!stretch) return;
    const first = stretch[0]!;
    queue.schedule({
      kind: 'episode',
      payload: { fromMessageId: first.id, reason: 'quiet' },
      idempotencyKey: `episode:${threadId}:${first.id}`,
      threadId,
      runAfter: quietAt(stretch.at(-1)!, quietMsOf(settings)),
    });
  }

  const unsubscribe = events.subscribe((message) => {
    if (message.event === 'message.completed') schedule(message.payload.message.threadId);
  });

  function existing(id: number): Episode {
    const episode = store.get(id);
    if (!episode) throw new MnemoError('NOT_FOUND', `Episode ${id} does not exist (it may have been deleted for good, or with its thread).`);
    return episode;
  }

  function refuseSecret(text: string): void {
    const why = secretRefusal(text);
    if (why) throw new MnemoError('INVALID_INPUT', `The episode was not saved: ${why.replace('as memories', 'in episodes')}.`);
  }

  /** Episodes about the query (keyword: Chinese and English, word forms, the relevance floor of keyword-query.ts), best first. */
  function search(query: string, filter: { limit: number; threadId?: number | undefined; status?: Episode['status'] }): Episode[] {
    const found = store.keywords.relevant(query, { depth: Math.max(SEARCH_DEPTH, filter.limit * 4) });
    if (!found) return [];
    const status = filter.status ?? 'active';
    const candidates = found.hits
      .map((h) => store.get(h.id))
      .filter((e): e is Episode => e !== null && e.status === status && (filter.threadId === undefined || e.threadId === filter.threadId));
    const relevant = relevantMatches(found.terms, candidates.map((e) => termKeys(episodeText(e))), found.parts);
    return candidates.filter((_, i) => relevant[i]).slice(0, filter.limit);
  }

  function changedByUser(id: number, change: () => Episode, reason: 'edited' | 'reverted' | 'restored'): Episode {
    const episode = store.transaction(() => {
      const changed = change();
      timeline.record('episode_edited', { threadId: changed.threadId }, { episodeId: changed.id, version: changed.version, reason });
      return changed;
    });
    events.emit('episode.updated', { episode });
    return episode;
  }

  /**
   * For search_memory (the memory tools) and a question's time: active episodes about the query, best first; with a
   * window, those overlapping it (all of them, newest first, when the query is empty).
   */
  function searchEpisodes(query: string, limit: number, window?: { from: number; to: number } | null): Episode[] {
    if (!window) return search(query, { limit });
    if (!query.trim()) return store.within(window, limit);
    return search(query, { limit: Math.max(limit, SEARCH_DEPTH) }).filter((e) => e.startedAt < window.to && e.endedAt >= window.from).slice(0, limit);
  }

  return {
    list(input: { threadId?: number | undefined; query?: string | undefined; status: Episode['status']; limit: number; cursor?: string | undefined }): { episodes: Episode[]; nextCursor: string | null } {
      if (input.query !== undefined && input.query.trim() !== '') {
        return { episodes: search(input.query, { limit: input.limit, threadId: input.threadId, status: input.status }), nextCursor: null };
      }
      const episodes = store.page({ status: input.status, threadId: input.threadId ?? null, after: readCursor(input.cursor), limit: input.limit + 1 });
      const page = episodes.slice(0, input.limit);
      const last = page.at(-1);
      return { episodes: page, nextCursor: episodes.length > input.limit && last ? `${last.endedAt}:${last.id}` : null };
    },
    get(id: number): { episode: Episode; versions: EpisodeVersion[] } {
      return { episode: existing(id), versions: store.versions(id) };
    },
    update(id: number, text: { content: string; title?: string | undefined }): Episode {
      const before = existing(id);
      const title = text.title ?? before.title;
      refuseSecret(`${title}\n${text.content}`);
      return changedByUser(id, () => store.writeByUser(id, { title, content: text.content }, 'edited', clock.now()), 'edited');
    },
    revert(id: number, version: number): Episode {
      existing(id);
      const old = store.version(id, version);
      if (!old) throw new MnemoError('NOT_FOUND', `Episode ${id} has no version ${version}; episode.get lists its versions.`);
      return changedByUser(id, () => store.writeByUser(id, old, 'reverted', clock.now()), 'reverted');
    },
    restore(id: number): Episode {
      if (existing(id).status !== 'trashed') throw new MnemoError('CONFLICT', `Episode ${id} is not in the trash.`);
      return changedByUser(
        id,
        () => {
          store.setStatus(id, 'active', clock.now());
          return store.get(id)!;
        },
        'restored',
      );
    },
    /**
     * To the trash, or for good: the row, its versions and its search entry, then (after the commit) the WAL and
     * every backup in the data folder, as a memory's purge (backup-scrub.ts); the answer names a backup it could not
     * change. The trash keeps the episode in the backups: it can still be restored.
     */
    async delete(id: number, forever: boolean): Promise<{ id: number; forever: boolean; backups?: BackupErasure }> {
      const episode = existing(id);
      store.transaction(() => {
        if (forever) store.purge(id); // with other answers' records of what the model saw that named it
        else store.setStatus(id, 'trashed', clock.now());
        timeline.record('episode_deleted', { threadId: episode.threadId }, { episodeId: id, forever });
      });
      events.emit('episode.deleted', { id, threadId: episode.threadId, forever });
      if (!forever) return { id, forever };
      store.checkpoint(deps.logger);
      const backups = await deps.backups.eraseEpisodes([{ id, createdAt: episode.createdAt }]);
      return { id, forever, backups };
    },
    refresh(threadId: number): { jobId: number } {
      const settings = deps.settings();
      if (!settings.episodesEnabled) {
        throw new MnemoError('INVALID_INPUT', 'Episodes are turned off. Turn them on (Settings › Memory, or the setting episodesEnabled) to write one.');
      }
      const incognito = deps.threads.isIncognito(threadId);
      if (incognito === null) throw new MnemoError('NOT_FOUND', `Thread ${threadId} does not exist (it may have been deleted).`);
      if (incognito) throw new MnemoError('INVALID_INPUT', 'This thread is incognito: Mnemo keeps no episode of it.');
      const stretch = latestStretch(threadId, settings);
      if (!stretch) throw new MnemoError('INVALID_INPUT', 'This thread has no messages yet: there is nothing to write an episode about.');
      const now = clock.now();
      return {
        jobId: queue.enqueue({ kind: 'episode', payload: { fromMessageId: stretch[0]!.id, reason: 'user' }, idempotencyKey: `episode:user:${threadId}:${now}`, threadId }),
      };
    },
    searchEpisodes,
    /** A time question's episodes (chat/prompt-assembly.ts): the window's, about the topic, as a prompt shows them. */
    episodesWithin: (window: { from: number; to: number }, topic: string, limit: number): PromptEpisode[] => searchEpisodes(topic, limit, window).map(toPromptEpisode),
    schedule,
    dispose: unsubscribe,
  };
}

export type EpisodeService = ReturnType<typeof createEpisodeService>;
