/**
 * Exports: a JSON document with every field of every chosen memory, its provenance and its full version history (what
 * memory.import reads back), and a Markdown page for people (mnemo-memories-DAY.md): the user's profile ("About you", profile/*) when there
 * is one, then active memories grouped by category, pinned first, each line ending in a small metadata group that a
 * text import reads back too, then the active episodes (episodes/*: what each stretch of a conversation was about,
 * with its days and its thread). The text import skips the "About you" and "Episodes" sections: neither is a memory
 * (the profile is written from the memories, an episode is a record of a conversation).
 *
 * Read-only: one consistent read (better-sqlite3 runs the queries back to back, nothing interleaves).
 * Days written for people (the file name, the page's date, "expires 2026-03-01") are the user's calendar days
 * (settings.timeZone); instants in the JSON stay milliseconds and an ISO time in UTC.
 */
import { dayOf, isoDate } from '../../../shared/calendar-day';
import {
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type ExportedMemory,
  type MemoryCategory,
  type MemoryStatus,
  type OpOutput,
  type OpParsedInput,
  type Settings,
} from '../../../shared/contract';
import { userTimeZone } from '../../../shared/time-zone';
import type { Sqlite } from '../db/open-database';
import type { Clock } from '../ports/clock.port';
import { toMemory, toVersion, type MemoryRow } from './memory.repo';
import type { ExportVersionRow, MemoryUpkeepStore } from './memory-upkeep.store';

export interface MemoryExportDeps {
  upkeep: Pick<MemoryUpkeepStore, 'exportRows' | 'exportVersions'>;
  /** Only for the episodes of the Markdown page, until the episode store reads them (episodes/ is above memory/). */
  sqlite: Sqlite;
  clock: Clock;
  settings: () => Settings;
  app: () => { version: string; schemaVersion: string };
  /** The profile's text, or null before the first one. */
  profile: () => string | null;
}


export function createMemoryExporter(deps: MemoryExportDeps): { export(input: OpParsedInput<'memory.export'>): OpOutput<'memory.export'> } {
  const { upkeep, sqlite, clock } = deps;

  function statusesFor(input: OpParsedInput<'memory.export'>): MemoryStatus[] {
    // The Markdown page is what Mnemo uses about the user now; the JSON can carry the archive and the trash as well.
    if (input.format === 'md') return ['active'];
    return ['active', ...(input.includeArchived ? (['archived', 'superseded'] as const) : []), ...(input.includeTrashed ? (['trashed'] as const) : [])];
  }

  function readMemories(statuses: MemoryStatus[]): Array<MemoryRow & { thread_title: string | null }> {
    return upkeep.exportRows(statuses);
  }

  /** Active episodes, oldest first (the page reads as a diary), with their thread's title. */
  function readEpisodes(): MarkdownEpisode[] {
    return sqlite
      .prepare(
        `SELECT e.id, e.title, e.content, e.started_at, e.ended_at, t.title AS thread_title FROM episodes e LEFT JOIN threads t ON t.id = e.thread_id
         WHERE e.status = 'active' ORDER BY e.started_at, e.id`,
      )
      .all() as MarkdownEpisode[];
  }

  function readVersions(statuses: MemoryStatus[]): Map<number, ExportVersionRow[]> {
    const rows = upkeep.exportVersions(statuses);
    const byMemory = new Map<number, ExportVersionRow[]>();
    for (const v of rows) {
      const list = byMemory.get(v.memory_id);
      if (list) list.push(v);
      else byMemory.set(v.memory_id, [v]);
    }
    return byMemory;
  }

  return {
    export(input) {
      const at = clock.now();
      const statuses = statusesFor(input);
      const rows = readMemories(statuses);
      const settings = deps.settings();
      const timeZone = userTimeZone(settings.timeZone);
      const day = isoDate(dayOf(at, timeZone));
      if (input.format === 'md') {
        return { content: renderMarkdownExport(rows, { at, language: settings.language, timeZone, profile: deps.profile(), episodes: readEpisodes() }), filename: `mnemo-memories-${day}.md`, count: rows.length };
      }
      const versions = readVersions(statuses);
      const app = deps.app();
      const doc = {
        format: EXPORT_FORMAT,
        version: EXPORT_VERSION,
        exportedAt: new Date(at).toISOString(),
        app: { name: 'Mnemo', version: app.version, schemaVersion: app.schemaVersion },
        count: rows.length,
        memories: rows.map((r) => toExported(r, versions.get(r.id) ?? [], at)),
      };
      return { content: JSON.stringify(doc, null, 2) + '\n', filename: `mnemo-memories-${day}.json`, count: rows.length };
    },
  };
}

function toExported(r: MemoryRow & { thread_title: string | null }, versions: ExportVersionRow[], at: number): ExportedMemory {
  // What the exporting database alone means (its thread and message ids go in provenance, the rest is recomputed).
  const { expired: _e, sourceThreadId, sourceMessageId, evidence, embeddingModel: _m, trashedAt: _t, ...memory } = toMemory(r, at);
  return {
    ...memory,
    provenance: { threadId: sourceThreadId, threadTitle: r.thread_title, messageId: sourceMessageId, evidence },
    versions: versions.map(toVersion),
  };
}

