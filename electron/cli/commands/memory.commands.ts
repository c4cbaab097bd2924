/**
 * Long-term memory from the terminal: add, list, search, show, edit, delete, restore, purge, revert, stats.
 * Every command is one contract operation; with --json it prints the operation's value.
 */
import type { BackupErasure, Memory, MemoryCategory, MemoryHit, MemoryStatus, OpOutput, PurgedDerived, RemainingCopy } from '../../../shared/contract';
import { MemoryCategory as CategorySchema, MemoryStatus as StatusSchema, operations } from '../../../shared/contract';
import { daysInMonth, endOfDay } from '../../../shared/calendar-day';
import type { CliCommand, CliContext, CliOutput } from '../cli-command';
import { flag, numberIn, oneOf, someOf, text, type Options } from '../options';

type Failure = { ok: false; error: { code: 'INVALID_INPUT'; message: string } };
const invalid = (message: string): Failure => ({ ok: false, error: { code: 'INVALID_INPUT', message } });
const isFailure = (x: unknown): x is Failure => typeof x === 'object' && x !== null && (x as Failure).ok === false;

function positiveInt(arg: string | undefined, what: string): number | Failure {
  const n = Number(arg);
  if (!arg || !Number.isInteger(n) || n <= 0) return invalid(`${what} must be a positive whole number (got "${arg ?? ''}").`);
  return n;
}

/**
 * An expiry: a date (2026-03-01: the memory holds through that day, to its end in the user's time zone, as the app's
 * date picker sets it) or a date and time (2026-03-01T18:00Z, 2026-03-01T18:00 in this process's zone).
 */
async function expiry(ctx: CliContext, arg: string, what: string): Promise<number | Failure> {
  const bad = invalid(`${what} must be a date like 2026-03-01 or 2026-03-01T18:00Z (got "${arg}").`);
  const ymd = /^(\d{4})-(\d{2})-(\d{2})$/.exec(arg);
  if (!ymd) {
    const t = /^\d{4}-\d{2}-\d{2}[T ]/.test(arg) ? Date.parse(arg) : NaN;
    return Number.isFinite(t) ? t : bad;
  }
  const day = { y: Number(ymd[1]), m: Number(ymd[2]) - 1, d: Number(ymd[3]) };
  if (day.m < 0 || day.m > 11 || day.d < 1 || day.d > daysInMonth(day.y, day.m)) return bad;
  return endOfDay(day, ctx.timeZone);
}

const CATEGORIES = CategorySchema.options;
const STATUSES = StatusSchema.options;
/** Comma-separated values the parser has already checked against the contract's enum (options.ts someOf). */
const listed = <T extends string>(arg: string) => arg.split(',').map((s) => s.trim()).filter(Boolean) as T[];

function badges(m: Memory): string {
  const b = [m.pinned ? 'pinned' : '', m.status !== 'active' ? m.status : '', m.expired ? 'expired' : ''].filter(Boolean);
  return b.length > 0 ? ` [${b.join(', ')}]` : '';
}

function oneLine(m: Memory): string {
  return `#${String(m.id).padEnd(6)} ${m.category.padEnd(10)} ${m.importance.toFixed(2)}  ${m.content.replace(/\s+/g, ' ')}${badges(m)}`;
}

function formatMemory(m: Memory, time: CliContext['localTime']): string {
  return [
    `memory      #${m.id}${badges(m)}`,
    `content     ${m.content}`,
    `category    ${m.category}`,
    `importance  ${m.importance.toFixed(2)}   confidence ${m.confidence.toFixed(2)}`,
    `expires     ${m.expiresAt === null ? 'never' : time(m.expiresAt)}`,
    `created     ${time(m.createdAt)}   updated ${time(m.updatedAt)}`,
    `used        ${m.accessCount} time${m.accessCount === 1 ? '' : 's'}${m.lastUsedAt === null ? '' : `, last ${time(m.lastUsedAt)}`}`,
    `vector      ${m.embeddingModel ?? 'none yet (found by keyword only)'}`,
  ].join('\n');
}

