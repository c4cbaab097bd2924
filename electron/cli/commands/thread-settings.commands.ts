/**
 * A thread's own settings from the terminal (its model and its instructions), and what the model saw for an answer
 * (the app's "Context" view): the same operations the thread header uses.
 */
import type { PromptContext, Thread } from '../../../shared/contract';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { flag } from '../options';
import { describeRecalled, id } from './chat.commands';

const invalid = (message: string): CliOutput => ({ ok: false, error: { code: 'INVALID_INPUT', message } });

async function threadModel(ctx: CliContext): Promise<CliOutput> {
  const threadId = id(ctx.args[0], 'The thread id');
  if (typeof threadId !== 'number') return threadId;
  const name = ctx.args.slice(1).join(' ').trim();
  const toDefault = ctx.flags.default === 'true';
  if (name && toDefault) return invalid('Give a model name or --default, not both.');
  let thread: Thread;
  if (!name && !toDefault) {
    const r = await ctx.client.call('thread.get', { threadId });
    if (!r.ok) return r;
    thread = r.value;
  } else {
    const r = await ctx.client.call('thread.setModel', { threadId, model: toDefault ? null : name });
    if (!r.ok) return r;
    thread = r.value;
  }
  const settings = await ctx.client.call('settings.get', {});
  const fallback = settings.ok ? settings.value.chatModel : 'the chat model in settings';
  return { ok: true, value: thread, text: thread.model ? `Thread ${threadId} answers with ${thread.model}.` : `Thread ${threadId} answers with the default chat model (${fallback}).` };
}

async function threadInstructions(ctx: CliContext): Promise<CliOutput> {
  const threadId = id(ctx.args[0], 'The thread id');
  if (typeof threadId !== 'number') return threadId;
  const text = ctx.args.slice(1).join(' ').trim();
  const clear = ctx.flags.clear === 'true';
  if (text && clear) return invalid('Give the instructions or --clear, not both.');
  if (!text && !clear) {
    const r = await ctx.client.call('thread.get', { threadId });
    if (!r.ok) return r;
    return { ok: true, value: r.value, text: r.value.instructions ?? `Thread ${threadId} has no instructions of its own.` };
  }
  const r = await ctx.client.call('thread.setInstructions', { threadId, instructions: clear ? '' : text });
  if (!r.ok) return r;
  return { ok: true, value: r.value, text: clear ? `Thread ${threadId} has no instructions of its own now.` : `Saved: thread ${threadId}'s answers follow these instructions.` };
}

/**
 * The context view as a table: each part's tokens against its budget (the answer's: the cap its request carried), then
 * the episodes of the question's time the prompt carried (their days in the user's zone), then the system text.
 */
export function formatPromptContext(c: PromptContext | null, localTime: (at: number) => string): string {
  if (!c) return 'Mnemo has no record of what the model saw for this answer (it was written before Mnemo kept one, or its prompt could not be built).';
  const conversation = c.workingMemory.tokens + c.summary.tokens + c.recent.tokens + c.question.tokens;
  const rows: Array<[string, number, number | null]> = [
    ['system text and instructions', c.system.tokens, c.budget.system],
    [`${c.memories.profile ? 'profile and ' : ''}${c.memories.ids.length} ${c.memories.ids.length === 1 ? 'memory' : 'memories'}`, c.memories.tokens, c.budget.memories],
    ['conversation', conversation, c.budget.conversation],
    ...(c.workingMemory.tokens > 0 ? [[`  working memory (${c.workingMemory.focus ? 'focus, ' : ''}${c.workingMemory.tasks} ${c.workingMemory.tasks === 1 ? 'task' : 'tasks'})`, c.workingMemory.tokens, null] as [string, number, null]] : []),
    [c.summary.included ? '  thread summary' : '  thread summary (not included)', c.summary.tokens, null],
    [`  ${c.recent.count} earlier ${c.recent.count === 1 ? 'message' : 'messages'}`, c.recent.tokens, null],
    ['  the question', c.question.tokens, null],
    // What the request let the model write (num_predict / max_tokens) against the reserve the budget keeps for it, as the
    // app's view says it; an answer recorded before caps shows the reserve.
    [c.replyCap === null ? 'reserved for the answer' : 'room for the answer (up to; budget: reserve)', c.replyCap ?? c.budget.reply, c.budget.reply],
  ];
  const width = Math.max(...rows.map(([part]) => part.length));
  const lines = [
    `${c.model}, context window ${c.budget.contextWindow} tokens`,
    '',
    `${'part'.padEnd(width)}  tokens  budget`,
    ...rows.map(([part, tokens, budget]) => `${part.padEnd(width)}  ${String(tokens).padStart(6)}  ${budget === null ? '' : String(budget).padStart(6)}`),
  ];
  if (c.system.globalInstructions?.cut) lines.push('', 'Your instructions from settings were cut to fit the system share.');
  if (c.system.threadInstructions?.cut) lines.push('', "This thread's instructions were cut to fit the system share.");
  if (c.conversationCut) lines.push('', 'Older messages did not fit; the thread summary, when there is one, stands in for them.');
  if (c.retrieval.semanticTimedOut) lines.push('', 'Semantic search took too long; keyword results only (settings retrieval.timeBudgetMs).');
  if (c.memories.ids.length > 0) lines.push('', `memories: ${c.memories.ids.map((m) => `#${m}`).join(' ')} ("mnemo memory show ID")`);
  const recalled = describeRecalled(c.recalled, localTime);
  if (recalled.length > 0) lines.push('', ...recalled);
  lines.push('', 'system text:', c.system.text);
  return lines.join('\n');
}

async function threadContext(ctx: CliContext): Promise<CliOutput> {
  if (ctx.args.length !== 1) return invalid('Name one answer: mnemo thread context MESSAGE_ID (the message ids are in "mnemo thread show ID").');
  const messageId = id(ctx.args[0], 'The message id');
  if (typeof messageId !== 'number') return messageId;
  const r = await ctx.client.call('chat.context', { messageId });
  if (!r.ok) return r;
  return { ok: true, value: r.value, text: formatPromptContext(r.value, ctx.localTime) };
}

export const threadSettingsCommands: CliCommand[] = [
  {
    words: ['thread', 'model'],
    synopsis: 'thread model ID [NAME] [--default]   the model of this thread’s answers (no NAME: show it)',
    options: { default: flag('go back to the chat model in settings') },
    run: threadModel,
  },
  {
    words: ['thread', 'instructions'],
    synopsis: 'thread instructions ID [TEXT] [--clear]   this thread’s own system prompt (no TEXT: show it)',
    options: { clear: flag('remove this thread’s instructions') },
    run: threadInstructions,
  },
  {
    words: ['thread', 'context'],
    synopsis: 'thread context MESSAGE_ID   what the model saw for an answer: tokens per part against the budget, the system text',
    options: {},
    run: threadContext,
  },
];
