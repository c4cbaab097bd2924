/**
 * The terminal host's process: `mnemo <group> <command> [args] [options]` (or `npm run -s cli -- …` from the source
 * tree). Same core, in-process, same envelopes. This file only hands the process's streams, environment, folder and
 * Ctrl-C to run.ts, which does the rest, and exits with its code.
 */
import type { CliIo } from './cli-io';
import { run } from './run';

const io: CliIo = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  onInterrupt(listener) {
    process.once('SIGINT', listener);
    return () => void process.off('SIGINT', listener);
  },
};

run(process.argv.slice(2), io).then((code) => process.exit(code));