function formatDetail(d: OpOutput<'memory.get'>, time: CliContext['localTime'], access: OpOutput<'memory.access'>['entries'] = []): string {
  const lines = [formatMemory(d.memory, time), ''];
  const p = d.provenance;
  if (p.writtenBy) {
    // An app's memory has no thread: its quote of the user's words, when it gave one, is the evidence.
    lines.push(`source      written by ${p.writtenBy.app} (connected app)`);
    if (p.evidence) lines.push(`evidence    "${p.evidence}"`);
  } else if (p.threadId === null && p.messageId === null && p.evidence === null) lines.push('source      added by hand or imported');
  else {
    lines.push(`source      thread ${p.threadId ?? '(deleted)'}${p.threadTitle ? ` "${p.threadTitle}"` : ''}, message ${p.messageId ?? '(deleted)'}`);
    if (p.evidence) lines.push(`evidence    "${p.evidence}"`);
  }
  for (const old of d.replaces ?? []) lines.push(`replaces    #${old.id} "${old.content.replace(/\s+/g, ' ')}"`);
  lines.push('', 'versions');
  for (const v of d.versions) {
    lines.push(`  v${v.version}  ${time(v.createdAt)}  ${v.origin}/${v.reason}  ${v.category} ${v.importance.toFixed(2)}${v.pinned ? ' pinned' : ''} ${v.status}  ${v.content.replace(/\s+/g, ' ')}`);
    for (const r of (d.replacedBy ?? []).filter((x) => x.version === v.version)) {
      lines.push(`        replaced by ${r.memory ? `#${r.memory.id} "${r.memory.content.replace(/\s+/g, ' ')}"` : 'a memory deleted since'}`);
    }
  }
  lines.push('', `used by answers (${d.usesTotal})`);
  for (const u of d.uses) lines.push(`  message ${u.messageId} in thread ${u.threadId}  ${time(u.at)}  ${u.reason} #${u.rank} score ${u.score.toFixed(3)}`);
  if (access.length > 0) {
    lines.push('', 'other apps (MCP)');
    for (const a of access) lines.push(`  ${a.client}: read ${a.reads}, wrote ${a.writes}, last ${time(a.lastAt)}`);
  }
  return lines.join('\n');
}

function formatHit(h: MemoryHit): string {
  return `#${String(h.memory.id).padEnd(6)} ${h.score.toFixed(3)}  ${h.reason.padEnd(8)} ${h.memory.content.replace(/\s+/g, ' ')}${badges(h.memory)}`;
}

function formatStats(s: OpOutput<'memory.stats'>): string {
  const sem = s.semanticSearch;
  const semantic =
    sem.state === 'ready' ? `on (${sem.modelId}, ${sem.dimensions} dimensions)` : sem.state === 'unavailable' ? `off (${sem.reason ?? 'unavailable'})` : `${sem.state} (${sem.modelId ?? '-'})`;
  const lines = [
    `memories         ${s.total}`,
    `by status        ${Object.entries(s.byStatus).map(([k, n]) => `${k} ${n}`).join(', ')}`,
    `active by kind   ${Object.entries(s.byCategory).map(([k, n]) => `${k} ${n}`).join(', ')}`,
    `pinned           ${s.pinned}`,
    `expired          ${s.expired}`,
    `vectors          ${s.vectors.present} present, ${s.vectors.missing} missing (${s.vectors.dimensions} dimensions)`,
    `semantic search: ${semantic}`,
  ];
  if (sem.state !== 'ready' && sem.message) lines.push('', sem.message);
  return lines.join('\n');
}

/** --category and --importance, shared by add and edit (the parser checked both against the contract). */
function categoryAndImportance(ctx: CliContext): { category?: MemoryCategory; importance?: number } {
  const out: { category?: MemoryCategory; importance?: number } = {};
  if (ctx.flags.category !== undefined) out.category = ctx.flags.category as MemoryCategory;
  if (ctx.flags.importance !== undefined) out.importance = Number(ctx.flags.importance);
  return out;
}

async function add(ctx: CliContext): Promise<CliOutput> {
  const content = ctx.args.join(' ').trim();
  if (!content) return invalid('Say what to remember: npm run -s cli -- memory add "text" [--category C] [--importance X] [--pin] [--expires DATE]');
  const fields = categoryAndImportance(ctx);
  const input: { content: string; category?: MemoryCategory; importance?: number; pinned?: boolean; expiresAt?: number } = { content, ...fields };
  if (ctx.flags.pin === 'true') input.pinned = true;
  if (ctx.flags.expires !== undefined) {
    const t = await expiry(ctx, ctx.flags.expires, '--expires');
    if (isFailure(t)) return t;
    input.expiresAt = t;
  }
  const r = await ctx.client.call('memory.create', input);
  if (!r.ok) return r;
  const note = r.value.embeddingModel === null ? '\n(no vector yet: found by keyword until semantic search is on)' : '';
  return { ok: true, value: r.value, text: `Added memory #${r.value.id}.\n${oneLine(r.value)}${note}` };
}

async function listMemories(ctx: CliContext): Promise<CliOutput> {
  const input: { categories?: MemoryCategory[]; statuses?: MemoryStatus[]; pinned?: boolean; limit?: number; query?: string } = {};
  if (ctx.flags.category !== undefined) input.categories = listed<MemoryCategory>(ctx.flags.category);
  if (ctx.flags.status !== undefined) input.statuses = listed<MemoryStatus>(ctx.flags.status);
  if (ctx.flags.pinned === 'true') input.pinned = true;
  if (ctx.flags.limit !== undefined) input.limit = Number(ctx.flags.limit);
  if (ctx.args.length > 0) input.query = ctx.args.join(' ');
  const r = await ctx.client.call('memory.list', input);
  if (!r.ok) return r;
  const { items, total } = r.value;
  const text = items.length === 0 ? 'No memories match.' : [...items.map(oneLine), '', `${items.length} of ${total}`].join('\n');
  return { ok: true, value: r.value, text };
}

async function search(ctx: CliContext): Promise<CliOutput> {
  const query = ctx.args.join(' ').trim();
  if (!query) return invalid('Say what to look for: npm run -s cli -- memory search "query" [--limit N]');
  const limit = ctx.flags.limit === undefined ? undefined : Number(ctx.flags.limit);
  const r = await ctx.client.call('memory.search', { query, ...(limit ? { limit } : {}) });
  if (!r.ok) return r;
  const mode = r.value.mode === 'hybrid' ? 'hybrid (semantic + keyword)' : 'keyword only (semantic search is off: see memory stats)';
  const body = r.value.hits.length === 0 ? 'No memories match.' : r.value.hits.map(formatHit).join('\n');
  return { ok: true, value: r.value, text: `${body}\n\nsearch: ${mode}` };
}

async function show(ctx: CliContext): Promise<CliOutput> {
  const memoryId = positiveInt(ctx.args[0], 'The memory id');
  if (isFailure(memoryId)) return memoryId;
  const r = await ctx.client.call('memory.get', { memoryId });
  if (!r.ok) return r;
  const access = await ctx.client.call('memory.access', { memoryId });
  return { ok: true, value: r.value, text: formatDetail(r.value, ctx.localTime, access.ok ? access.value.entries : []) };
}

async function edit(ctx: CliContext): Promise<CliOutput> {
  const memoryId = positiveInt(ctx.args[0], 'The memory id');
  if (isFailure(memoryId)) return memoryId;
  const fields = categoryAndImportance(ctx);
  const patch: { content?: string; category?: MemoryCategory; importance?: number; pinned?: boolean; expiresAt?: number | null } = { ...fields };
  if (ctx.flags.content !== undefined) patch.content = ctx.flags.content;
  if (ctx.flags.pin === 'true' && ctx.flags.unpin === 'true') return invalid('Use either --pin or --unpin, not both.');
  if (ctx.flags.pin === 'true') patch.pinned = true;
  if (ctx.flags.unpin === 'true') patch.pinned = false;
  if (ctx.flags.expires !== undefined) {
    if (ctx.flags.expires === 'never') patch.expiresAt = null;
    else {
      const t = await expiry(ctx, ctx.flags.expires, '--expires');
      if (isFailure(t)) return t;
      patch.expiresAt = t;
    }
  }
  if (Object.keys(patch).length === 0) return invalid('Nothing to change: give --content, --category, --importance, --pin/--unpin or --expires.');
  const r = await ctx.client.call('memory.update', { memoryId, ...patch });
  if (!r.ok) return r;
  return { ok: true, value: r.value, text: formatMemory(r.value, ctx.localTime) };
}

function byId(
  op: 'memory.delete' | 'memory.restore' | 'memory.unconsolidate',
  done: (id: number) => string,
): (ctx: CliContext) => Promise<CliOutput> {
  return async (ctx) => {
    const memoryId = positiveInt(ctx.args[0], 'The memory id');
    if (isFailure(memoryId)) return memoryId;
    const r = await ctx.client.call(op, { memoryId });
    if (!r.ok) return r;
    return { ok: true, value: r.value, text: done(memoryId) };
  };
}

/** Backups a purge could not change, and what to do: each file by path, with why. Empty when there are none. */
export function remainingCopiesText(remaining: readonly RemainingCopy[]): string {
  if (remaining.length === 0) return '';
  return [
    `${remaining.length === 1 ? 'This file' : 'These files'} could not be changed and may still hold a copy:`,
    ...remaining.map((c) => `  ${c.path}  (${c.reason})`),
    `Delete ${remaining.length === 1 ? 'it' : 'them'} by hand to erase the copies (the database itself holds none).`,
  ].join('\n');
}

/** What went with a purge because it was written from what was purged ('' when nothing). */
export function derivedText(derived: PurgedDerived | undefined): string {
  if (!derived) return '';
  const parts = [
    ...(derived.summaries > 0 ? [`${derived.summaries} ${derived.summaries === 1 ? 'summary' : 'summaries'} written from it (the other memories it summarised are active again)`] : []),
    ...(derived.profileLines > 0 ? [`${derived.profileLines} ${derived.profileLines === 1 ? 'line' : 'lines'} of your profile`] : []),
  ];
  return parts.length === 0 ? '' : ` With it went ${parts.join(' and ')}.`;
}

/** A purge's answer: erased from the database, and from which backups; the files that still hold copies, if any. */
export function purgeText(what: string, backups: BackupErasure, derived?: PurgedDerived): string {
  const files = `${backups.clean} ${backups.clean === 1 ? 'backup' : 'backups'}`;
  const also = derivedText(derived);
  if (backups.remaining.length === 0) {
    return backups.clean === 0
      ? `Purged ${what}: erased from the database (there are no backups); nothing of it is left.${also}`
      : `Purged ${what}: erased from the database and from every backup (${files}); nothing of it is left.${also}`;
  }
  return `Purged ${what}: erased from the database${backups.clean > 0 ? ` and from ${files}` : ''}, but not from every backup.${also}\n${remainingCopiesText(backups.remaining)}`;
}

async function purge(ctx: CliContext): Promise<CliOutput> {
  const memoryId = positiveInt(ctx.args[0], 'The memory id');
  if (isFailure(memoryId)) return memoryId;
  const r = await ctx.client.call('memory.purge', { memoryId });
  if (!r.ok) return r;
  return { ok: true, value: r.value, text: purgeText(`memory #${memoryId}`, r.value.backups, r.value.derived) };
}

async function revert(ctx: CliContext): Promise<CliOutput> {
  const memoryId = positiveInt(ctx.args[0], 'The memory id');
  if (isFailure(memoryId)) return memoryId;
  const version = positiveInt(ctx.args[1], 'The version');
  if (isFailure(version)) return version;
  const r = await ctx.client.call('memory.revert', { memoryId, version });
  if (!r.ok) return r;
  return { ok: true, value: r.value, text: `Reverted memory #${memoryId} to version ${version} (as a new version).\n${oneLine(r.value)}` };
}

async function stats(ctx: CliContext): Promise<CliOutput> {
  const r = await ctx.client.call('memory.stats', {});
  if (!r.ok) return r;
  return { ok: true, value: r.value, text: formatStats(r.value) };
}

const create = operations['memory.create'].input.shape;
const category = oneOf(CATEGORIES, 'what kind of memory it is');
const importance = numberIn(create.importance, 'X', 'how much it matters, from 0 to 1');
const expires = text('DATE', 'when it stops holding: 2026-03-01 (to the end of that day) or 2026-03-01T18:00Z');
const addOptions: Options = { category, importance, pin: flag('always include it in the prompt'), expires };
const editOptions: Options = {
  content: text('TEXT', 'new text'),
  category,
  importance,
  pin: flag('always include it in the prompt'),
  unpin: flag('stop pinning it'),
  expires: { ...expires, value: 'DATE|never', help: `${expires.help}; never: no expiry` },
};
const listOptions: Options = {
  category: someOf(CATEGORIES, 'only these kinds'),
  status: someOf(STATUSES, 'only these statuses (default: active)'),
  pinned: flag('only pinned memories'),
  limit: numberIn(operations['memory.list'].input.shape.limit, 'N', 'at most N (default 50)'),
};
const searchOptions: Options = { limit: numberIn(operations['memory.search'].input.shape.limit, 'N', 'at most N hits (default 20)') };

export const memoryCommands: CliCommand[] = [
  { words: ['memory', 'add'], synopsis: 'memory add "text" [--category C] [--importance X] [--pin] [--expires DATE]', options: addOptions, run: add },
  { words: ['memory', 'list'], synopsis: 'memory list [words] [--category C] [--status S] [--pinned] [--limit N]   newest first', options: listOptions, run: listMemories },
  { words: ['memory', 'search'], synopsis: 'memory search "query" [--limit N]   hybrid (keyword only while semantic search is off)', options: searchOptions, run: search },
  { words: ['memory', 'show'], synopsis: 'memory show ID           content, versions, provenance, uses', run: show },
  {
    words: ['memory', 'edit'],
    synopsis: 'memory edit ID [--content T] [--category C] [--importance X] [--pin|--unpin] [--expires DATE|never]',
    options: editOptions,
    run: edit,
  },
  { words: ['memory', 'delete'], synopsis: 'memory delete ID         moves it to the trash', run: byId('memory.delete', (id) => `Moved memory #${id} to the trash.`) },
  { words: ['memory', 'restore'], synopsis: 'memory restore ID        brings it back from the trash', run: byId('memory.restore', (id) => `Restored memory #${id}.`) },
  {
    words: ['memory', 'purge'],
    synopsis: 'memory purge ID          deletes it for good (text, history, search entries, vector), backups included',
    run: purge,
  },
  { words: ['memory', 'revert'], synopsis: 'memory revert ID VERSION makes an earlier version current again', run: revert },
  {
    words: ['memory', 'unconsolidate'],
    synopsis: 'memory unconsolidate ID  undoes a summary maintenance wrote: the memories it replaced come back, it goes to the trash',
    run: byId('memory.unconsolidate', (id) => `Summary #${id} is in the trash; the memories it replaced are active again.`),
  },
  { words: ['memory', 'stats'], synopsis: 'memory stats             counts, vectors, and whether semantic search is on', run: stats },
];
