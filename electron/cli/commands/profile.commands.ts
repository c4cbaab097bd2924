/**
 * The profile (what Mnemo knows about the user, in one short page) from the terminal: read it, write it yourself, or
 * have the background model rewrite it from the memories now.
 */
import type { Profile, ProfileFit } from '../../../shared/contract';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { flag, text } from '../options';
import { readUserFile } from '../user-files';
import { runQueueUntilIdle } from './chat.commands';

const NO_PROFILE =
  'No profile yet. Mnemo writes one from your memories a little after they change, while the app (or "mnemo queue run --until-idle") runs its background jobs. ' +
  '"mnemo profile refresh --wait" writes one now; "mnemo profile edit" lets you write it yourself.';

/** The profile's text, then one line on where it came from (and, from profile.get, one on how much a prompt holds). */
export function formatProfile(p: (Profile & { fits?: ProfileFit }) | null, { paint, localTime: minute }: Pick<CliContext, 'paint' | 'localTime'>): string {
  if (!p) return NO_PROFILE;
  const fits = p.fits;
  const fitLine = !fits
    ? ''
    : fits.cutAt === null
      ? `\n${paint.dim(`(all of it goes into every prompt: about ${fits.tokens} of the ${fits.roomTokens} tokens it may take with ${fits.model})`)}`
      : `\n${paint.dim(`(too long for the prompt: with ${fits.model} the model sees the first ${fits.lines} of ${fits.ofLines} lines, about ${fits.roomTokens} of its ${fits.tokens} tokens; shorten it, or "mnemo profile edit")`)}`;
  const source = [
    p.editedByUser ? 'written or edited by you' : null,
    p.refreshedAt !== null ? `rewritten from ${p.memoryCount} ${p.memoryCount === 1 ? 'memory' : 'memories'} at ${minute(p.refreshedAt)}` : null,
  ].filter(Boolean);
  return `${p.content}\n\n${paint.dim(`(${source.join('; ') || `updated ${minute(p.updatedAt)}`})`)}${fitLine}`;
}

/** All of stdin: the profile is several lines, unlike an API key. */
async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let all = '';
  for await (const chunk of stream) all += String(chunk);
  return all;
}

async function editProfile(ctx: CliContext): Promise<CliOutput> {
  if (ctx.args.length > 0) return { ok: false, error: { code: 'INVALID_INPUT', message: 'Give the profile on stdin or with --file FILE: mnemo profile edit < profile.md' } };
  let content: string;
  if (ctx.flags.file !== undefined) {
    const read = readUserFile(ctx.io.cwd, ctx.flags.file);
    if (!read.ok) return read;
    content = read.content;
  } else {
    if (ctx.io.stdin.isTTY) ctx.note('Type the profile, then press Ctrl-D (Ctrl-Z, Enter on Windows). Nothing at all clears it.');
    content = await readAll(ctx.io.stdin);
  }
  // A file or a heredoc ends with a line break that is not part of the text.
  const r = await ctx.client.call('profile.update', { content: content.replace(/\s+$/, '') });
  if (!r.ok) return r;
  if (!r.value) return { ok: true, value: r.value, text: 'Profile cleared. The next refresh writes a new one from your memories.' };
  return { ok: true, value: r.value, text: 'Profile saved. Later refreshes build on your text.' };
}

async function refreshProfile(ctx: CliContext): Promise<CliOutput> {
  const r = await ctx.client.call('profile.refresh', {});
  if (!r.ok) return r;
  if (ctx.flags.wait !== 'true') {
    return { ok: true, value: r.value, text: `Profile refresh queued (job ${r.value.jobId}). The app runs it; "mnemo profile refresh --wait" runs it here and shows the result.` };
  }
  const ran = await runQueueUntilIdle(ctx);
  if (!ran.ok) return ran;
  const job = await ctx.client.call('queue.list', { status: ['dead'], limit: 500 });
  if (!job.ok) return job;
  const failed = job.value.jobs.find((j) => j.id === r.value.jobId);
  if (failed) return { ok: false, error: { code: 'INTERNAL', message: `The profile refresh (job ${failed.id}) failed (${failed.lastErrorCode ?? 'unknown error'}). "mnemo queue retry ${failed.id}" tries again.` } };
  const profile = await ctx.client.call('profile.get', {});
  if (!profile.ok) return profile;
  return { ok: true, value: profile.value, text: formatProfile(profile.value, ctx) };
}

export const profileCommands: CliCommand[] = [
  {
    words: ['profile', 'show'],
    synopsis: 'profile show             what Mnemo knows about you, in one short page',
    async run(ctx) {
      const r = await ctx.client.call('profile.get', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: formatProfile(r.value, ctx) };
    },
  },
  {
    words: ['profile', 'edit'],
    synopsis: 'profile edit [--file FILE]   replaces the profile with your text from stdin (or FILE); empty clears it',
    options: { file: text('FILE', 'read the text from FILE instead of stdin') },
    run: editProfile,
  },
  {
    words: ['profile', 'refresh'],
    synopsis: 'profile refresh [--wait]   the background model rewrites the profile from your memories now',
    options: { wait: flag('run the background jobs here until none waits, then show the profile') },
    run: refreshProfile,
  },
];
