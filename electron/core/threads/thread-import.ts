/**
 * Reading a thread export (thread-export.ts) back as new threads. Planned first: each thread of the document is new,
 * a duplicate (a thread with the same start, title and first message is already here, e.g. the same file imported
 * twice) or invalid (with the reason); a real run writes the new ones in one transaction.
 *
 * What an import does not do: learn from the imported messages (no extraction job; the user can ask Mnemo about
 * them in chat, and thread search finds them), or link the memories their answers used (their ids belonged to the
 * exporting database; the export keeps their text for people).
 *
 * Branches come back as they were exported: each message under its parent, the thread showing its active branch
 * (conversation/message-branches.ts). A file without them (older exports) is one straight conversation.
 */
import { THREAD_EXPORT_FORMAT, THREAD_EXPORT_VERSION, ExportedThread, ThreadExportDocument, type OpOutput, type OpParsedInput, type Thread, type ThreadImportItem } from '../../../shared/contract';
import { MnemoError } from '../../../shared/errors';
import type { MessagesStore } from '../conversation/messages.store';
import { composeUserContent } from '../conversation/attachment-text';
import type { SummaryStore } from '../conversation/summary.store';
import type { ThreadsStore } from '../conversation/threads.store';
import type { EventBus } from '../runtime/event-bus';
import type { Clock } from '../ports/clock.port';
import { estimateTokens } from '../text/token-estimate';
import { activePathOf } from './thread-export';

export interface ThreadImportDeps {
  threads: Pick<ThreadsStore, 'insertImported' | 'hasImported'>;
  summaries: Pick<SummaryStore, 'insertImported'>;
  clock: Clock;
  events: EventBus;
  messages: MessagesStore;
  thread: (threadId: number) => Thread;
}

/** The document's threads, each parsed on its own so one bad thread does not refuse the file. */
export function parseThreadExport(content: string): Array<{ thread: ExportedThread } | { invalid: string; title: string }> {
  let json: unknown;
  try {
    json = JSON.parse(content);
  } catch (error) {
    throw new MnemoError('INVALID_INPUT', `This is not a Mnemo conversation export: the file is not valid JSON (${(error as Error).message}).`);
  }
  const doc = ThreadExportDocument.safeParse(json);
  if (!doc.success) {
    throw new MnemoError('INVALID_INPUT', `This is not a Mnemo conversation export: it needs "format": "${THREAD_EXPORT_FORMAT}" and a list of threads.`);
  }
  if (doc.data.version > THREAD_EXPORT_VERSION) {
    throw new MnemoError(
      'INVALID_INPUT',
      `This conversation export was written by a newer Mnemo (format version ${doc.data.version}; this one reads up to ${THREAD_EXPORT_VERSION}). Update Mnemo, then import it.`,
    );
  }
  return doc.data.threads.map((raw) => {
    const parsed = ExportedThread.safeParse(raw);
    if (parsed.success) return { thread: parsed.data };
    const issue = parsed.error.issues[0];
    const title = typeof (raw as { title?: unknown })?.title === 'string' ? (raw as { title: string }).title : '';
    return { invalid: `${issue?.path.join('.') || 'thread'}: ${issue?.message ?? 'not a thread'}`, title };
  });
}

export function createThreadImporter(deps: ThreadImportDeps): { import(input: OpParsedInput<'thread.import'>): OpOutput<'thread.import'> } {
  const { clock, events, messages } = deps;

  function write(thread: ExportedThread, now: number): number {
    // The imported title is kept as the user's: no automatic title replaces it.
    const id = deps.threads.insertImported(thread, now);
    const ids: number[] = [];
    thread.messages.forEach((m, i) => {
      const parent = m.parent === undefined ? (i > 0 ? ids[i - 1]! : null) : m.parent === null ? null : ids[m.parent]!;
      ids.push(messages.insertImported(id, m, estimateTokens(composeUserContent(m.content, m.attachments)), parent));
    });
    if (ids.length > 0) messages.branches.setLeaf(id, ids[Math.min(thread.active ?? ids.length - 1, ids.length - 1)]!);
    const path = messages.branches.activePath(id);
    const covered = thread.summary ? Math.min(thread.summary.coveredMessages, path.length) : 0;
    if (thread.summary && covered > 0) {
      deps.summaries.insertImported(id, { content: thread.summary.content, fromMessageId: path[0]!, toMessageId: path[covered - 1]!, coveredCount: covered, editedByUser: thread.summary.editedByUser }, now);
    }
    return id;
  }

  /** A parent must come before its message and the active message must exist, or the branches cannot be rebuilt. */
  function branchProblem(thread: ExportedThread): string | null {
    const bad = thread.messages.findIndex((m, i) => m.parent !== undefined && m.parent !== null && m.parent >= i);
    if (bad >= 0) return `messages.${bad}.parent: a message can only follow one that comes before it`;
    if (thread.active !== undefined && thread.active >= thread.messages.length) return `active: there is no message ${thread.active}`;
    return null;
  }

  return {
    import({ content, dryRun }) {
      const parsed = parseThreadExport(content);
      const seen = new Set<string>();
      const items: ThreadImportItem[] = parsed.map((p, index) => {
        if ('invalid' in p) return { index, title: p.title, messages: 0, otherVersions: 0, outcome: 'invalid', reason: p.invalid };
        const { thread } = p;
        const problem = branchProblem(thread);
        if (problem) return { index, title: thread.title, messages: 0, otherVersions: 0, outcome: 'invalid', reason: problem };
        const first = thread.messages[0]?.content ?? null;
        const key = JSON.stringify([thread.createdAt, thread.title, first]);
        const duplicate = seen.has(key) || deps.threads.hasImported(thread.createdAt, thread.title, first);
        seen.add(key);
        // Counted as a thread's message count is (the conversation shown); the other versions come along and are said.
        const shown = activePathOf(thread).length;
        return { index, title: thread.title, messages: shown, otherVersions: thread.messages.length - shown, outcome: duplicate ? 'duplicate' : 'new' };
      });
      const toWrite = items.filter((i) => i.outcome === 'new');
      if (!dryRun && toWrite.length > 0) {
        const now = clock.now();
        messages.transaction(() => {
          for (const item of toWrite) item.threadId = write((parsed[item.index] as { thread: ExportedThread }).thread, now);
        });
        for (const item of toWrite) events.emit('thread.created', { thread: deps.thread(item.threadId!) });
      }
      const count = (outcome: ThreadImportItem['outcome']) => items.filter((i) => i.outcome === outcome).length;
      return { dryRun, new: count('new'), duplicate: count('duplicate'), invalid: count('invalid'), written: dryRun ? 0 : toWrite.length, items };
    },
  };
}

export type ThreadImporter = ReturnType<typeof createThreadImporter>;
