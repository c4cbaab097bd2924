/**
 * `npm run web`: the browser mode. Starts the core and the web host on 127.0.0.1 and prints one line with the URL
 * to open (token included). Options: --port N (0 = any free port), --data-dir DIR. The log goes to
 * <data folder>/logs/web.log; MNEMO_LOG_LEVEL (debug, info, warn, error) shows it on stderr as well.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isMnemoError } from '../../shared/errors';
import { createCore } from '../core/create-core';
import { allOf, createFileLogger, createStderrLogger, type LogLevel } from '../core/ports/logger.port';
import { derivePaths, repoRoot, resolveDataDir } from '../core/ports/paths.port';
import { packageVersion } from '../core/runtime/version';
import { startWebHost } from './web-host';

async function main(): Promise<void> {
  const stopRequested = whenStopRequested();
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '0' }, 'data-dir': { type: 'string' }, 'static-dir': { type: 'string' } },
    allowPositionals: false,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`mnemo web: --port must be a number from 0 to 65535 (got "${values.port}").`);
    process.exit(2);
  }
  const dataDir = resolveDataDir(values['data-dir']);
  const asked = logLevelFrom(process.env.MNEMO_LOG_LEVEL);
  const file = createFileLogger(path.join(derivePaths(dataDir).logsDir, 'web.log'), asked ?? 'info');
  const logger = asked ? allOf(file, createStderrLogger(asked)) : file;
  const core = createCore({ dataDir, host: 'web', version: packageVersion(), logger });
  const host = await startWebHost({
    core,
    port,
    staticDir: values['static-dir'] ?? path.join(repoRoot(), 'dist', 'renderer'),
    logger,
  });
  console.log(`Mnemo is running: open ${host.appUrl}`);

  await stopRequested;
  await host.close();
  await core.dispose();
  process.exit(0);
}

function logLevelFrom(value: string | undefined): LogLevel | null {
  return value === 'debug' || value === 'info' || value === 'warn' || value === 'error' ? value : null;
}

/**
 * Resolves on the first request to stop: SIGINT (Ctrl+C), SIGTERM, SIGHUP (terminal closed), or the end of the
 * `npm run web` wrapper that started this server, seen as its IPC channel closing (scripts/web.mjs says why).
 * Set up first thing, so a request that comes while the server is starting (or between printing the URL and the
 * next line) stops it cleanly once started, instead of the default action killing it with the database open.
 * A second signal forces the exit at once (a stuck shutdown). Only signals count: on Ctrl+C the terminal signals us
 * and the wrapper closes its channel for the same key press, in either order, and that is one request.
 */
function whenStopRequested(): Promise<void> {
  return new Promise((resolve) => {
    let signalled = false;
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.on(signal, () => {
        if (signalled) process.exit(1);
        signalled = true;
        resolve();
      });
    }
    if (!process.send) return; // no IPC channel: started directly, not by the wrapper
    if (!process.connected) return resolve(); // the wrapper was gone before this module ran
    process.once('disconnect', () => resolve());
  });
}

main().catch((e: unknown) => {
  console.error(`mnemo web: ${isMnemoError(e) ? e.message : (e as Error).message}`);
  process.exit(1);
});
