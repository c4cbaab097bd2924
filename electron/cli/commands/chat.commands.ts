/**
 * Chat, threads, models and the background queue from the terminal.
 * `chat` streams the reply to stdout and exits once the reply and its writes are done.
 */
import { REMOTE_CONFIRMATION_SETTING } from '../../../shared/model-server-address';
import { serverChoice } from '../../core/llm/llm-provider';
import type { ForgetNotice, Memory, Message, ModelsOverview, OpOutput, QueueState, RecalledEpisodes, Thread, ToolSearch } from '../../../shared/contract';
import type { z } from 'zod';
import type { ErrorCode } from '../../../shared/errors';
import { Id } from '../../../shared/contract';
import { UsageError } from '../parse';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { flag, numberIn, text } from '../options';

export function id(arg: string | undefined, what: string): number | { ok: false; error: { code: 'INVALID_INPUT'; message: string } } {
  const n = Number(arg);
  if (!arg || !Number.isInteger(n) || n <= 0) return { ok: false, error: { code: 'INVALID_INPUT', message: `${what} must be a positive whole number (got "${arg ?? ''}").` } };
  return n;
}

/** One line when Mnemo chose a model itself: none was chosen and the default is not installed (models.service.ts). */
function announceAutoSelection(ctx: CliContext): () => void {
  return ctx.client.on('model.autoSelected', ({ name, keys, instead }) => {
    const use = keys.length === 2 ? 'chat and background work' : keys[0] === 'chatModel' ? 'chat' : 'background work';
    ctx.note(`${instead} is not installed, so Mnemo uses ${name} for ${use} from now on (change it in the app's Settings; --model NAME for one message).`);
  });
}

/** chat.send, or with --edit chat.edit (a new version of a message) and with --regenerate chat.regenerate (of an answer). */
function chatCall(ctx: CliContext, text: string) {
  // The parser checked --thread, --edit and --regenerate against the contract's Id.
  const threadId = ctx.flags.thread === undefined ? undefined : Number(ctx.flags.thread);
  const model = ctx.flags.model ? { model: ctx.flags.model } : {};
  if (ctx.flags.edit !== undefined) return ctx.client.call('chat.edit', { messageId: Number(ctx.flags.edit), text, ...model });
  if (ctx.flags.regenerate !== undefined) return ctx.client.call('chat.regenerate', { messageId: Number(ctx.flags.regenerate), ...model });
  return ctx.client.call('chat.send', { text, ...(threadId ? { threadId } : {}), ...model, ...(ctx.flags.incognito === 'true' ? { incognito: true } : {}) });
}

