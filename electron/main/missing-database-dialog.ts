/**
 * The desktop app's question when the core refuses to start because the database is missing or empty beside a good
 * backup (DB_MISSING, core/backup/missing-database.ts): restore the newest good backup, start empty, or quit. A plain
 * function from the error to Electron's message-box options and the choice behind each button; index.ts shows it and
 * starts the core again with the answer.
 */
import type { ErrorInfo } from '../../shared/errors';
import type { WhenDatabaseMissing } from '../core/backup/missing-database';

export type MissingDatabaseChoice = Exclude<WhenDatabaseMissing, 'refuse'> | 'quit';

export interface MissingDatabaseQuestion {
  /** Electron's MessageBoxOptions. */
  options: {
    type: 'warning';
    title: string;
    message: string;
    detail: string;
    buttons: string[];
    defaultId: number;
    cancelId: number;
    noLink: true;
  };
  /** The choice behind each button, by its index. */
  choices: MissingDatabaseChoice[];
}

interface OfferedBackup {
  name: string;
  createdAt: number;
  sizeBytes: number;
  memories: number;
  messages: number;
}

const isCount = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) >= 0;

function offeredBackup(x: unknown): OfferedBackup | null {
  const b = x as Partial<OfferedBackup> | null;
  if (typeof b !== 'object' || b === null || typeof b.name !== 'string') return null;
  return isCount(b.createdAt) && isCount(b.sizeBytes) && isCount(b.memories) && isCount(b.messages) ? (b as OfferedBackup) : null;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The question for a start failure, or null when it is not DB_MISSING (the host reports it as a failure to start).
 * `formatTime` renders the backup's time for the user (index.ts: the system's locale).
 */
export function missingDatabaseQuestion(error: Pick<ErrorInfo, 'code' | 'message' | 'details'>, formatTime: (at: number) => string): MissingDatabaseQuestion | null {
  if (error.code !== 'DB_MISSING') return null;
  const backup = offeredBackup(error.details?.backup);
  const empty = error.details?.state === 'empty';
  const dataDir = typeof error.details?.dataDir === 'string' ? error.details.dataDir : null;
  const detail = backup
    ? [
        `Mnemo has not created a new one. Its newest good backup is ${backup.name}, from ${formatTime(backup.createdAt)}: ` +
          `${plural(backup.memories, 'memory', 'memories')}, ${plural(backup.messages, 'message', 'messages')}, ${(backup.sizeBytes / 1_048_576).toFixed(1)} MB.`,
        'Restore it to continue from there, or start with an empty database. Either way, your backups stay as they are.',
        ...(dataDir ? [`Data folder: ${dataDir}`] : []),
      ].join('\n\n')
    : error.message;
  return {
    options: {
      type: 'warning',
      title: 'Mnemo',
      message: empty ? "Mnemo's database is empty" : "Mnemo's database is missing",
      detail,
      buttons: ['Restore newest backup', 'Start empty', 'Quit'],
      defaultId: 0,
      cancelId: 2,
      noLink: true,
    },
    choices: ['restore-newest', 'start-empty', 'quit'],
  };
}

/** The choice behind the button the user pressed; anything unexpected (a closed box) quits, which changes nothing. */
export function chosen(question: MissingDatabaseQuestion, response: number): MissingDatabaseChoice {
  return question.choices[response] ?? 'quit';
}
