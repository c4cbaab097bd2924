/**
 * Conversation exports: a JSON document with every message of the chosen threads (role, text, reasoning, model,
 * time, status), each thread's running summary and, for each answer, the memories it used as they read when exported
 * (what thread.import reads back), or Markdown for people.
 *
 * Branches (conversation/message-branches.ts): the JSON keeps every version with its parent (message.parent, thread.active),
 * so an import brings all branches back; the Markdown shows the conversation the user sees, the active path, and
 * says how many messages of other versions it leaves out.
 *
 * Read-only: one consistent read. Times written for people are the user's clock (settings.timeZone); instants in the
 * JSON stay milliseconds and an ISO time in UTC.
 */
import { dayOf, isoDate } from '../../../shared/calendar-day';
import {
  THREAD_EXPORT_FORMAT,
  THREAD_EXPORT_VERSION,
  type ExportedMessage,
  type ExportedThread,
  type MemoryReason,
  type OpOutput,
  type OpParsedInput,
  type Settings,
} from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import { userTimeZone } from '../../../shared/time-zone';
import type { Clock } from '../ports/clock.port';
import { attachmentsOf } from '../conversation/messages.store';
import type { ExportMessageRow, ExportUseRow, ThreadExportStore } from './thread-export.store';

export interface ThreadExportDeps {
  store: ThreadExportStore;
  clock: Clock;
  settings: () => Settings;
  app: () => { version: string; schemaVersion: string };
}

export function createThreadExporter(deps: ThreadExportDeps): { export(input: OpParsedInput<'thread.export'>): OpOutput<'thread.export'> } {
  const { store, clock } = deps;

  function read(threadId: number | undefined): ExportedThread[] {
    const { threads, messages, uses } = store.read(threadId);
    if (threadId !== undefined && threads.length === 0) throw new MnemoError('NOT_FOUND', `Thread ${threadId} does not exist (it may have been deleted).`);
    const usesByMessage = groupBy(uses, (u) => u.message_id);
    const messagesByThread = groupBy(messages, (m) => m.thread_id);
    return threads.map((t) => {
      const rows = messagesByThread.get(t.id) ?? [];
      const { parents, active, path } = branchesOf(rows, t.active_leaf_id);
      const onPath = new Set(path);
      return {
        title: t.title,
        incognito: t.incognito === 1,
        model: t.model,
        instructions: t.instructions,
        createdAt: t.created_at,
        lastActivityAt: t.last_activity_at,
        summary:
          t.summary === null
            ? null
            : {
                content: t.summary,
                coveredMessages: rows.filter((m, i) => onPath.has(i) && t.summary_to !== null && m.id <= t.summary_to).length,
                editedByUser: t.summary_edited === 1,
              },
        messages: rows.map((m, i) => ({ ...toExported(m, usesByMessage.get(m.id) ?? []), parent: parents[i]! })),
        active,
      };
    });
  }

  return {
    export({ threadId, format }) {
      const at = clock.now();
      const settings = deps.settings();
      const timeZone = userTimeZone(settings.timeZone);
      const threads = read(threadId);
      const day = isoDate(dayOf(at, timeZone));
      const name = threadId === undefined ? 'mnemo-threads' : `mnemo-thread-${fileSlug(threads[0]!.title) || threadId}`;
      if (format === 'md') {
        const content = threads.map((t) => renderThreadMarkdown(t, { language: settings.language, timeZone })).join('\n---\n\n');
        return { content, filename: `${name}-${day}.md`, count: threads.length };
      }
      const app = deps.app();
      const doc = {
        format: THREAD_EXPORT_FORMAT,
        version: THREAD_EXPORT_VERSION,
        exportedAt: new Date(at).toISOString(),
        app: { name: 'Mnemo', version: app.version, schemaVersion: app.schemaVersion },
        count: threads.length,
        threads,
      };
      return { content: JSON.stringify(doc, null, 2) + '\n', filename: `${name}-${day}.json`, count: threads.length };
    },
  };
}

function toExported(m: ExportMessageRow, uses: ExportUseRow[]): ExportedMessage {
  return {
    role: m.role,
    content: m.content,
    thinking: m.thinking,
    // A reply still streaming when exported is, in the file, a reply that stopped there.
    status: m.status === 'streaming' ? 'stopped' : m.status,
    model: m.model,
    createdAt: m.created_at,
    memoriesUsed: uses.map((u) => ({ memoryId: u.memory_id, score: u.score, reason: u.reason, content: u.content })),
    attachments: attachmentsOf(m.attachments),
  };
}

/**
 * Each exported message's parent as an index among the thread's exported rows (a parent that is not exported, one of
 * Mnemo's notes, is skipped up to the nearest that is), the active leaf's index, and the active path's indexes.
 */
