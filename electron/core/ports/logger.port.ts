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

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** One JSON line per entry on stderr, at or above `level`. */
export function createStderrLogger(level: 'debug' | 'info' | 'warn' | 'error' = 'info'): Logger {
  const order = { debug: 0, info: 1, warn: 2, error: 3 } as const;
  const write = (lvl: keyof typeof order) => (message: string, fields?: Record<string, unknown>) => {
    if (order[lvl] < order[level]) return;
    process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level: lvl, message, ...fields }) + '\n');
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
