/**
 * Export and import. Export asks the core for the text and hands it to the browser as a file. Import is two steps
 * on the same text: a dry run that reports what would happen to each item, then the real run; the report is what
 * the user decides on, so a changed text or option throws the report away.
 */
import { create } from 'zustand';
import type { ImportReport, MemoryCategory, OpOutput } from '../../../shared/contract';
import type { Client } from '../../../shared/client';
import type { ErrorInfo } from '../../../shared/errors';
import { downloadText } from '../memory/download';

export type ExportFormat = 'json' | 'md';

export interface ImportOptions {
  defaultCategory: MemoryCategory;
  onConflict: 'skip' | 'import';
}

interface TransferState {
  client: Client | null;
  exporting: boolean;
  lastExport: { filename: string; count: number } | null;
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
  importError: ErrorInfo | null;
  init(client: Client): void;
  exportMemories(format: ExportFormat, include: { archived: boolean; trashed: boolean }): Promise<OpOutput<'memory.export'> | null>;
  setText(text: string, source?: string | null): void;
  setOptions(patch: Partial<ImportOptions>): void;
  check(): Promise<void>;
  runImport(): Promise<void>;
  clear(): void;
}

const MIME: Record<ExportFormat, string> = { json: 'application/json', md: 'text/markdown' };

export const useTransferStore = create<TransferState>((set, get) => ({
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
  importError: null,

  init(client) {
    set({ client });
    client.on('import.progressed', (progress) => {
      if (get().checking || get().importing) set({ progress });
    });
  },

  async exportMemories(format, include) {
    const client = get().client;
    if (!client) return null;
    set({ exporting: true, exportError: null });
    const result = await client.call('memory.export', { format, includeArchived: include.archived, includeTrashed: include.trashed });
    set({ exporting: false });
    if (!result.ok) {
      set({ exportError: result.error });
      return null;
    }
    downloadText(result.value.filename, result.value.content, MIME[format]);
    set({ lastExport: { filename: result.value.filename, count: result.value.count } });
    return result.value;
  },

  setText: (text, source = null) => set({ text, source, report: null, importError: null }),
  setOptions: (patch) => set((s) => ({ options: { ...s.options, ...patch }, report: null })),

  async check() {
    const { client, text, options } = get();
    if (!client || text.trim() === '') return;
    set({ checking: true, report: null, importError: null, progress: null });
    const result = await client.call('memory.import', { content: text, dryRun: true, ...options });
    set({ checking: false, progress: null });
    if (result.ok) set({ report: result.value });
    else set({ importError: result.error });
  },

  async runImport() {
    const { client, text, options, report } = get();
    if (!client || !report?.dryRun) return;
    set({ importing: true, importError: null, progress: null });
    const result = await client.call('memory.import', { content: text, dryRun: false, ...options });
    set({ importing: false, progress: null });
    if (result.ok) set({ report: result.value });
    else set({ importError: result.error });
  },

  clear: () => set({ text: '', source: null, report: null, importError: null, progress: null }),
}));
