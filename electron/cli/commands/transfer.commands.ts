/**
 * Memory export, import and maintenance from the terminal. Export and import read and write files here, in the host:
 * the core only sees and returns text (as it does for the app, whose page saves and opens files).
 */
import type { EventPayload, ImportItem, ImportReport, MaintenanceReport, MemoryCategory, OpInput } from '../../../shared/contract';
import { MemoryCategory as CategorySchema, operations } from '../../../shared/contract';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { importResult } from '../import-outcome';
import { flag, oneOf, text, type Options } from '../options';
import { readUserFile, writeUserFile } from '../user-files';
import { remainingCopiesText } from './memory.commands';

const invalid = (message: string): CliOutput => ({ ok: false, error: { code: 'INVALID_INPUT', message } });
/** Item lines printed before "and N more". */
const SHOWN_ITEMS = 200;

async function exportMemories(ctx: CliContext): Promise<CliOutput> {
  const format = ctx.flags.format as OpInput<'memory.export'>['format'];
  const r = await ctx.client.call('memory.export', {
    format: format ?? 'json',
    includeArchived: ctx.flags['include-archived'] === 'true',
    includeTrashed: ctx.flags['include-trashed'] === 'true',
  });
  if (!r.ok) return r;
  const out = ctx.flags.out;
  if (out === undefined) return { ok: true, value: r.value, text: r.value.content.replace(/\n$/, '') };
  const written = writeUserFile(ctx.io.cwd, out, r.value.content);
  if (!written.ok) return written;
  const { file } = written;
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
  lines.push(...capLines(r));
  if (r.items.length > 0) lines.push('', ...r.items.slice(0, SHOWN_ITEMS).map(itemLine));
  if (r.items.length > SHOWN_ITEMS) lines.push(`... and ${r.items.length - SHOWN_ITEMS} more (--json lists them all)`);
  return lines.join('\n');
}

const countMemories = (n: number) => `${n} ${n === 1 ? 'memory' : 'memories'}`;

/** When the active total goes past the cap: what the cap counts, and whether anything will go to the trash for it. */
function capLines({ cap: c, dryRun }: ImportReport): string[] {
  if (c.active <= c.cap) return [];
  return [
    `${dryRun ? 'After this import you will have' : 'You now have'} ${countMemories(c.active)} active, more than the cap of ${c.cap}. ` +
      `The cap counts only what Mnemo learned on its own (${c.learned} now): imported memories never count and are never trashed for it.`,
    c.overCap > 0
      ? `Mnemo learned ${countMemories(c.overCap)} more than the cap allows: the next maintenance moves its ${c.overCap} least useful learned ones to the trash, ` +
        `where "memory restore ID" brings one back within ${c.restorableDays} days.`
      : 'Nothing will be moved to the trash for the cap.',
  ];
}

async function importMemories(ctx: CliContext): Promise<CliOutput> {
  const arg = ctx.args.join(' ').trim();
  if (!arg) return invalid('Say which file to import: npm run -s cli -- memory import FILE [--dry-run]');
  // The parser checked each value against the contract (importOptions below).
  const format = ctx.flags.format as OpInput<'memory.import'>['format'];
  const onConflict = ctx.flags['on-conflict'] as OpInput<'memory.import'>['onConflict'];
  const category = ctx.flags.category as MemoryCategory | undefined;
  const read = readUserFile(ctx.io.cwd, arg);
  if (!read.ok) return read;
  const { content } = read;
  // A bar on a terminal (stderr) only: in a pipe or a log it would be noise.
  const bar = ctx.progress('preparing');
  const off = bar ? ctx.client.on('import.progressed', ({ done, total }) => bar.update(done, total, `${done}/${total}`)) : () => {};
  try {
    const r = await ctx.client.call('memory.import', {
      content,
      dryRun: ctx.flags['dry-run'] === 'true',
      ...(format ? { format } : {}),
      ...(onConflict ? { onConflict } : {}),
      ...(category ? { defaultCategory: category } : {}),
    });
    bar?.end();
    if (!r.ok) return r;
    const { dryRun, written, conflicting, items } = r.value;
    // A dry run writes nothing: what it would write is the new ones, and the conflicts when they are imported too.
    const imported = dryRun ? r.value.new + (onConflict === 'import' ? conflicting : 0) : written;
    return importResult({ dryRun, imported, invalid: r.value.invalid, total: items.length }, MEMORY_WORDS, { value: r.value, text: formatImport(r.value) });
  } finally {
    off();
  }
}

