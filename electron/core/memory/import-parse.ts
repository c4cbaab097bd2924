/**
 * Reading an import file into candidate memories, without touching the database: a Mnemo JSON export (every field
 * kept), or plain text / Markdown with one memory per line, e.g. what another assistant says it remembers.
 *
 * Text rules: bullets, numbers and checkboxes are stripped; a heading ("## Preferences", "偏好：", "**Projects**")
 * sets the category of the lines after it (an unknown heading falls back to the default); a line ending in a colon is
 * a heading, not a memory ("Here is what I remember about you:"); where most lines are list items, the other lines are
 * the prose around a list ("Let me know if you'd like me to forget anything!") and are reported invalid, not imported;
 * blank lines and lines without letters or digits (rules, table borders) are skipped; lines with fewer than 3 letters
 * or digits are reported invalid. A trailing
 * metadata group as the Markdown export writes it ("_(pinned · importance 0.80 · expires 2026-03-01)_") is read back;
 * its expiry day is the last day the memory holds, so it reads back as the end of that day in the user's time zone.
 * In a Mnemo Markdown export (its first line is the export's title), the "About you" section (the profile, written
 * from the memories that follow it) and the "Episodes" section (records of conversations, not memories) are skipped,
 * each up to the next level-1 or level-2 heading. Elsewhere such a heading (another assistant's text) is a category
 * heading like any other.
 */
import { daysInMonth, endOfDay } from '../../../shared/calendar-day';
import { ExportedMemory, EXPORT_FORMAT, EXPORT_VERSION, MemoryExportDocument, type MemoryCategory, type MemoryStatus, type MemoryVersion } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { MARKDOWN_EXPORT_TITLES, NOT_MEMORY_HEADINGS } from './memory-export';

export interface ImportCandidate {
  /** Text imports: 1-based line. */
  line?: number;
  /** JSON imports: 0-based index in `memories`. */
  index?: number;
  content: string;
  category: MemoryCategory | null;
  importance?: number;
  confidence?: number;
  pinned?: boolean;
  status?: MemoryStatus;
  validFrom?: number | null;
  expiresAt?: number | null;
  evidence?: string | null;
  /** JSON imports: the memory's version history where it was exported, carried over. */
  history?: MemoryVersion[];
  /** Set when the item cannot be imported. */
  invalid?: string;
}

export interface ParsedImport {
  format: 'mnemo-json' | 'text';
  items: ImportCandidate[];
}

export const MAX_CONTENT = 4000;
const MIN_SIGNIFICANT = 3;

/** timeZone: the user's (userTimeZone), for the days a text import names. Default UTC. */
export function parseImport(content: string, format: 'auto' | 'mnemo-json' | 'text', defaultCategory: MemoryCategory, timeZone = 'UTC'): ParsedImport {
  const text = content.replace(/^\uFEFF/, '');
  if (format === 'text') return { format: 'text', items: parseTextImport(text, defaultCategory, timeZone) };
  const trimmed = text.trimStart();
  if (format === 'auto' && !trimmed.startsWith('{')) return { format: 'text', items: parseTextImport(text, defaultCategory, timeZone) };
  return { format: 'mnemo-json', items: parseMnemoJson(trimmed) };
}

// ---- Mnemo JSON ------------------------------------------------------------------------------------------------------

export function parseMnemoJson(text: string): ImportCandidate[] {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new MnemoError('INVALID_INPUT', 'The file starts like JSON but is not valid JSON. Import a Mnemo export, or plain text with one memory per line.', {
      path: 'content',
    });
  }
  const head = (raw ?? {}) as { format?: unknown; version?: unknown };
  if (head.format !== EXPORT_FORMAT) {
    throw new MnemoError('INVALID_INPUT', `This JSON is not a Mnemo memory export (its "format" is not "${EXPORT_FORMAT}"). Import plain text with one memory per line instead.`, {
      path: 'content',
    });
  }
  if (typeof head.version === 'number' && head.version > EXPORT_VERSION) {
    throw new MnemoError('INVALID_INPUT', `This export was written by a newer Mnemo (format version ${head.version}). Update Mnemo to import it.`, {
      path: 'content',
    });
  }
  const doc = MemoryExportDocument.safeParse(raw);
  if (!doc.success) {
    const where = doc.error.issues[0]?.path.join('.') ?? '';
    throw new MnemoError('INVALID_INPUT', `This Mnemo export is damaged${where ? ` (at "${where}")` : ''}; nothing was imported.`, { path: 'content' });
  }
  return doc.data.memories.map((entry, index): ImportCandidate => {
    const parsed = ExportedMemory.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const content = typeof (entry as { content?: unknown })?.content === 'string' ? (entry as { content: string }).content : '';
      return { index, content, category: null, invalid: `not a valid memory (${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'})` };
    }
    const m = parsed.data;
    const item: ImportCandidate = {
      index,
      content: m.content.trim(),
      category: m.category,
      importance: m.importance,
      confidence: m.confidence,
      pinned: m.pinned,
      status: m.status,
      validFrom: m.validFrom,
      expiresAt: m.expiresAt,
      evidence: m.provenance.evidence,
      history: m.versions,
    };
    const why = contentProblem(item.content);
    return why ? { ...item, invalid: why } : item;
  });
}