async function chat(ctx: CliContext): Promise<CliOutput> {
  const text = ctx.args.join(' ').trim();
  const branching = ctx.flags.edit !== undefined || ctx.flags.regenerate !== undefined;
  if (branching && (ctx.flags.thread !== undefined || ctx.flags.incognito === 'true' || (ctx.flags.edit !== undefined && ctx.flags.regenerate !== undefined))) {
    throw new UsageError('--edit and --regenerate name their message, so its thread: use one of them, without --thread or --incognito.');
  }
  if (ctx.flags.regenerate !== undefined && text) throw new UsageError('--regenerate ID takes no text: it answers the same question again. To change the question: --edit ID "new text".');
  if (!text && ctx.flags.regenerate === undefined) {
    const message = ctx.flags.edit !== undefined ? 'An edited message cannot be empty: npm run -s cli -- chat --edit ID "new text"' : 'Say something: npm run -s cli -- chat "your message"';
    return { ok: false, error: { code: 'INVALID_INPUT', message } };
  }
  let replyId: number | null = null;
  let streamed = false;
  let endsLine = false;
  const offAutoSelected = announceAutoSelection(ctx);
  const offCreated = ctx.client.on('message.created', ({ message }) => {
    if (message.role === 'assistant' && replyId === null) replyId = message.id;
  });
  const offDelta = ctx.client.on('message.delta', (d) => {
    if (d.messageId === replyId && !ctx.json && d.content) {
      const piece = streamed ? d.content : d.content.replace(/^\s+/, '');
      if (!piece) return;
      ctx.write(piece);
      streamed = true;
      endsLine = piece.endsWith('\n');
    }
  });
  try {
    const r = await chatCall(ctx, text);
    // A streamed reply ends its line, as every output does: before the notes on stderr, and in a pipe or a file.
    if (streamed && !endsLine) ctx.write('\n');
    if (!r.ok) return r;
    // The searches the model ran with the memory tools, as the answer's context recorded them.
    const context = await ctx.client.call('chat.context', { messageId: r.value.assistantMessage.id });
    const searches = context.ok && context.value ? context.value.tools.searches : [];
    const semanticTimedOut = context.ok && context.value ? context.value.retrieval.semanticTimedOut : false;
    if (!ctx.json) for (const s of searches) ctx.note(describeSearch(s));
    if (!ctx.json && semanticTimedOut) ctx.note('(semantic search took too long; keyword results only: settings retrieval.timeBudgetMs)');
    const recalled = context.ok && context.value ? context.value.recalled : { episodes: [], forgotten: 0 };
    if (!ctx.json) for (const line of describeRecalled(recalled, ctx.localTime)) ctx.note(line);
    const forgets = context.ok && context.value ? context.value.forgets : [];
    if (!ctx.json && forgets.length > 0) {
      const ids = forgets.flatMap((f) => [...f.trashed, ...f.candidates]);
      const found = ids.length > 0 ? await ctx.client.call('memory.getMany', { memoryIds: ids }) : null;
      const byId = new Map((found?.ok ? found.value.items : []).map((m) => [m.id, m]));
      for (const f of forgets) ctx.note(describeForget(f, byId));
    }
    const value = {
      thread_id: r.value.threadId,
      message_id: r.value.assistantMessage.id,
      reply: r.value.assistantMessage.content,
      status: r.value.assistantMessage.status,
      memories_used: r.value.memoriesUsed.map((m) => ({ memory_id: m.memoryId, score: m.score, reason: m.reason, ...(m.matched ? { matched: m.matched } : {}) })),
      forgets: forgets.map((f) => ({ request: f.request, via: f.via, trashed: f.trashed, candidates: f.candidates })),
      recalled_episodes: recalled.episodes.map((e) => ({ episode_id: e.episodeId, thread_id: e.threadId, title: e.title, started_at: e.startedAt })),
      searches: searches.map((s) => ({
        tool: s.tool,
        query: s.query,
        memory_ids: s.memoryIds,
        in_prompt: s.inPrompt,
        message_ids: s.messages.map((m) => m.messageId),
        message_roles: s.messages.map((m) => m.role),
        ...(s.problem ? { problem: s.problem } : {}),
      })),
    };
    const cut = r.value.assistantMessage.status === 'truncated' ? '[the reply was cut at the model’s length limit]' : '';
    return { ok: true, value, text: streamed ? cut : [r.value.assistantMessage.content, cut].filter(Boolean).join('\n') };
  } finally {
    offAutoSelected();
    offCreated();
    offDelta();
  }
}

/**
 * The episodes of the question's time its prompt carried (why the model knew about that conversation), one line each
 * with its day and thread; those deleted forever since counted without their titles. None: no lines.
 */
export function describeRecalled(r: RecalledEpisodes, localTime: (at: number) => string): string[] {
  const lines = r.episodes.map((e) => `  ${localTime(e.startedAt).slice(0, 10)}, in “${e.threadTitle || 'untitled'}” (thread ${e.threadId}): ${e.title}`);
  if (r.forgotten > 0) lines.push(`  ${r.forgotten} more, deleted forever since`);
  return lines.length === 0 ? [] : [`(earlier conversations from the time asked about, in the prompt: ${r.episodes.length + r.forgotten})`, ...lines];
}

