/**
 * Semantic search from the terminal: whether it is on (and why not), and downloading the local embedding model.
 * `embedding download` shows a progress bar on a terminal, then the final state; Ctrl-C cancels it cleanly (files
 * already complete are kept for the next try).
 */
import type { EmbeddingDownloadProgress, EmbeddingStatus } from '../../../shared/contract';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { formatBytes } from '../terminal';

async function download(ctx: CliContext): Promise<CliOutput> {
  let finish!: (status: EmbeddingStatus) => void;
  const finished = new Promise<EmbeddingStatus>((resolve) => (finish = resolve));
  let downloading = false;
  // The outcome arrives as events; a state before 'downloading' is the check for local files, not the end.
  const offStatus = ctx.client.on('embedding.statusChanged', ({ status }) => {
    if (status.state === 'downloading') downloading = true;
    else if (status.state === 'ready' || (downloading && status.state === 'unavailable')) finish(status);
  });
  // A bar on a terminal (stderr) only: in a pipe or a log, the final state says it all.
  const bar = ctx.progress('downloading');
  const offProgress = ctx.client.on('embedding.downloadProgressed', (p) => bar?.update(p.loadedBytes, p.totalBytes, formatProgress(p)));
  const cancel = () => void ctx.client.call('embedding.cancelDownload', {});
  const offInterrupt = ctx.io.onInterrupt(cancel);
  try {
    const started = await ctx.client.call('embedding.download', {});
    if (!started.ok) return started;
    if (!started.value.started && started.value.status.state === 'ready') return done(started.value.status);
    // The event that ended the download, not a fresh `embedding.status`: after a failure, that would retry the
    // local model and say only "not installed", losing why the download failed.
    return done(await finished);
  } finally {
    bar?.end();
    offInterrupt();
    offStatus();
    offProgress();
  }
}

function done(status: EmbeddingStatus): CliOutput {
  if (status.state !== 'ready') {
    return { ok: false, error: { code: 'EMBEDDER_UNAVAILABLE', message: status.message ?? 'The embedding model is not available.' } };
  }
  return { ok: true, value: status, text: formatStatus(status) };
}

export function formatProgress(p: EmbeddingDownloadProgress): string {
  return `${formatBytes(p.loadedBytes)} / ${formatBytes(p.totalBytes)}  ${p.file}`;
}

export function formatStatus(s: EmbeddingStatus): string {
  const search = { ready: 'on', loading: 'loading', downloading: 'downloading', unavailable: 'off' }[s.state];
  const lines = [`semantic search  ${search}`, `provider         ${s.provider ?? '-'}`, `model            ${s.modelId ?? '-'}`];
  if (s.dimensions !== null) lines.push(`dimensions       ${s.dimensions}`);
  if (s.reason !== null) lines.push(`reason           ${s.reason}`);
  if (s.message !== null) lines.push('', s.message);
  if (s.provider === 'onnx' && s.reason === 'model_missing') lines.push('To download it now: npm run -s cli -- embedding download');
  return lines.join('\n');
}

export const embeddingCommands: CliCommand[] = [
  {
    words: ['embedding', 'status'],
    synopsis: 'embedding status         whether semantic search is on, with which model, and if not why',
    async run({ client }) {
      const r = await client.call('embedding.status', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: formatStatus(r.value) };
    },
  },
  {
    words: ['embedding', 'download'],
    synopsis: 'embedding download       download the local embedding model (HF_ENDPOINT picks a mirror)',
    run: download,
  },
];