const MEMORY_WORDS = {
  one: 'memory',
  many: 'memories',
  others: 'already here or conflicts skipped (--on-conflict import writes conflicts too)',
  fix: 'A file holds one memory per line (a few words each; headings set the category) or is a Mnemo memory export: correct the entries the list names, then import it again.',
};

function formatMaintenance(r: MaintenanceReport): string {
  return [
    `merged          ${r.merged}${r.mergeChecked ? (r.mergePending > 0 ? `   (${r.mergePending} still to check: run again)` : '') : '   (not checked: semantic search is off)'}`,
    `decayed         ${r.decayed}`,
    `trashed (cap)   ${r.trashedForCap}${r.trashedForCap > 0 ? '   (learned memories beyond the cap, least useful first)' : ''}`,
    `cap             ${r.cap.learned} learned of ${r.cap.cap} allowed; ${r.cap.active} active (what you wrote, edited, pinned, approved or imported never counts)`,
    `purged (trash)  ${r.purged}`,
    `newly expired   ${r.expired}`,
    `summaries       ${r.clustersQueued} queued, ${r.clustersSummarised} written since the last run${r.clustersQueued > 0 ? '   (groups of related memories the background model summarises: "queue run --until-idle" does it now)' : ''}`,
    '',
    'Every change is a version: "memory show ID" lists it, "memory revert" or "memory restore" undoes it, "memory unconsolidate ID" undoes a summary.',
    ...(r.purgedCopiesRemain ? ['', 'The memories purged from the trash were erased from the backups, but not from every one.', remainingCopiesText(r.purgedCopiesRemain)] : []),
  ].join('\n');
}

/** What each maintenance step is doing, beside the bar. */
const STEP_NAMES: Record<EventPayload<'maintenance.progressed'>['step'], string> = {
  expire: 'marking expired',
  merge: 'checking for near-duplicates',
  decay: 'decaying',
  cap: 'applying the cap',
  purge: 'emptying old trash',
};

export function maintenanceProgressDetail({ step, done, total }: EventPayload<'maintenance.progressed'>): string {
  return `${STEP_NAMES[step]} ${done}/${total}`;
}

async function maintain(ctx: CliContext): Promise<CliOutput> {
  // A bar on a terminal (stderr) only: in a pipe or a log it would be noise. A step with nothing to do is complete.
  const bar = ctx.progress('maintaining');
  const off = bar ? ctx.client.on('maintenance.progressed', (p) => bar.update(p.total === 0 ? 1 : p.done, p.total === 0 ? 1 : p.total, maintenanceProgressDetail(p))) : () => {};
  try {
    const r = await ctx.client.call('memory.maintain', {});
    if (!r.ok) return r;
    return { ok: true, value: r.value, text: formatMaintenance(r.value) };
  } finally {
    bar?.end();
    off();
  }
}

const exportInput = operations['memory.export'].input.shape;
const importInput = operations['memory.import'].input.shape;
const exportOptions: Options = {
  format: oneOf(exportInput.format.unwrap().options, 'json: everything, read back by import; md: a readable profile (default json)'),
  out: text('FILE', 'write to FILE instead of stdout'),
  'include-archived': flag('archived memories too'),
  'include-trashed': flag('memories in the trash too'),
};
const importOptions: Options = {
  'dry-run': flag('report what would happen, write nothing'),
  format: oneOf(importInput.format.unwrap().options, 'how to read the file (default auto)'),
  category: oneOf(CategorySchema.options, 'the kind of text lines before any heading (default knowledge)'),
  'on-conflict': oneOf(importInput.onConflict.unwrap().options, 'what to do with near-duplicates (default skip)'),
};

export const transferCommands: CliCommand[] = [
  {
    words: ['memory', 'export'],
    synopsis: 'memory export [--format json|md] [--out FILE] [--include-archived] [--include-trashed]   stdout without --out',
    options: exportOptions,
    run: exportMemories,
  },
  {
    words: ['memory', 'import'],
    synopsis: 'memory import FILE [--dry-run] [--format auto|mnemo-json|text] [--category C] [--on-conflict skip|import]',
    options: importOptions,
    run: importMemories,
  },
  {
    words: ['memory', 'maintain'],
    synopsis: 'memory maintain          merge near-duplicates, decay, cap, empty old trash, mark expired (also daily in the app)',
    run: maintain,
  },
];
