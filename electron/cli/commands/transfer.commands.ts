/**
 * Memory export, import and maintenance from the terminal. Export and import read and write files here, in the host:
 * the core only sees and returns text (as it does for the app, whose page saves and opens files).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ImportItem, ImportReport, MaintenanceReport, MemoryCategory } from '../../../shared/contract';
import { MemoryCategory as CategorySchema } from '../../../shared/contract';
import type { CliCommand, CliContext, CliOutput } from '../commands';

const invalid = (message: string): CliOutput => ({ ok: false, error: { code: 'INVALID_INPUT', message } });
/** Item lines printed before "and N more". */
const SHOWN_ITEMS = 200;

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T | undefined | CliOutput {
  if (value === undefined) return undefined;
  if (allowed.includes(value as T)) return value as T;
  return invalid(`${flag} must be one of ${allowed.join(', ')} (got "${value}").`);
}
const isOutput = (x: unknown): x is CliOutput => typeof x === 'object' && x !== null && 'ok' in x;

async function exportMemories(ctx: CliContext): Promise<CliOutput> {
  const format = oneOf(ctx.flags.format, ['json', 'md'] as const, '--format');
  if (isOutput(format)) return format;
  const r = await ctx.client.call('memory.export', {
    format: format ?? 'json',
    includeArchived: ctx.flags['include-archived'] === 'true',
    includeTrashed: ctx.flags['include-trashed'] === 'true',
  });
  if (!r.ok) return r;
  const out = ctx.flags.out;
  if (out === undefined) return { ok: true, value: r.value, text: r.value.content.replace(/\n$/, '') };
  const file = path.resolve(out);
  try {
    fs.writeFileSync(file, r.value.content, 'utf8');
  } catch (e) {
    return invalid(`Cannot write ${file} (${(e as { code?: string }).code ?? (e as Error).message}).`);
  }
  const value = { file, count: r.value.count, format: format ?? 'json' };
  return { ok: true, value, text: `Exported ${r.value.count} ${r.value.count === 1 ? 'memory' : 'memories'} to ${file}.` };
}

function itemLine(i: ImportItem): string {
  const where = i.line !== undefined ? `line ${i.line}` : `item ${i.index ?? '?'}`;
  const ref = i.memoryId !== undefined ? `-> #${i.memoryId}` : i.existingId !== undefined ? `#${i.existingId}` : '';
  const note = i.reason ? `  (${i.reason}${i.imported ? '; imported anyway' : ''})` : '';
  return `${where.padEnd(10)} ${i.outcome.padEnd(9)} ${ref.padEnd(8)} ${i.content.replace(/\s+/g, ' ').slice(0, 100)}${note}`;
}

function formatImport(r: ImportReport): string {
  const head = r.dryRun
    ? 'Dry run: nothing was written.'
    : `Imported ${r.written} ${r.written === 1 ? 'memory' : 'memories'}${r.conflicting > 0 && r.written < r.new + r.conflicting ? ' (conflicts skipped: --on-conflict import writes them too)' : ''}.`;
  const lines = [
    head,
    `new ${r.new} · duplicate ${r.duplicate} · conflict ${r.conflicting} · invalid ${r.invalid}   (${r.format === 'mnemo-json' ? 'Mnemo export' : 'text, one memory per line'})`,
    `near-duplicates: ${r.nearDuplicateCheck ? 'checked by meaning' : 'exact text only (semantic search is off: see memory stats)'}`,
  ];
  if (r.items.length > 0) lines.push('', ...r.items.slice(0, SHOWN_ITEMS).map(itemLine));
  if (r.items.length > SHOWN_ITEMS) lines.push(`... and ${r.items.length - SHOWN_ITEMS} more (--json lists them all)`);
  return lines.join('\n');
}

async function importMemories(ctx: CliContext): Promise<CliOutput> {
  const arg = ctx.args.join(' ').trim();
  if (!arg) return invalid('Say which file to import: npm run -s cli -- memory import FILE [--dry-run]');
  const format = oneOf(ctx.flags.format, ['auto', 'mnemo-json', 'text'] as const, '--format');
  if (isOutput(format)) return format;
  const onConflict = oneOf(ctx.flags['on-conflict'], ['skip', 'import'] as const, '--on-conflict');
  if (isOutput(onConflict)) return onConflict;
  const category = oneOf<MemoryCategory>(ctx.flags.category, CategorySchema.options, '--category');
  if (isOutput(category)) return category;
  const file = path.resolve(arg);
  let content: string;
  try {
    content = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return { ok: false, error: { code: 'NOT_FOUND', message: `Cannot read ${file} (${(e as { code?: string }).code ?? (e as Error).message}).` } };
  }
  // Progress only on a terminal: in a pipe or a log it would be noise.
  const live = !ctx.json && process.stdout.isTTY;
  const off = live ? ctx.client.on('import.progressed', ({ done, total }) => ctx.write(`\rpreparing ${done}/${total}`)) : () => {};
  try {
    const r = await ctx.client.call('memory.import', {
      content,
      dryRun: ctx.flags['dry-run'] === 'true',
      ...(format ? { format } : {}),
      ...(onConflict ? { onConflict } : {}),
      ...(category ? { defaultCategory: category } : {}),
    });
    if (live) ctx.write('\r\x1b[K');
    if (!r.ok) return r;
    return { ok: true, value: r.value, text: formatImport(r.value) };
  } finally {
    off();
  }
}

function formatMaintenance(r: MaintenanceReport): string {
  return [
    `merged          ${r.merged}${r.mergeChecked ? (r.mergePending > 0 ? `   (${r.mergePending} still to check: run again)` : '') : '   (not checked: semantic search is off)'}`,
    `decayed         ${r.decayed}`,
    `trashed (cap)   ${r.trashedForCap}`,
    `purged (trash)  ${r.purged}`,
    `newly expired   ${r.expired}`,
    '',
    'Every change is a version: "memory show ID" lists it, "memory revert" or "memory restore" undoes it.',
  ].join('\n');
}

export const transferCommands: CliCommand[] = [
  {
    words: ['memory', 'export'],
    synopsis: 'memory export [--format json|md] [--out FILE] [--include-archived] [--include-trashed]   stdout without --out',
    run: exportMemories,
  },
  {
    words: ['memory', 'import'],
    synopsis: 'memory import FILE [--dry-run] [--format auto|mnemo-json|text] [--category C] [--on-conflict skip|import]',
    run: importMemories,
  },
  {
    words: ['memory', 'maintain'],
    synopsis: 'memory maintain          merge near-duplicates, decay, cap, empty old trash, mark expired (also daily in the app)',
    async run({ client }) {
      const r = await client.call('memory.maintain', {});
      if (!r.ok) return r;
      return { ok: true, value: r.value, text: formatMaintenance(r.value) };
    },
  },
];
