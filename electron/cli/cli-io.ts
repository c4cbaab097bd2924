/**
 * What a command line runs against: its streams, its environment, the folder its relative paths start from, and
 * Ctrl-C. The real process passes its own (main.ts); tests pass strings and a fake (test/support/run-cli.ts), so both
 * run the one code path, run.ts. Invariant: below run(), commands read these from their context, never from process.
 */
import type { StreamInfo } from './terminal';

export interface CliStream extends StreamInfo {
  write(text: string): unknown;
}

export interface CliIo {
  stdout: CliStream;
  stderr: CliStream;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Calls `listener` on Ctrl-C until the returned function is called. */
  onInterrupt(listener: () => void): () => void;
}