/**
 * What a request to forget did (chat/forget-in-chat.ts), with the command that undoes it, or that trashes one of the
 * candidates: the terminal's Undo and picker.
 */
export function describeForget(f: ForgetNotice, byId: ReadonlyMap<number, Memory>): string {
  const line = (id: number) => `  #${id} ${byId.get(id)?.content ?? '(no longer exists)'}`;
  if (f.trashed.length > 0) {
    return [`Forgotten (moved to the trash):`, ...f.trashed.map(line), `Undo: memory restore ${f.trashed.join(' / memory restore ')}`].join('\n');
  }
  if (f.candidates.length > 0) {
    return [`Several memories match “${f.request}”; nothing was forgotten yet:`, ...f.candidates.map(line), 'To forget one: memory delete ID'].join('\n');
  }
  return `Nothing in memory matched “${f.request}”; nothing was forgotten.`;
}

/**
 * One line per search: "(searched memories: “cat” → 1)", matches the prompt already held and earlier answers among
 * past messages named; a call the model got wrong says so.
 */
export function describeSearch(s: ToolSearch): string {
  if (s.tool === 'forget_memory' && !s.problem) return `(asked to forget: “${s.query ?? ''}”)`;
  const what = s.tool === 'search_memory' ? 'memories' : s.tool === 'search_conversations' ? 'conversations' : s.tool;
  if (s.problem) return `(search ${what}${s.query === null ? '' : ` “${s.query}”`} not run: ${s.problem})`;
  const answers = s.messages.filter((m) => m.role === 'assistant').length;
  const whose = answers > 0 ? ` (${answers === s.messages.length ? (answers === 1 ? 'an earlier answer' : 'earlier answers') : `${answers} of them earlier answers`})` : '';
  const inPrompt = s.inPrompt > 0 ? ` (${s.inPrompt === s.memoryIds.length ? (s.inPrompt === 1 ? 'already' : 'all already') : `${s.inPrompt} already`} in the prompt)` : '';
  return `(searched ${what}: “${s.query ?? ''}” → ${s.tool === 'search_conversations' ? `${s.messages.length}${whose}` : `${s.memoryIds.length}${inPrompt}`})`;
}

function formatThread(t: Thread, time: CliContext['localTime']): string {
  return `${String(t.id).padStart(5)}  ${time(t.lastActivityAt)}  ${String(t.messageCount).padStart(4)} msgs  ${t.incognito ? '[incognito] ' : ''}${t.title || '(untitled)'}`;
}

function formatMessage(m: Message): string {
  const badge = m.status === 'complete' ? '' : ` [${m.status}${m.errorCode ? `: ${m.errorCode}` : ''}]`;
  const version = m.version ? ` (version ${m.version.index} of ${m.version.count}: thread branch ${m.id} N)` : '';
  return `#${m.id} ${m.role}${badge}${version}\n${m.content}\n`;
}

function formatModels(o: z.output<typeof ModelsOverview>): string {
  const ollama = o.api === 'ollama';
  const server = ollama ? 'Ollama' : 'Model server (OpenAI-compatible)';
  if (!o.reachable) return `${server} at ${o.host}: not reachable\n${o.error?.message ?? ''}`;
  const lines = [ollama ? `Ollama ${o.version ?? '?'} at ${o.host}` : `${server} at ${o.host}`, ''];
  for (const m of o.models) lines.push(`  ${m.name.padEnd(32)} ${(m.parameterSize ?? '').padEnd(8)}${m.chat ? '' : ' (not a chat model)'}`.trimEnd());
  if (o.models.length === 0) lines.push(ollama ? '  (no models installed: run "ollama pull llama3.2")' : '  (no models listed: load one in the server)');
  const missing = (name: string) => (ollama ? `  (not installed: ollama pull ${name})` : '  (not offered by the server: load it there, or choose a listed one)');
  lines.push('', `chat model:       ${o.chatModel.name}${o.chatModel.installed ? '' : missing(o.chatModel.name)}`);
  lines.push(`background model: ${o.backgroundModel.name}${o.backgroundModel.installed ? '' : missing(o.backgroundModel.name)}`);
  return lines.join('\n');
}

