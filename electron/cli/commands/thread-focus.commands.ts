/**
 * A thread's working memory from the terminal (`thread focus ID`): its focus, open tasks and recently finished ones,
 * as the thread's panel shows them; `--clear` empties it. The same operations as the panel.
 */
import type { WorkingMemory } from '../../../shared/contract';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { flag } from '../options';
import { id } from './chat.commands';

const STATE = { open: 'open', in_progress: 'in progress', done: 'done' } as const;

export function formatWorkingMemory(wm: WorkingMemory, time: CliContext['localTime']): string {
  const other = wm.otherVersion ? 'What the model noted came from another version of this conversation: it is left out, and rebuilt after the next exchange.\n\n' : '';
  return other + formatShown(wm, time);
}

function formatShown(wm: WorkingMemory, time: CliContext['localTime']): string {
  if (!wm.focus && wm.tasks.length === 0 && wm.finished.length === 0) {
    return `Thread ${wm.threadId} has no working memory yet. Mnemo writes it after an exchange, while the app (or "mnemo queue run --until-idle") runs its background jobs.`;
  }
  const lines = [`Focus: ${wm.focus || '(none)'}${wm.focusEditedByUser ? '  (edited by you)' : ''}`, '', 'Tasks:'];
  if (wm.tasks.length === 0) lines.push('  (none open)');
  for (const t of wm.tasks) lines.push(`  #${t.id} [${STATE[t.state]}] ${t.text}${t.editedByUser ? '  (yours)' : ''}`);
  if (wm.finished.length > 0) {
    lines.push('', 'Recently finished:');
    for (const t of wm.finished) lines.push(`  #${t.id} ${t.text}  (${time(t.finishedAt ?? t.updatedAt)})`);
  }
  return lines.join('\n');
}

async function threadFocus(ctx: CliContext): Promise<CliOutput> {
  if (ctx.args.length !== 1) return { ok: false, error: { code: 'INVALID_INPUT', message: 'Name one thread: mnemo thread focus ID [--clear] (the ids are in "mnemo thread list").' } };
  const threadId = id(ctx.args[0], 'The thread id');
  if (typeof threadId !== 'number') return threadId;
  const clear = ctx.flags.clear === 'true';
  const r = clear ? await ctx.client.call('focus.clear', { threadId }) : await ctx.client.call('focus.get', { threadId });
  if (!r.ok) return r;
  return { ok: true, value: r.value, text: clear ? `Thread ${threadId}'s working memory is empty now.` : formatWorkingMemory(r.value, ctx.localTime) };
}

export const threadFocusCommands: CliCommand[] = [
  {
    words: ['thread', 'focus'],
    synopsis: 'thread focus ID [--clear]   the thread’s working memory: its focus, open and recently finished tasks',
    options: { clear: flag('empty the thread’s working memory (focus and tasks)') },
    run: threadFocus,
  },
];
