/**
 * Episodes from the terminal: `memory episodes` lists what each conversation was about (newest first, one thread's
 * with --thread, those about a search with --query). One contract operation (episode.list); --json prints its value.
 */
import type { Episode } from '../../../shared/contract';
import { Id, operations } from '../../../shared/contract';
import type { CliCommand, CliContext } from '../commands';
import { numberIn, text } from '../options';

const minute = (at: number) => new Date(at).toISOString().slice(0, 16).replace('T', ' ');

function formatEpisode(e: Episode, paint: CliContext['paint']): string {
  const head = `#${e.id}  ${minute(e.startedAt)} – ${minute(e.endedAt)} UTC  thread ${e.threadId}${e.threadTitle ? ` "${e.threadTitle}"` : ''}${e.editedByUser ? ' [edited by you]' : ''}`;
  return [paint.dim(head), ...(e.title ? [e.title] : []), e.content].join('\n');
}

const NO_EPISODES =
  'No episodes yet. Mnemo writes one when a conversation has been quiet for a while (the setting episodeQuietMinutes, 30 by default), ' +
  'while the app (or "mnemo queue run --until-idle") runs its background jobs. Incognito threads get none.';

export const episodeCommands: CliCommand[] = [
  {
    words: ['memory', 'episodes'],
    synopsis: 'memory episodes [--thread ID] [--query Q] [--limit N]   what each conversation was about, newest first',
    options: {
      thread: numberIn(Id, 'ID', 'only this thread’s episodes'),
      query: text('Q', 'only the episodes about Q (keyword, Chinese and English), best first'),
      limit: numberIn(operations['episode.list'].input.shape.limit, 'N', 'at most N (default 50)'),
    },
    async run({ client, flags, args, paint }) {
      if (args.length > 0) return { ok: false, error: { code: 'INVALID_INPUT', message: `Search episodes with --query: mnemo memory episodes --query "${args.join(' ')}"` } };
      const r = await client.call('episode.list', {
        ...(flags.thread !== undefined ? { threadId: Number(flags.thread) } : {}),
        ...(flags.query !== undefined ? { query: flags.query } : {}),
        ...(flags.limit !== undefined ? { limit: Number(flags.limit) } : {}),
      });
      if (!r.ok) return r;
      const { episodes } = r.value;
      const textOut = episodes.length === 0 ? (flags.query !== undefined ? 'No episode is about that.' : NO_EPISODES) : episodes.map((e) => formatEpisode(e, paint)).join('\n\n');
      return { ok: true, value: r.value, text: textOut };
    },
  },
];