/**
 * Never "nothing to do" while work waits: jobs another process runs, jobs whose runner died (stalled, taken back by
 * the next run) and a pause with its reason all show, each with what to do when the user has something to do.
 */
function formatQueue(s: z.output<typeof QueueState>, time: CliContext['localTime'], server: ServerHere | null): string {
  const here = s.unreachableHere ? unreachableHereLines(s.unreachableHere.message, server) : [];
  const elsewhere = s.runningElsewhere > 0 ? `  (${s.runningElsewhere} in another Mnemo process)` : '';
  const lines = [
    `queued   ${s.queued}`,
    `running  ${s.running ? `#${s.running.id} (${s.running.kind})` : '-'}${elsewhere}`,
    `stalled  ${s.stalled}${s.stalled > 0 ? '  (left running by a runner that stopped; "queue run --until-idle" or the app runs it again)' : ''}`,
    `dead     ${s.dead}`,
    `learning ${learningLine(s.learning)}`,
  ];
  if (!s.paused) return [...lines, 'paused   no', ...here].join('\n');
  const since = s.paused.since === undefined ? '' : ` (since ${time(s.paused.since)})`;
  return [
    ...lines,
    `paused   yes${since}: ${s.paused.message}`,
    `         Waiting jobs are kept. Once that is fixed the app resumes by itself; from the terminal run "queue run --until-idle".`,
    ...here,
  ].join('\n');
}

/** Where this terminal asks for the model server (llm-provider.ts serverChoice), read with its own environment. */
type ServerHere = Pick<ReturnType<typeof serverChoice>, 'api' | 'source'>;

/** The queue as text, with where this terminal asks for the model server (null: its settings could not be read). */
async function queueText({ client, io, localTime }: CliContext, s: z.output<typeof QueueState>): Promise<string> {
  const settings = await client.call('settings.get', {});
  return formatQueue(s, localTime, settings.ok ? serverChoice(settings.value, io.env) : null);
}

/**
 * This terminal's own look at the model server failed (job-queue.ts status(): never the shared queue's pause). Whether
 * the app asks the same server: yes when the data folder's settings choose it; an Ollama address from this shell's
 * OLLAMA_HOST, or the default, is this terminal's alone, and the app may have been started with another.
 */
function unreachableHereLines(message: string, server: ServerHere | null): string[] {
  const line = `model    not reachable from this terminal: ${message}`;
  if (server === null) return [line];
  const why =
    server.api === 'openai' || server.source === 'settings'
      ? "The app asks the same address (this data folder's settings), so learning waits until the server answers."
      : `This terminal's address ${server.source === 'environment' ? 'comes from its OLLAMA_HOST' : 'is the default'}; the app reads its own OLLAMA_HOST and may reach Ollama elsewhere. Set the host in Settings to share one.`;
  return [line, `         ${why}`];
}

/** Whether background model work may run now, and how far learning is behind (model-lane.ts). */
function learningLine({ waitingFor, behind }: z.output<typeof QueueState>['learning']): string {
  const why = {
    chat: 'waits while you chat (the chat goes first)',
    away: 'waits until you are away (Settings: only when I am away)',
    paused: 'paused (Settings: When Mnemo learns); waiting jobs are kept',
    battery: 'waits for mains power (Settings)',
  } as const;
  const state = waitingFor === null ? 'may run now' : why[waitingFor];
  return behind > 0 ? `${state}; ${behind} exchange${behind === 1 ? '' : 's'} not learned yet` : state;
}

