/**
 * Downloading a model into Ollama from the terminal (`models pull NAME`), as the app's download button does: the
 * models.pull operation starts it, model.pullProgressed events carry the progress and, at the end, the outcome. A bar
 * on a terminal (stderr) only; in a pipe or a log the outcome says it all. Only Ollama downloads models: with an
 * OpenAI-compatible server the core refuses, saying where to download it instead.
 */
import type { EventPayload } from '../../../shared/contract';
import type { ErrorCode } from '../../../shared/errors';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { formatBytes } from '../terminal';

type PullProgress = EventPayload<'model.pullProgressed'>;

/** The words beside the bar: Ollama's status ("pulling 3f2a…", "verifying sha256 digest") and the bytes of its layer. */
export function pullProgressDetail(p: PullProgress): string {
  return p.completedBytes !== null && p.totalBytes !== null ? `${p.status}  ${formatBytes(p.completedBytes)} / ${formatBytes(p.totalBytes)}` : p.status;
}

async function pull(ctx: CliContext): Promise<CliOutput> {
  const name = ctx.args.join(' ').trim();
  if (!name) return { ok: false, error: { code: 'INVALID_INPUT', message: 'Say which model to download: mnemo models pull NAME (e.g. llama3.2).' } };
  let finish!: (p: PullProgress) => void;
  const finished = new Promise<PullProgress>((resolve) => (finish = resolve));
  const bar = ctx.progress('pulling');
  // Ollama reports each layer on its own: a line without bytes (the manifest, the digest check) keeps the last share.
  let share = { done: 0, total: 0 };
  // Subscribed before the call: the outcome of a pull that fails at once can arrive before the call returns.
  const off = ctx.client.on('model.pullProgressed', (p) => {
    if (p.name !== name) return;
    if (p.done) return finish(p);
    if (p.completedBytes !== null && p.totalBytes !== null) share = { done: p.completedBytes, total: p.totalBytes };
    bar?.update(share.done, share.total, pullProgressDetail(p));
  });
  // Ctrl-C stops the pull in the core, whose last event then ends the wait.
  const cancel = () => void ctx.client.call('models.cancelPull', { name });
  const offInterrupt = ctx.io.onInterrupt(cancel);
  try {
    const started = await ctx.client.call('models.pull', { name });
    if (!started.ok) return started;
    // started false: this process pulls that model already; its outcome is the one to wait for.
    const outcome = await finished;
    if (outcome.status === 'cancelled') {
      return { ok: false, error: { code: 'ABORTED', message: `Stopped downloading ${name}. Ollama keeps what it has: "mnemo models pull ${name}" resumes.` } };
    }
    if (outcome.error) return { ok: false, error: { code: outcome.error.code as ErrorCode, message: outcome.error.message } };
    return {
      ok: true,
      value: { name, started: started.value.started, status: outcome.status },
      text: `Pulled ${name}. To chat with it: mnemo settings set chatModel ${name}`,
    };
  } finally {
    offInterrupt();
    bar?.end();
    off();
  }
}

export const modelsCommands: CliCommand[] = [
  {
    words: ['models', 'pull'],
    synopsis: 'models pull NAME         downloads a model into Ollama, with progress (Ollama only)',
    run: pull,
  },
];
