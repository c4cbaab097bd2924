/**
 * Episodes from the terminal: `memory episodes` lists what each conversation was about (newest first, one thread's
 * with --thread, those about a search with --query, the trash with --trash); `memory episodes delete ID [--forever]`
 * and `restore ID` do what the Episodes tab does. The contract's episode operations; --json prints their value.
 */
import type { Episode } from '../../../shared/contract';
import { Id, operations } from '../../../shared/contract';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { flag, numberIn, text } from '../options';
import { id } from './chat.commands';
import { purgeText } from './memory.commands';

function formatEpisode(e: Episode, paint: CliContext['paint'], time: CliContext['localTime']): string {
  const head = `#${e.id}  ${time(e.startedAt)} – ${time(e.endedAt)}  thread ${e.threadId}${e.threadTitle ? ` "${e.threadTitle}"` : ''}${e.editedByUser ? ' [edited by you]' : ''}`;
  return [paint.dim(head), ...(e.title ? [e.title] : []), e.content].join('\n');
}

const NO_EPISODES =
  'No episodes yet. Mnemo writes one when a conversation has been quiet for a while (the setting episodeQuietMinutes, 30 by default), ' +
  'while the app (or "mnemo queue run --until-idle") runs its background jobs. Incognito threads get none.';

export const episodeCommands: CliCommand[] = [
  {
    words: ['memory', 'episodes'],
    synopsis: 'memory episodes [--thread ID] [--query Q] [--limit N] [--trash]   what each conversation was about, newest first',
    options: {
      thread: numberIn(Id, 'ID', 'only this thread’s episodes'),
      query: text('Q', 'only the episodes about Q (keyword, Chinese and English), best first'),
      limit: numberIn(operations['episode.list'].input.shape.limit, 'N', 'at most N (default 50)'),
      trash: flag('the deleted episodes instead (restore or delete them for good by id)'),
    },
    async run({ client, flags, paint, localTime }) {
      const r = await client.call('episode.list', {
        ...(flags.thread !== undefined ? { threadId: Number(flags.thread) } : {}),
        ...(flags.query !== undefined ? { query: flags.query } : {}),
        ...(flags.limit !== undefined ? { limit: Number(flags.limit) } : {}),
        ...(flags.trash === 'true' ? { status: 'trashed' as const } : {}),
      });
      if (!r.ok) return r;
      const { episodes } = r.value;
      const none = flags.trash === 'true' ? 'The episode trash is empty.' : flags.query !== undefined ? 'No episode is about that.' : NO_EPISODES;
      const textOut = episodes.length === 0 ? none : episodes.map((e) => formatEpisode(e, paint, localTime)).join('\n\n');
      return { ok: true, value: r.value, text: textOut };
    },
  },
  {
    words: ['memory', 'episodes', 'delete'],
    synopsis: 'memory episodes delete ID [--forever]   moves an episode to the trash; --forever erases it, backups included',
    options: { forever: flag('delete it for good: its text, versions and search entry, from the database and every backup') },
    async run(ctx) {
      const episodeId = id(ctx.args[0], 'The episode id');
      if (typeof episodeId !== 'number') return episodeId;
      const forever = ctx.flags.forever === 'true';
      const r = await ctx.client.call('episode.delete', { id: episodeId, forever });
      if (!r.ok) return r;
      const text = r.value.backups ? purgeText(`episode #${episodeId}`, r.value.backups) : `Moved episode #${episodeId} to the trash ("mnemo memory episodes restore ${episodeId}" brings it back).`;
      return { ok: true, value: r.value, text } satisfies CliOutput;
    },
  },
  {
    words: ['memory', 'episodes', 'restore'],
    synopsis: 'memory episodes restore ID   brings an episode back from the trash',
    async run(ctx) {
      const episodeId = id(ctx.args[0], 'The episode id');
      if (typeof episodeId !== 'number') return episodeId;
      const r = await ctx.client.call('episode.restore', { id: episodeId });
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: `Restored episode #${episodeId}.` };
    },
  },
];
