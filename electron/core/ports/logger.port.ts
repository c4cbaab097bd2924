/**
 * Logging behind a port. Invariant: log lines carry ids, codes and counts, never the user's text
 * (messages, memories, prompts): logs end up in bug reports.
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

import fs from 'node:fs';
import path from 'node:path';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const ORDER = { debug: 0, info: 1, warn: 2, error: 3 } as const;

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** One JSON line per entry on stderr (or the stream a host gives as stderr: the CLI run in-process), at or above `level`. */
export function createStderrLogger(level: LogLevel = 'info', stderr: { write(text: string): unknown } = process.stderr): Logger {
  return lineLogger(level, (line) => void stderr.write(line));
}

/** The size at which a log file is moved aside to `<file>.1` (one older generation kept, so logs stay bounded). */
export const LOG_FILE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * One JSON line per entry appended to `file` (its folder created), for a host whose terminal is for people: the web
 * host prints its URL and nothing else. A log that cannot be written is not the user's problem: the entry is dropped.
 */
export function createFileLogger(file: string, level: LogLevel = 'info', maxBytes = LOG_FILE_MAX_BYTES): Logger {
  let size: number | null = null;
  return lineLogger(level, (line) => {
    try {
      if (size === null) {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        size = fs.existsSync(file) ? fs.statSync(file).size : 0;
      }
      if (size + line.length > maxBytes && size > 0) {
        fs.renameSync(file, `${file}.1`);
        size = 0;
      }
      fs.appendFileSync(file, line);
      size += Buffer.byteLength(line);
    } catch {
      size = null;
    }
  });
}

/** Every entry to each of the loggers. */
export function allOf(...loggers: Logger[]): Logger {
  const each = (lvl: LogLevel) => (message: string, fields?: Record<string, unknown>) => loggers.forEach((l) => l[lvl](message, fields));
  return { debug: each('debug'), info: each('info'), warn: each('warn'), error: each('error') };
}

function lineLogger(level: LogLevel, out: (line: string) => void): Logger {
  const write = (lvl: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (ORDER[lvl] < ORDER[level]) return;
    out(JSON.stringify({ t: new Date().toISOString(), level: lvl, message, ...fields }) + '\n');
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
