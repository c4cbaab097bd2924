/**
 * What the terminal can show: colours, and a progress bar for long work. Both are decided from what a stream is (a
 * TTY or not) and the environment, passed in, so the decision is tested without a terminal.
 * Colours: FORCE_COLOR (not "0") turns them on anywhere, as in Node; otherwise NO_COLOR (any non-empty value,
 * no-color.org) or a dumb terminal turns them off; otherwise only on a TTY. A progress bar only goes to a TTY: in a
 * pipe or a log file it would be noise, so there nothing is written.
 */
export interface StreamInfo {
  isTTY: boolean;
  columns?: number;
}

export function colourEnabled(stream: StreamInfo, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.TERM === 'dumb') return false;
  return stream.isTTY;
}

export function progressEnabled(stream: StreamInfo, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY && env.TERM !== 'dumb';
}

export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;
const plain = (text: string) => text;

export function paint(enabled: boolean): Paint {
  if (!enabled) return { bold: plain, dim: plain, red: plain, green: plain, yellow: plain };
  return { bold: sgr(1, 22), dim: sgr(2, 22), red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39) };
}

export interface ProgressBar {
  update(done: number, total: number, detail?: string): void;
  /** Clears the bar's line, leaving the terminal as it was. */
  end(): void;
}

/** One line, redrawn in place: "label [#######-------]  45%  detail". */
export function progressLine(label: string, done: number, total: number, width: number, detail = ''): string {
  const share = total > 0 ? Math.min(1, Math.max(0, done / total)) : 0;
  const cells = Math.max(10, Math.min(30, width - label.length - detail.length - 12));
  const filled = Math.round(share * cells);
  const line = `${label} [${'#'.repeat(filled)}${'-'.repeat(cells - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%${detail ? `  ${detail}` : ''}`;
  return line.length > width ? line.slice(0, Math.max(0, width - 1)) : line;
}

export function createProgressBar(stream: StreamInfo & { write(text: string): unknown }, label: string): ProgressBar {
  let drawn = false;
  return {
    update(done, total, detail) {
      stream.write(`\r${progressLine(label, done, total, stream.columns || 80, detail)}\x1b[K`);
      drawn = true;
    },
    end() {
      if (drawn) stream.write('\r\x1b[K');
      drawn = false;
    },
  };
}

/** A size for people, beside a bar: "512 B", "1.5 KB", "1925.8 MB". */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