function branchesOf(rows: readonly ExportMessageRow[], activeLeafId: number | null): { parents: Array<number | null>; active: number | undefined; path: number[] } {
  const index = new Map(rows.map((m, i) => [m.id, i]));
  const parents = rows.map((m) => (m.parent_id === null ? null : (index.get(m.parent_id) ?? null)));
  if (rows.length === 0) return { parents, active: undefined, path: [] };
  const active = activeLeafId !== null && index.has(activeLeafId) ? index.get(activeLeafId)! : rows.length - 1;
  const path: number[] = [];
  for (let i: number | null = active; i !== null; i = parents[i]!) path.unshift(i);
  return { parents, active, path };
}

/** The conversation the user sees: the active path (message.parent, thread.active); an export without them is one line. */
export function activePathOf(thread: ExportedThread): ExportedThread['messages'] {
  const { messages } = thread;
  if (messages.length === 0) return [];
  const parentOf = (i: number): number | null => {
    const p = messages[i]!.parent;
    return p === undefined ? (i > 0 ? i - 1 : null) : p;
  };
  const path: number[] = [];
  const seen = new Set<number>();
  for (let i: number | null = Math.min(thread.active ?? messages.length - 1, messages.length - 1); i !== null && !seen.has(i); i = parentOf(i)) {
    seen.add(i); // a hand-edited file may loop; each message is shown once
    path.unshift(i);
  }
  return path.map((i) => messages[i]!);
}

function groupBy<T>(items: readonly T[], key: (item: T) => number): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

/** A title as part of a file name: letters and digits of any script, the rest as single dashes, at most 40. */
export function fileSlug(title: string): string {
  return title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')
    .toLowerCase();
}

const WORDS = {
  en: {
    untitled: 'Untitled conversation',
    you: 'You',
    started: 'started',
    incognito: 'incognito',
    summary: 'Summary of the earlier messages',
    memories: 'Memories used',
    reasons: { pinned: 'pinned', semantic: 'similar meaning', keyword: 'matching words', recency: 'recent' } as Record<MemoryReason, string>,
    gone: 'a memory since deleted',
    otherVersions: (n: number) =>
      `Shows the current version of the conversation. ${n === 1 ? '1 message' : `${n} messages`} of other versions (edited questions, regenerated answers) ${n === 1 ? 'is' : 'are'} kept in the JSON export.`,
    status: { stopped: 'stopped', error: 'no answer (error)', truncated: 'cut off at the length limit', complete: '' },
  },
  'zh-CN': {
    untitled: '未命名对话',
    you: '你',
    started: '开始于',
    incognito: '无痕',
    summary: '前文摘要',
    memories: '用到的记忆',
    reasons: { pinned: '置顶', semantic: '意思相近', keyword: '关键词匹配', recency: '最近' } as Record<MemoryReason, string>,
    gone: '一条已删除的记忆',
    otherVersions: (n: number) => `这里是对话的当前版本。另有 ${n} 条其他版本的消息（改过的提问、重新生成的回答）保留在 JSON 导出中。`,
    status: { stopped: '已停止', error: '没有回答（出错）', truncated: '因长度限制被截断', complete: '' },
  },
} as const;

/** One thread as Markdown for people: pure, so its layout is unit-tested directly. */
export function renderThreadMarkdown(thread: ExportedThread, opts: { language: Settings['language']; timeZone: string }): string {
  const words = WORDS[opts.language];
  const when = (ms: number) => localDateTime(ms, opts.timeZone);
  const meta = [`${words.started} ${when(thread.createdAt)}`, thread.model, thread.incognito ? words.incognito : null].filter(Boolean);
  const lines = [`# ${oneLine(thread.title) || words.untitled}`, '', `_${meta.join(' · ')}_`];
  if (thread.summary && thread.summary.content.trim()) {
    lines.push('', `> **${words.summary}:** ${thread.summary.content.trim().replace(/\n/g, '\n> ')}`);
  }
  const shown = activePathOf(thread);
  // A reader of the file must not take the conversation shown for all there was.
  if (shown.length < thread.messages.length) lines.push('', `_${words.otherVersions(thread.messages.length - shown.length)}_`);
  for (const m of shown) {
    const who = m.role === 'user' ? words.you : ['Mnemo', m.model].filter(Boolean).join(' · ');
    lines.push('', `## ${who} · ${when(m.createdAt)}`, '');
    if (m.content.trim()) lines.push(m.content.trim());
    // Named, not inlined: a file's text would drown the conversation (the JSON export keeps it whole).
    for (const a of m.attachments) lines.push('', `📎 ${a.name}`);
    const status = words.status[m.status];
    if (status) lines.push('', `_(${status})_`);
    if (m.memoriesUsed.length > 0) {
      const used = m.memoriesUsed.map((u) => `${u.content === null ? words.gone : `“${oneLine(u.content)}”`} (${words.reasons[u.reason]})`);
      lines.push('', `_${words.memories}: ${used.join('; ')}_`);
    }
  }
  return lines.join('\n') + '\n';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** "2026-11-24 09:05" on the user's clock. */
export function localDateTime(ms: number, timeZone: string): string {
  const time = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(ms);
  return `${isoDate(dayOf(ms, timeZone))} ${time}`;
}

export type ThreadExporter = ReturnType<typeof createThreadExporter>;