// ---- plain text and Markdown ---------------------------------------------------------------------------------------

/** Words of a heading that name a category, English and Chinese (matched as whole words / substrings for CJK). */
const CATEGORY_WORDS: Array<[MemoryCategory, RegExp]> = [
  ['preference', /\b(preferences?|likes?|dislikes?|tastes?|favou?rites?)\b|偏好|喜好|喜欢|口味/i],
  ['project', /\b(projects?|work|goals?|plans?|tasks?)\b|项目|工作|目标|计划/i],
  ['skill', /\b(skills?|expertise|abilities|ability|tools?|languages?)\b|技能|能力|擅长/i],
  ['knowledge', /\b(knowledge|facts?|about( me| you)?|personal|background|profile|info(rmation)?)\b|知识|事实|个人|背景|信息|资料/i],
];

// Markdown bullets and numbers need a space after them ("1.5 litres", "-5 °C" and "**bold**" are not lists); typographic
// bullets, circled and Chinese numbers do not.
const BULLET = /^(?:[-*+>](?=\s)|[•·‣▪◦–—]|\d{1,3}[.)](?=\s)|\d{1,3}、|\(\d{1,3}\)|[a-zA-Z][.)](?=\s)|[一二三四五六七八九十]{1,3}[、.]|[\u2460-\u2473])\s*/u;
const CHECKBOX = /^\[(?: |x|X)?\]\s*/;
const SIGNIFICANT = /[\p{L}\p{N}]/gu;

