/**
 * The terminal host: `mnemo <group> <command> [args] [options]` (or `npm run -s cli -- …` from the source tree).
 * Same core, in-process, same envelopes. Exit codes: 0 ok, 1 the operation failed (one line on stderr),
 * 2 the command line itself is wrong (one line saying what, and which help to read).
 */
import { fileURLToPath } from 'node:url';
import { localDateTime } from '../../shared/calendar-day';
import { createClient } from '../../shared/client';
import { isMnemoError } from '../../shared/errors';
import { userTimeZone } from '../../shared/time-zone';
import { createCore } from '../core/create-core';
import { createInProcessTransport } from '../core/in-process.transport';
import { createStderrLogger } from '../core/ports/logger.port';
import { hasBundledModels, packagedModelsDir, packagedResourcesDir } from '../core/packaged-paths';
import { resolveDataDir, type Paths } from '../core/ports/paths.port';
import { packageVersion } from '../core/version';
import { commands, type CliCommand, type CliOutput } from './commands';
import { groupHelp, topLevelHelp } from './help';
import { parseCommandLine, UsageError } from './parse';
import { colourEnabled, createProgressBar, paint, progressEnabled } from './terminal';

const errorPaint = paint(colourEnabled(process.stderr, process.env));
const fail = (message: string) => void process.stderr.write(`${errorPaint.red('mnemo:')} ${message}\n`);

function usageFailure(e: UsageError): number {
  fail(e.message);
  if (e.hint) process.stderr.write(`See "${e.hint}".\n`);
  return 2;
}

/**
 * Run by the desktop package's `mnemo` (scripts/desktop-shims), this bundle lies in <resources>/app.asar/out/cli: it
 * uses the package's bundled embedding model as the app does. Migrations and sqlite-vec need nothing here: the
 * migrations are read through Electron's asar support, and the core loads sqlite-vec from app.asar.unpacked.
 */
function packagedPaths(): Partial<Paths> {
  const resources = packagedResourcesDir(fileURLToPath(import.meta.url));
  if (!resources) return {};
  const modelsDir = packagedModelsDir(process.env, resources, hasBundledModels(resources));
  return modelsDir ? { modelsDir } : {};
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine<CliCommand>(argv, commands);
  } catch (e) {
    if (e instanceof UsageError) return usageFailure(e);
    throw e;
  }
  if (parsed.kind === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (parsed.kind === 'help') {
    if (parsed.words.length === 0) {
      process.stdout.write(topLevelHelp(commands, packageVersion()) + '\n');
      return 0;
    }
    const text = groupHelp(commands, parsed.words);
    if (text === null) return usageFailure(new UsageError(`No command or group "${parsed.words.join(' ')}".`, 'mnemo --help'));
    process.stdout.write(text + '\n');
    return 0;
  }

  const { command, args, flags, json } = parsed;
  const dataDir = resolveDataDir(flags['data-dir']);
  if (command.runWithoutCore) return report(await command.runWithoutCore({ args, flags, json, dataDir }), json);
  const core = createCore({
    dataDir,
    paths: packagedPaths(),
    host: 'cli',
    version: packageVersion(),
    logger: createStderrLogger(process.env.MNEMO_LOG_LEVEL === 'debug' ? 'debug' : 'error'),
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
        write: (text) => void process.stdout.write(text),
        note: (line) => void process.stderr.write(`mnemo: ${line}\n`),
        progress: (label) => (progressEnabled(process.stderr, process.env) ? createProgressBar(process.stderr, label) : null),
        paint: paint(!json && colourEnabled(process.stdout, process.env)),
        timeZone,
        localTime: (at, precision) => localDateTime(at, timeZone, precision),
      });
    } catch (e) {
      // A command that finds its own words wrong (an unknown setting, a value of the wrong type).
      if (!(e instanceof UsageError)) throw e;
      return usageFailure(new UsageError(e.message, e.hint ?? `mnemo ${command.words.join(' ')} --help`));
    }
    return report(out, json);
  } finally {
    await core.dispose();
  }
}

function report(out: CliOutput, json: boolean): number {
  if (!out.ok) {
    const found = out.report;
    if (json) process.stdout.write(JSON.stringify({ ok: false, error: out.error, ...(found ? { report: found.value } : {}) }) + '\n');
    else if (found?.text) process.stdout.write(found.text + '\n');
    fail(out.error.message);
    const confirm = confirmationHint(out.error.details);
    if (confirm) process.stderr.write(`${confirm}\n`);
    return 1;
  }
  const text = json ? JSON.stringify(out.value, null, 2) : out.text;
  if (text) process.stdout.write(text + '\n');
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    fail(isMnemoError(e) ? e.message : (e as Error).message);
    process.exit(1);
  },
);
