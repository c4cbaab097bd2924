/**
 * Export and import, of memories or of conversations. Export asks the core for the text and hands it to the browser
 * as a file. Import is two steps on the same text: a dry run that reports what would happen to each item, then the
 * real run; the report is what the user decides on, so a changed text or option throws the report away. A Mnemo
 * conversation export goes to thread.import, anything else to memory.import.
 */
import { create } from 'zustand';
import type { ImportReport, MemoryCategory, OpOutput, ThreadImportReport } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { ErrorInfo, Result } from '../../../shared/errors';
import { downloadText } from './download';

export type ExportFormat = 'json' | 'md';
export type ExportKind = 'memories' | 'threads';

/** Whether a text is a Mnemo conversation export (its JSON opens with that format), not memories. */
export function isThreadExport(text: string): boolean {
  return /^\s*\{\s*"format"\s*:\s*"mnemo\.threads"/.test(text.slice(0, 200));
}

export interface ImportOptions {
  defaultCategory: MemoryCategory;
  onConflict: 'skip' | 'import';
}

interface TransferState {
  client: Client | null;
  exporting: boolean;
  lastExport: { filename: string; count: number; kind: ExportKind } | null;
  exportError: ErrorInfo | null;
  text: string;
  /** Where the text came from (a file's name), for the report's heading. */
  source: string | null;
  options: ImportOptions;
  checking: boolean;
  importing: boolean;
  progress: { done: number; total: number } | null;
  /** The dry run of exactly this text and options, or the result of the real run. */
  report: ImportReport | null;
  /** The same for a conversation export. */
  threadReport: ThreadImportReport | null;
  importError: ErrorInfo | null;
  init(client: Client): void;
  exportMemories(format: ExportFormat, include: { archived: boolean; trashed: boolean }): Promise<OpOutput<'memory.export'> | null>;
  /** Every conversation (or one, threadId) as a file. */
  exportThreads(format: ExportFormat, threadId?: number): Promise<OpOutput<'thread.export'> | null>;
  /** One conversation as Markdown text (to copy), or null with exportError set. */
  threadMarkdown(threadId: number): Promise<string | null>;
  setText(text: string, source?: string | null): void;
  setOptions(patch: Partial<ImportOptions>): void;
  check(): Promise<void>;
  runImport(): Promise<void>;
  clear(): void;
}

const MIME: Record<ExportFormat, string> = { json: 'application/json', md: 'text/markdown' };

type ExportResult = Result<{ content: string; filename: string; count: number }>;

export const useTransferStore = create<TransferState>((set, get) => {
  /** Asks the core for an export and hands it to the browser as a file. */
  async function saveExport<T extends ExportResult>(format: ExportFormat, kind: ExportKind, call: (client: Client) => Promise<T>) {
    const client = get().client;
    if (!client) return null;
    set({ exporting: true, exportError: null });
    const result = await call(client);
    set({ exporting: false });
    if (!result.ok) {
      set({ exportError: result.error });
      return null;
    }
    downloadText(result.value.filename, result.value.content, MIME[format]);
    set({ lastExport: { filename: result.value.filename, count: result.value.count, kind } });
    return result.value as Extract<T, { ok: true }>['value'];
  }

  return {
    client: null,
    exporting: false,
    lastExport: null,
    exportError: null,
    text: '',
    source: null,
    options: { defaultCategory: 'knowledge', onConflict: 'skip' },
    checking: false,
    importing: false,
    progress: null,
    report: null,
    threadReport: null,
    importError: null,

    init(client) {
      set({ client });
      client.on('import.progressed', (progress) => {
        if (get().checking || get().importing) set({ progress });
      });
    },

    exportMemories: (format, include) =>
      saveExport(format, 'memories', (client) => client.call('memory.export', { format, includeArchived: include.archived, includeTrashed: include.trashed })),

    exportThreads: (format, threadId) => saveExport(format, 'threads', (client) => client.call('thread.export', { format, ...(threadId === undefined ? {} : { threadId }) })),

    async threadMarkdown(threadId) {
      const client = get().client;
      if (!client) return null;
      set({ exportError: null });
      const result = await client.call('thread.export', { format: 'md', threadId });
      if (result.ok) return result.value.content;
      set({ exportError: result.error });
      return null;
    },

    setText: (text, source = null) => set({ text, source, report: null, threadReport: null, importError: null }),
    setOptions: (patch) => set((s) => ({ options: { ...s.options, ...patch }, report: null })),

    async check() {
      const { client, text, options } = get();
      if (!client || text.trim() === '') return;
      set({ checking: true, report: null, threadReport: null, importError: null, progress: null });
      if (isThreadExport(text)) {
        const result = await client.call('thread.import', { content: text, dryRun: true });
        set({ checking: false });
        if (result.ok) set({ threadReport: result.value });
        else set({ importError: result.error });
        return;
      }
      const result = await client.call('memory.import', { content: text, dryRun: true, ...options });
      set({ checking: false, progress: null });
      if (result.ok) set({ report: result.value });
      else set({ importError: result.error });
    },

    async runImport() {
      const { client, text, options, report, threadReport } = get();
      if (!client) return;
      if (threadReport?.dryRun) {
        set({ importing: true, importError: null });
        const result = await client.call('thread.import', { content: text, dryRun: false });
        set({ importing: false });
        if (result.ok) set({ threadReport: result.value });
        else set({ importError: result.error });
        return;
      }
      if (!report?.dryRun) return;
      set({ importing: true, importError: null, progress: null });
      const result = await client.call('memory.import', { content: text, dryRun: false, ...options });
      set({ importing: false, progress: null });
      if (result.ok) set({ report: result.value });
      else set({ importError: result.error });
    },

    clear: () => set({ text: '', source: null, report: null, threadReport: null, importError: null, progress: null }),
  };
});
