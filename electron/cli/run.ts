/**
 * One command line, start to end: `run(argv, io)` parses it, runs the command against a core it opens on the data
 * folder, prints the outcome and returns the exit code: 0 ok, 1 the operation failed (one line on stderr), 2 the
 * command line itself is wrong (one line saying what, and which help to read). It never throws and never exits: the
 * real process (main.ts) and the tests (test/support/run-cli.ts) call the same function. Invariant: whatever a run
 * opens (the core, its database and workers) is disposed before it returns, on failure too.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { localDateTime } from '../../shared/calendar-day';
import { createClient } from '../../shared/client';
import { isMnemoError } from '../../shared/errors';
import { userTimeZone } from '../../shared/time-zone';
import { createCore } from '../core/create-core';
import { createInProcessTransport } from '../core/in-process.transport';
import { createStderrLogger } from '../core/ports/logger.port';
import { hasBundledModels, packagedModelsDir, packagedResourcesDir } from '../core/runtime/packaged-paths';
import { resolveDataDir, type Paths } from '../core/ports/paths.port';
import { packageVersion } from '../core/runtime/version';
import type { CliIo } from './cli-io';
import type { CliCommand, CliOutput } from './cli-command';
import { commands } from './commands';
import { groupHelp, topLevelHelp } from './help';
import { parseCommandLine, UsageError } from './parse';
import { colourEnabled, createProgressBar, paint, progressEnabled } from './terminal';

export async function run(argv: string[], io: CliIo): Promise<number> {
  const errorPaint = paint(colourEnabled(io.stderr, io.env));
  const fail = (message: string) => void io.stderr.write(`${errorPaint.red('mnemo:')} ${message}\n`);
  const usageFailure = (e: UsageError): number => {
    fail(e.message);
    if (e.hint) io.stderr.write(`See "${e.hint}".\n`);
    return 2;
  };
  try {
    return await runCommandLine(argv, io, usageFailure, fail);
  } catch (e) {
    fail(isMnemoError(e) ? e.message : (e as Error).message);
    return 1;
  }
}

/**
 * Run by the desktop package's `mnemo` (scripts/desktop-shims), this bundle lies in <resources>/app.asar/out/cli: it
 * uses the package's bundled embedding model as the app does. Migrations and sqlite-vec need nothing here: the
 * migrations are read through Electron's asar support, and the core loads sqlite-vec from app.asar.unpacked.
 */
function packagedPaths(env: NodeJS.ProcessEnv): Partial<Paths> {
  const resources = packagedResourcesDir(fileURLToPath(import.meta.url));
  if (!resources) return {};
  const modelsDir = packagedModelsDir(env, resources, hasBundledModels(resources));
  return modelsDir ? { modelsDir } : {};
}

async function runCommandLine(argv: string[], io: CliIo, usageFailure: (e: UsageError) => number, fail: (message: string) => void): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine<CliCommand>(argv, commands);
  } catch (e) {
    if (e instanceof UsageError) return usageFailure(e);
    throw e;
  }
  if (parsed.kind === 'version') {
    io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (parsed.kind === 'help') {
    if (parsed.words.length === 0) {
      io.stdout.write(topLevelHelp(commands, packageVersion()) + '\n');
      return 0;
    }
    const text = groupHelp(commands, parsed.words);
    if (text === null) return usageFailure(new UsageError(`No command or group "${parsed.words.join(' ')}".`, 'mnemo --help'));
    io.stdout.write(text + '\n');
    return 0;
  }

  const { command, args, flags, json } = parsed;
  const report = (out: CliOutput) => reportOutcome(out, json, io, fail);
  // A relative --data-dir (or MNEMO_DATA_DIR) is relative to where the command was typed, as every path argument is.
  const dataDir = path.resolve(io.cwd, resolveDataDir(flags['data-dir'], io.env));
  if (command.runWithoutCore) return report(await command.runWithoutCore({ args, flags, json, dataDir, io }));
  const core = createCore({
    dataDir,
    paths: packagedPaths(io.env),
    host: 'cli',
    version: packageVersion(),
    env: io.env,
    logger: createStderrLogger(io.env.MNEMO_LOG_LEVEL === 'debug' ? 'debug' : 'error', io.stderr),
    // A short-lived command does not run background jobs; the app (or `queue run`) does.
    startQueue: false,
  });
  try {
    const client = createClient(createInProcessTransport(core));
    const settings = await client.call('settings.get', {});
    const timeZone = userTimeZone(settings.ok ? settings.value.timeZone : '');
    let out: CliOutput;
    try {
      out = await command.run({
        client,
        args,
        flags,
        json,
        core,
        io,
        write: (text) => void io.stdout.write(text),
        note: (line) => void io.stderr.write(`mnemo: ${line}\n`),
        progress: (label) => (progressEnabled(io.stderr, io.env) ? createProgressBar(io.stderr, label) : null),
        paint: paint(!json && colourEnabled(io.stdout, io.env)),
        timeZone,
        localTime: (at, precision) => localDateTime(at, timeZone, precision),
      });
    } catch (e) {
      // A command that finds its own words wrong (an unknown setting, a value of the wrong type).
      if (!(e instanceof UsageError)) throw e;
      return usageFailure(new UsageError(e.message, e.hint ?? `mnemo ${command.words.join(' ')} --help`));
    }
    return report(out);
  } finally {
    await core.dispose();
  }
}

function reportOutcome(out: CliOutput, json: boolean, io: CliIo, fail: (message: string) => void): number {
  if (!out.ok) {
    const found = out.report;
    if (json) io.stdout.write(JSON.stringify({ ok: false, error: out.error, ...(found ? { report: found.value } : {}) }) + '\n');
    else if (found?.text) io.stdout.write(found.text + '\n');
    fail(out.error.message);
    const confirm = confirmationHint(out.error.details);
    if (confirm) io.stderr.write(`${confirm}\n`);
    return 1;
  }
  const text = json ? JSON.stringify(out.value, null, 2) : out.text;
  if (text) io.stdout.write(text + '\n');
  return 0;
}

/**
 * A model server on another machine that Mnemo refused (FORBIDDEN, details.confirm: OLLAMA_HOST pointing elsewhere,
 * or an address stored without its confirmation): the command that confirms it, for the terminal.
 */
function confirmationHint(details: Record<string, unknown> | undefined): string | null {
  const confirm = details?.confirm as { setting?: unknown; address?: unknown } | undefined;
  if (typeof confirm?.setting !== 'string' || typeof confirm.address !== 'string') return null;
  return `To send to it: mnemo settings set ${confirm.setting} ${confirm.address}`;
}
