/**
 * When an import from the terminal fails (exit 1) although the core answered with a report: one rule for memories and
 * threads. It fails when nothing was imported (on a dry run: nothing would be) and the file holds invalid entries:
 * then the file is the problem, and a script must not read the run as a success. A file whose entries are all here
 * already is not a failure (importing the same file twice is fine), nor is an export with nothing in it; an import
 * that brought in anything succeeds and lists what it skipped.
 */
import type { CliOutput } from './cli-command';

export interface ImportCounts {
  dryRun: boolean;
  /** Entries written, or on a dry run those that would be. */
  imported: number;
  invalid: number;
  /** Every entry of the file. */
  total: number;
}

export interface ImportWords {
  /** The entry, as in "every thread in the file is invalid". */
  one: string;
  many: string;
  /** Why the other valid entries were not imported either, e.g. "already here". */
  others: string;
  /** What to do about the file. */
  fix: string;
}

/** The report's table on stdout and the failure on stderr, or the success unchanged. */
export function importResult(counts: ImportCounts, words: ImportWords, success: { value: unknown; text: string }): CliOutput {
  const message = nothingImported(counts, words);
  if (message === null) return { ok: true, ...success };
  return { ok: false, error: { code: 'INVALID_INPUT', message }, report: success };
}

export function nothingImported({ dryRun, imported, invalid, total }: ImportCounts, words: ImportWords): string | null {
  if (imported > 0 || invalid === 0) return null;
  const head = dryRun ? 'Nothing would be imported' : 'Nothing was imported';
  const count = (n: number) => `${n} ${n === 1 ? words.one : words.many}`;
  const what =
    invalid === total
      ? `${total === 1 ? `the one ${words.one}` : `every ${words.one}`} in the file is invalid`
      : `${count(invalid)} in the file ${invalid === 1 ? 'is' : 'are'} invalid and the other ${total - invalid === 1 ? 'one is' : `${total - invalid} are`} ${words.others}`;
  return `${head}: ${what} (the list gives each one's reason). ${words.fix}`;
}
