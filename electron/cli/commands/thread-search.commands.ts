/**
 * Searching every conversation from the terminal (`thread search "words"`): the app's search box (thread.search, full
 * text, Chinese and English), each hit saying whose words they are, the user's or an answer of Mnemo, so "what did
 * you recommend for my knee?" finds the recommendation and says it was Mnemo's.
 */
import { operations, type OpOutput } from '../../../shared/contract';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { numberIn } from '../options';

type Hit = OpOutput<'thread.search'>['hits'][number];

/** One hit in two lines: where and whose, then the message on one line, cut at SNIPPET_CHARS. */
const SNIPPET_CHARS = 200;

export function formatHit(h: Hit): string {
  const when = new Date(h.message.createdAt).toISOString().slice(0, 16).replace('T', ' ');
  const who = h.message.role === 'user' ? 'you' : h.message.role === 'assistant' ? 'Mnemo' : h.message.role;
  const version = h.message.version ? `  (version ${h.message.version.index} of ${h.message.version.count})` : '';
  const line = h.message.content.replace(/\s+/g, ' ').trim();
  const text = line.length > SNIPPET_CHARS ? `${line.slice(0, SNIPPET_CHARS - 1)}…` : line;
  return `#${h.message.id}  thread ${h.threadId} “${h.threadTitle || '(untitled)'}”  ${when} UTC  ${who}${version}\n    ${text}`;
}

async function threadSearch(ctx: CliContext): Promise<CliOutput> {
  const query = ctx.args.join(' ').trim();
  if (!query) return { ok: false, error: { code: 'INVALID_INPUT', message: 'Say what to look for: mnemo thread search "words" [--limit N]' } };
  const limit = ctx.flags.limit === undefined ? {} : { limit: Number(ctx.flags.limit) };
  const r = await ctx.client.call('thread.search', { query, ...limit });
  if (!r.ok) return r;
  return { ok: true, value: r.value.hits, text: r.value.hits.map(formatHit).join('\n') || `Nothing in your conversations matches “${query}”.` };
}

export const threadSearchCommands: CliCommand[] = [
  {
    words: ['thread', 'search'],
    synopsis: 'thread search "words" [--limit N]   your messages and Mnemo’s answers in every conversation, each saying whose',
    options: { limit: numberIn(operations['thread.search'].input.shape.limit, 'N', 'at most N hits (default 50)') },
    run: threadSearch,
  },
];