/** What background model work cost this session, per purpose, and the server's measured speed. */
function formatUsage(u: OpOutput<'queue.usage'>): string {
  const rows = u.purposes.filter((p) => p.requests + p.preempted > 0);
  const speed = u.speed ? `model speed  ${u.speed.promptPerSecond.toFixed(0)} tokens/s reading, ${u.speed.outputPerSecond.toFixed(1)} tokens/s writing` : 'model speed  not measured yet';
  if (rows.length === 0) return `no background model requests\n${speed}`;
  const line = (p: (typeof rows)[number]) =>
    `${p.purpose.padEnd(12)} ${String(p.requests).padStart(4)} requests  ${String(p.promptTokens).padStart(7)} prompt  ${String(p.outputTokens).padStart(6)} output tokens  ${(p.modelMs / 1000).toFixed(1).padStart(7)} s${p.preempted > 0 ? `  (${p.preempted} stopped for the chat)` : ''}`;
  return [...rows.map(line), speed].join('\n');
}

/**
 * Runs the background queue in this process until no job waits (`queue run --until-idle`, `profile refresh --wait`).
 * On a terminal, a bar over the jobs this run has seen waiting (learning, summaries, titles, re-embedding).
 * A pause (the model server down, a model missing) is a failure: the jobs stay queued for the next run.
 */
export async function runQueueUntilIdle({ client, core, progress }: CliContext): Promise<{ ok: true; value: z.output<typeof QueueState> } | Extract<CliOutput, { ok: false }>> {
  const bar = progress('running jobs');
  let seen = 0;
  const off = bar
    ? client.on('queue.changed', (s) => {
        const left = s.queued + (s.running ? 1 : 0);
        seen = Math.max(seen, left);
        bar.update(seen - left, seen, `${left} left`);
      })
    : () => {};
  try {
    await core.queue.runUntilIdle();
  } finally {
    bar?.end();
    off();
  }
  const r = await client.call('queue.status', {});
  if (!r.ok) return r;
  if (r.value.paused) return { ok: false, error: { code: r.value.paused.code as 'OLLAMA_UNREACHABLE', message: `Queue paused: ${r.value.paused.message}` } };
  return { ok: true, value: r.value };
}