/** Category order and headings of the Markdown page. The headings are words the text import maps back to the category. */
const CATEGORY_ORDER: MemoryCategory[] = ['knowledge', 'preference', 'project', 'skill'];
const MARKDOWN_WORDS = {
  en: {
    title: (day: string, n: number) => `What Mnemo remembers about you (${day}, ${n} ${n === 1 ? 'memory' : 'memories'})`,
    headings: { knowledge: 'Knowledge', preference: 'Preferences', project: 'Projects', skill: 'Skills' },
    aboutYou: 'About you',
    episodes: 'Episodes',
    untitledThread: 'Untitled conversation',
    thread: (title: string) => `conversation “${title}”`,
    pinned: 'pinned',
    importance: 'importance',
    expires: 'expires',
  },
  'zh-CN': {
    title: (day: string, n: number) => `Mnemo 记得的关于你的事（${day}，${n} 条）`,
    headings: { knowledge: '知识', preference: '偏好', project: '项目', skill: '技能' },
    aboutYou: '关于你',
    // The Episodes tab's word (locales: memories.tab.episodes).
    episodes: '对话片段',
    untitledThread: '未命名对话',
    thread: (title: string) => `对话「${title}」`,
    pinned: '置顶',
    importance: '重要度',
    expires: '到期',
  },
} as const;

/**
 * How the text import recognises the sections of a Markdown export that are not memories (the profile, the episodes),
 * in either language: the first line is the export's title and a section is its level-2 heading ("About you",
 * "Episodes") up to the next level-1 or level-2 heading.
 */
export const MARKDOWN_EXPORT_TITLES = Object.values(MARKDOWN_WORDS).map((w) => `# ${w.title('\u0000', 0).split('\u0000')[0]!}`);
export const NOT_MEMORY_HEADINGS: readonly string[] = Object.values(MARKDOWN_WORDS).flatMap((w) => [w.aboutYou, w.episodes]);

/** The profile's own headings go two levels down, so that none of them ends its section (none is level 1 or 2). */
function demoteHeadings(markdown: string): string {
  return markdown.replace(/^( {0,3})(#{1,6})(?=[ \t]|$)/gm, (_all, indent: string, hashes: string) => indent + '#'.repeat(Math.min(6, hashes.length + 2)));
}

export interface MarkdownMemory {
  content: string;
  category: MemoryCategory;
  importance: number;
  pinned: number | boolean;
  expires_at: number | null;
  id: number;
}

export interface MarkdownEpisode {
  id: number;
  title: string;
  content: string;
  started_at: number;
  ended_at: number;
  thread_title: string | null;
}

/**
 * The Markdown page (the profile first, then memories by category, then episodes): pure, so its layout is unit-tested
 * directly. timeZone: the user's (userTimeZone).
 */
export function renderMarkdownExport(
  memories: readonly MarkdownMemory[],
  opts: { at: number; language: Settings['language']; timeZone: string; profile?: string | null; episodes?: readonly MarkdownEpisode[] },
): string {
  const words = MARKDOWN_WORDS[opts.language];
  const day = (ms: number) => isoDate(dayOf(ms, opts.timeZone));
  const lines = [`# ${words.title(day(opts.at), memories.length)}`];
  const profile = opts.profile?.trim();
  if (profile) lines.push('', `## ${words.aboutYou}`, '', demoteHeadings(profile));
  for (const category of CATEGORY_ORDER) {
    const inCategory = memories
      .filter((m) => m.category === category)
      .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.importance - a.importance || a.id - b.id);
    if (inCategory.length === 0) continue;
    lines.push('', `## ${words.headings[category]}`, '');
    for (const m of inCategory) {
      const meta = [m.pinned ? words.pinned : null, `${words.importance} ${m.importance.toFixed(2)}`, m.expires_at === null ? null : `${words.expires} ${day(m.expires_at)}`];
      // One memory per line: line breaks inside a memory become spaces.
      lines.push(`- ${m.content.replace(/\s+/g, ' ').trim()} _(${meta.filter(Boolean).join(' · ')})_`);
    }
  }
  const episodes = opts.episodes ?? [];
  if (episodes.length > 0) lines.push('', `## ${words.episodes}`);
  for (const e of episodes) {
    const [from, to] = [day(e.started_at), day(e.ended_at)];
    const thread = e.thread_title?.trim() || words.untitledThread;
    // Headings inside the text go down below the episode's own (level 3), so none ends the section the import skips.
    lines.push('', `### ${e.title.replace(/\s+/g, ' ').trim()}`, '', `_${from === to ? from : `${from} – ${to}`} · ${words.thread(thread.replace(/\s+/g, ' '))}_`, '', demoteHeadings(e.content.trim()));
  }
  return lines.join('\n') + '\n';
}
export type MemoryExporter = ReturnType<typeof createMemoryExporter>;
