/**
 * Conversations out of and back into Mnemo from the terminal. As with memories (transfer.commands.ts), files are read
 * and written here, in the host (user-files.ts): the core only returns and reads text.
 */
import type { OpInput, ThreadImportItem, ThreadImportReport } from '../../../shared/contract';
import { operations } from '../../../shared/contract';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { importResult } from '../import-outcome';
import { flag, oneOf, text } from '../options';
import { readUserFile, writeUserFile } from '../user-files';
import { id } from './chat.commands';

const invalid = (message: string): CliOutput => ({ ok: false, error: { code: 'INVALID_INPUT', message } });
const countThreads = (n: number) => `${n} ${n === 1 ? 'thread' : 'threads'}`;
/** Item lines printed before "and N more". */
const SHOWN_ITEMS = 200;

async function exportThreads(ctx: CliContext): Promise<CliOutput> {
  if (ctx.args.length > 1) return invalid('Name one thread, or none to export them all: mnemo thread export [ID].');
  let threadId: number | undefined;
  if (ctx.args[0] !== undefined) {
    const parsed = id(ctx.args[0], 'The thread id');
    if (typeof parsed !== 'number') return parsed;
    threadId = parsed;
  }
  // The parser checked --format against the contract (exportOptions below); md is the contract's default.
  const format = (ctx.flags.format ?? 'md') as OpInput<'thread.export'>['format'];
  const r = await ctx.client.call('thread.export', { format, ...(threadId !== undefined ? { threadId } : {}) });
  if (!r.ok) return r;
  if (ctx.flags.out === undefined) return { ok: true, value: r.value, text: r.value.content.replace(/\n$/, '') };
  const written = writeUserFile(ctx.io.cwd, ctx.flags.out, r.value.content);
  if (!written.ok) return written;
  const { file } = written;
  return { ok: true, value: { file, count: r.value.count, format }, text: `Exported ${countThreads(r.value.count)} to ${file}.` };
}

function itemLine(i: ThreadImportItem, width: number): string {
  const outcome = i.outcome === 'new' && i.threadId !== undefined ? `new -> #${i.threadId}` : i.outcome;
  const title = (i.title || '(untitled)').replace(/\s+/g, ' ').slice(0, 80);
  const versions = i.otherVersions > 0 ? `  (+${i.otherVersions} in other versions)` : '';
  return `${title.padEnd(width)}  ${String(i.messages).padStart(8)}  ${outcome}${versions}${i.reason ? `  (${i.reason})` : ''}`;
}

/** A table for people: each thread's title, how many messages it holds, and what the import does with it. */
export function formatThreadImport(r: ThreadImportReport): string {
  const head = r.dryRun ? 'Dry run: nothing was written.' : `Imported ${countThreads(r.written)}.`;
  const lines = [head, `new ${r.new} · duplicate ${r.duplicate} (already here, left as they are) · invalid ${r.invalid}`];
  const shown = r.items.slice(0, SHOWN_ITEMS);
  if (shown.length > 0) {
    const width = Math.max('title'.length, ...shown.map((i) => Math.min(80, (i.title || '(untitled)').length)));
    lines.push('', `${'title'.padEnd(width)}  messages  outcome`, ...shown.map((i) => itemLine(i, width)));
  }
  if (r.items.length > SHOWN_ITEMS) lines.push(`... and ${r.items.length - SHOWN_ITEMS} more (--json lists them all)`);
  return lines.join('\n');
}

async function importThreads(ctx: CliContext): Promise<CliOutput> {
  const arg = ctx.args.join(' ').trim();
  if (!arg) return invalid('Say which file to import: mnemo thread import FILE [--dry-run] (a JSON thread export).');
  const read = readUserFile(ctx.io.cwd, arg);
  if (!read.ok) return read;
  const r = await ctx.client.call('thread.import', { content: read.content, dryRun: ctx.flags['dry-run'] === 'true' });
  if (!r.ok) return r;
  const { dryRun, written, items } = r.value;
  const counts = { dryRun, imported: dryRun ? r.value.new : written, invalid: r.value.invalid, total: items.length };
  return importResult(counts, THREAD_WORDS, { value: r.value, text: formatThreadImport(r.value) });
}

const THREAD_WORDS = {
  one: 'thread',
  many: 'threads',
  others: 'already here',
  fix: 'Import a file written by "mnemo thread export --format json" (or the app\'s conversation export), or correct the threads the list names, then import it again.',
};

const exportFormats = operations['thread.export'].input.shape.format.unwrap().options;

export const threadTransferCommands: CliCommand[] = [
  {
    words: ['thread', 'export'],
    synopsis: 'thread export [ID] [--format md|json] [--out FILE]   one thread, or all; stdout without --out',
    options: {
      format: oneOf(exportFormats, 'md: for people; json: everything, read back by "thread import" (default md)'),
      out: text('FILE', 'write to FILE instead of stdout'),
    },
    run: exportThreads,
  },
  {
    words: ['thread', 'import'],
    synopsis: 'thread import FILE [--dry-run]   a JSON thread export, as new threads (those already here are skipped)',
    options: { 'dry-run': flag('report what would happen, write nothing') },
    run: importThreads,
  },
];