export const chatCommands: CliCommand[] = [
  {
    words: ['chat'],
    synopsis: 'chat [--thread ID] [--model NAME] [--incognito] [--edit ID | --regenerate ID] "text"   streams the reply',
    options: {
      thread: numberIn(Id, 'ID', 'continue this thread (default: a new one)'),
      model: text('NAME', 'the model for this message only'),
      incognito: flag('a new thread that Mnemo learns nothing from'),
      edit: numberIn(Id, 'ID', 'send "text" as a new version of your message ID; what followed it stays as a branch'),
      regenerate: numberIn(Id, 'ID', 'answer the question of answer ID again, beside it (no text)'),
    },
    run: chat,
  },
  {
    words: ['thread', 'list'],
    synopsis: 'thread list              threads by last activity',
    async run({ client, localTime }) {
      const r = await client.call('thread.list', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value.threads, text: r.value.threads.map((t) => formatThread(t, localTime)).join('\n') || '(no threads yet)' };
    },
  },
  {
    words: ['thread', 'show'],
    synopsis: 'thread show ID           messages and summary',
    async run({ client, args }) {
      const threadId = id(args[0], 'The thread id');
      if (typeof threadId !== 'number') return threadId;
      const [thread, page, summary] = await Promise.all([
        client.call('thread.get', { threadId }),
        client.call('thread.messages', { threadId, limit: 1000 }),
        client.call('summary.get', { threadId }),
      ]);
      if (!thread.ok) return thread;
      if (!page.ok) return page;
      if (!summary.ok) return summary;
      // A summary of another version (message-branches.ts) is not sent with this one: say so, as the summary panel does.
      const otherVersion = summary.value?.otherVersion ? '; written from another version of this conversation, not used for the one shown' : '';
      const text = [
        `${thread.value.title || '(untitled)'}${thread.value.incognito ? ' [incognito]' : ''}`,
        summary.value
          ? `\nSummary (${summary.value.coveredCount} messages${summary.value.pendingCount ? `, ${summary.value.pendingCount} not yet summarized` : ''}${otherVersion}):\n${summary.value.content}\n`
          : '',
        ...page.value.messages.map(formatMessage),
      ].join('\n');
      return { ok: true, value: { thread: thread.value, summary: summary.value, messages: page.value.messages }, text };
    },
  },
  {
    words: ['thread', 'branch'],
    synopsis: 'thread branch ID VERSION shows version VERSION of message ID and what followed it (see "thread show")',
    async run({ client, args }) {
      const messageId = id(args[0], 'The message id');
      if (typeof messageId !== 'number') return messageId;
      const version = id(args[1], 'The version');
      if (typeof version !== 'number') return version;
      const r = await client.call('thread.switchBranch', { messageId, version });
      if (!r.ok) return r;
      return { ok: true, value: { thread_id: r.value.threadId, leaf_id: r.value.leafId }, text: `Thread ${r.value.threadId} now shows version ${version} of message ${messageId}.` };
    },
  },
  {
    words: ['thread', 'delete'],
    synopsis: 'thread delete ID         deletes a thread with its messages, summary and jobs',
    async run({ client, args }) {
      const threadId = id(args[0], 'The thread id');
      if (typeof threadId !== 'number') return threadId;
      const r = await client.call('thread.delete', { threadId });
      if (!r.ok) return r;
      return { ok: true, value: { deleted: threadId }, text: `Deleted thread ${threadId}.` };
    },
  },
  {
    words: ['models'],
    synopsis: 'models                   the model server (Ollama or OpenAI-compatible): health and models',
    async run(ctx) {
      const off = announceAutoSelection(ctx);
      const r = await ctx.client.call('models.list', {}).finally(off);
      if (!r.ok) return r;
      if (!r.value.reachable) {
        const code = (r.value.error?.code ?? (r.value.api === 'ollama' ? 'OLLAMA_UNREACHABLE' : 'LLM_UNREACHABLE')) as ErrorCode;
        // A server on another machine not confirmed: the details the terminal turns into the command that confirms it.
        const remote = r.value.remote && !r.value.remote.confirmed ? { details: { confirm: { setting: REMOTE_CONFIRMATION_SETTING[r.value.api], address: r.value.remote.address } } } : {};
        return { ok: false, error: { code, message: r.value.error?.message ?? `Cannot reach the model server at ${r.value.host}.`, ...remote } };
      }
      return { ok: true, value: r.value, text: formatModels(r.value) };
    },
  },
  {
    words: ['queue', 'status'],
    synopsis: 'queue status             background jobs: queued, running, dead, paused',
    async run(ctx) {
      const r = await ctx.client.call('queue.status', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: await queueText(ctx, r.value) };
    },
  },
  {
    words: ['queue', 'run'],
    synopsis: 'queue run --until-idle   processes pending jobs, then exits',
    options: { 'until-idle': flag('run until no job is waiting, then exit (required)') },
    async run(ctx) {
      if (ctx.flags['until-idle'] !== 'true') return { ok: false, error: { code: 'INVALID_INPUT', message: 'Use "queue run --until-idle" (the app runs the queue continuously).' } };
      const r = await runQueueUntilIdle(ctx);
      if (!r.ok) return r;
      const usage = await ctx.client.call('queue.usage', {});
      const queue = await queueText(ctx, r.value);
      return { ok: true, value: r.value, text: usage.ok ? `${queue}\n\nthis run:\n${formatUsage(usage.value)}` : queue };
    },
  },
  {
    words: ['queue', 'retry'],
    synopsis: 'queue retry ID           puts a dead or cancelled job back in the queue',
    async run({ client, args }) {
      const jobId = id(args[0], 'The job id');
      if (typeof jobId !== 'number') return jobId;
      const r = await client.call('queue.retry', { jobId });
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: `Job ${jobId} (${r.value.kind}) is queued again.` };
    },
  },
];
