/**
 * The terminal host: `npm run -s cli -- <group> <command> [args] [--json] [--data-dir DIR]`.
 * Same core, in-process, same envelopes. Exit codes: 0 ok, 1 the operation failed (one line on stderr),
 * 2 the command line itself is wrong.
 */
import { createClient } from '../../shared/client';
import { isMnemoError } from '../../shared/errors';
import { createCore } from '../core/create-core';
import { createInProcessTransport } from '../core/in-process.transport';
import { createStderrLogger } from '../core/ports/logger.port';
import { resolveDataDir } from '../core/ports/paths.port';
import { packageVersion } from '../core/version';
import { commands, findCommand, usage, type CliOutput } from './commands';
import { parseCommandLine, UsageError } from './parse';

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`mnemo: ${e.message}\n${usage()}\n`);
      return 2;
    }
    throw e;
  }
  if (parsed.help || parsed.words.length === 0) {
    process.stdout.write(usage() + '\n');
    return parsed.help ? 0 : 2;
  }
  const found = findCommand(parsed.words);
  if (!found) {
    process.stderr.write(`mnemo: unknown command "${parsed.words.join(' ')}".\n${usage()}\n`);
    return 2;
  }

  const dataDir = resolveDataDir(parsed.flags['data-dir']);
  if (found.command.runWithoutCore) {
    return report(await found.command.runWithoutCore({ args: found.args, flags: parsed.flags, json: parsed.json, dataDir }), parsed.json);
  }
  const core = createCore({
    dataDir,
    host: 'cli',
    version: packageVersion(),
    logger: createStderrLogger(process.env.MNEMO_LOG_LEVEL === 'debug' ? 'debug' : 'error'),
    // A short-lived command does not run background jobs; the app (or `queue run`) does.
    startQueue: false,
  });
  try {
    const client = createClient(createInProcessTransport(core));
    let out: CliOutput;
    try {
      out = await found.command.run({
        client,
        args: found.args,
        flags: parsed.flags,
        json: parsed.json,
        core,
        write: (text) => void process.stdout.write(text),
        note: (line) => void process.stderr.write(`mnemo: ${line}\n`),
      });
    } catch (e) {
      // A command that finds its own words wrong (an unknown setting, a value of the wrong type).
      if (!(e instanceof UsageError)) throw e;
      process.stderr.write(`mnemo: ${e.message}\n  ${found.command.synopsis}\n`);
      return 2;
    }
    return report(out, parsed.json);
  } finally {
    await core.dispose();
  }
}

function report(out: CliOutput, json: boolean): number {
  if (!out.ok) {
    if (json) process.stdout.write(JSON.stringify({ ok: false, error: out.error }) + '\n');
    process.stderr.write(`mnemo: ${out.error.message}\n`);
    return 1;
  }
  const text = json ? JSON.stringify(out.value, null, 2) : out.text;
  if (text) process.stdout.write(text + '\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`mnemo: ${isMnemoError(e) ? e.message : (e as Error).message}\n`);
    process.exit(1);
  },
);

export { commands };