export function parseTextImport(text: string, defaultCategory: MemoryCategory, timeZone = 'UTC'): ImportCandidate[] {
  const lines: Array<{ number: number; line: string; content: string; listed: boolean }> = [];
  const items: ImportCandidate[] = [];
  let category: MemoryCategory = defaultCategory;
  const rawLines = text.split(/\r\n|\r|\n/);
  const firstLine = rawLines.find((l) => l.trim() !== '')?.trim() ?? '';
  const isMnemoExport = MARKDOWN_EXPORT_TITLES.some((title) => firstLine.startsWith(title));
  // Inside a section of a Mnemo export that holds no memories (the profile, the episodes).
  let skipping = false;
  rawLines.forEach((rawLine, i) => {
    const line = rawLine.trim();
    if (!line || (line.match(SIGNIFICANT)?.length ?? 0) === 0) return;
    if (isMnemoExport) {
      const atx = /^ {0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(rawLine);
      if (atx && atx[1]!.length <= 2) skipping = atx[1]!.length === 2 && NOT_MEMORY_HEADINGS.includes(atx[2]!);
      if (skipping) return;
    }
    lines.push({ number: i + 1, line, content: stripMarkers(line), listed: BULLET.test(line) || CHECKBOX.test(line) });
  });
  const memoryLines = lines.filter((l) => headingText(l.line, l.content) === null);
  // An assistant's answer ("Here is what I remember about you: 1. … 2. … Let me know if …") is a list wrapped in prose:
  // where most lines are list items, the prose around them is not a memory.
  const listOnly = memoryLines.filter((l) => l.listed).length * 2 > memoryLines.length;
  for (const { number, line, listed, content: stripped } of lines) {
    let content = stripped;
    const heading = headingText(line, content);
    if (heading !== null) {
      category = categoryOfHeading(heading) ?? defaultCategory;
      continue;
    }
    const meta = trailingMetadata(content, timeZone);
    if (meta) content = meta.rest;
    content = content.replace(EMPHASIS, '$2').trim();
    const item: ImportCandidate = { line: number, content, category, ...(meta?.fields ?? {}) };
    const why = contentProblem(content) ?? (listOnly && !listed ? NOT_IN_THE_LIST : undefined);
    items.push(why ? { ...item, invalid: why } : item);
  }
  return items;
}

const NOT_IN_THE_LIST = 'Not part of the list: the words around a list (an introduction, a closing remark) are not memories.';

/** Headings are short: a longer line in bold or ending in a colon is more likely a memory someone emphasised. */
const MAX_BOLD_HEADING = 40;
const MAX_COLON_HEADING = 80;
/** Bold or underline pairs inside a memory ("**Work:** designer") are formatting, not content. */
const EMPHASIS = /(\*\*|__)(.+?)\1/g;

/** The text of a heading line, or null when the line is a memory. `stripped` is the line without list markers. */
function headingText(line: string, stripped: string): string | null {
  const hashes = /^#{1,6}\s+(.*)$/.exec(line);
  if (hashes) return hashes[1]!.replace(/\s#+$/, '').trim();
  // A whole line in bold ("**Preferences**", "1. __Skills:__"), possibly followed by a colon.
  const bold = /^(\*\*|__)(.+?)\1\s*[:：]?$/.exec(stripped);
  if (bold && stripped.length <= MAX_BOLD_HEADING) return bold[2]!.replace(/[:：]$/, '').trim();
  // "Preferences:" / "偏好：" / "Here is what I remember about you:" (a line introducing the lines after it).
  if (/[:：]$/.test(stripped) && stripped.length <= MAX_COLON_HEADING) return stripped.slice(0, -1).replace(EMPHASIS, '$2').trim();
  // Setext underlines and table borders have no letters; they never reach here.
  return null;
}

export function categoryOfHeading(heading: string): MemoryCategory | null {
  for (const [category, words] of CATEGORY_WORDS) if (words.test(heading)) return category;
  return null;
}

function stripMarkers(line: string): string {
  let s = line;
  // Nested markers ("- [ ] 1. text", "> - text") come off one by one, a bounded number of times.
  for (let i = 0; i < 4; i++) {
    const next = s.replace(BULLET, '').replace(CHECKBOX, '');
    if (next === s) break;
    s = next;
  }
  return s.trim();
}

/** [, year, month, day] of a real calendar day (no 2026-02-30). */
function isDay(ymd: RegExpExecArray): boolean {
  const m = Number(ymd[2]) - 1;
  return m >= 0 && m <= 11 && Number(ymd[3]) >= 1 && Number(ymd[3]) <= daysInMonth(Number(ymd[1]), m);
}

/** "_(pinned · importance 0.80 · expires 2026-03-01)_" (or the Chinese words) at the end of a line, as the Markdown export writes it. */
function trailingMetadata(s: string, timeZone: string): { rest: string; fields: Partial<ImportCandidate> } | null {
  const m = /\s+_\(([^()]*)\)_$/.exec(s);
  if (!m) return null;
  const fields: Partial<ImportCandidate> = {};
  for (const token of m[1]!.split('·').map((t) => t.trim())) {
    let part: RegExpExecArray | null;
    if (/^(pinned|置顶)$/.test(token)) fields.pinned = true;
    else if ((part = /^(?:importance|重要度)\s+([01](?:\.\d+)?)$/.exec(token)) && Number(part[1]) <= 1) fields.importance = Number(part[1]);
    else if ((part = /^(?:expires|到期)\s+(\d{4})-(\d{2})-(\d{2})$/.exec(token)) && isDay(part)) fields.expiresAt = endOfDay({ y: Number(part[1]), m: Number(part[2]) - 1, d: Number(part[3]) }, timeZone);
    else return null; // not ours: keep the text as written
  }
  return { rest: s.slice(0, m.index), fields };
}

/** What makes a text no memory at all. Secrets are refused later, while planning (memory-import.ts), in time slices. */
function contentProblem(content: string): string | undefined {
  if ((content.match(SIGNIFICANT)?.length ?? 0) < MIN_SIGNIFICANT) return 'too short to be a memory';
  if (content.length > MAX_CONTENT) return `longer than ${MAX_CONTENT} characters`;
  return undefined;
}
