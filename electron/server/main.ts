/**
 * `npm run web`: the browser mode. Starts the core and the web host on 127.0.0.1 and prints one line with the URL
 * to open (token included). Options: --port N (0 = any free port), --data-dir DIR.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isMnemoError } from '../../shared/errors';
import { createCore } from '../core/create-core';
import { createStderrLogger } from '../core/ports/logger.port';
import { resolveDataDir } from '../core/ports/paths.port';
import { packageVersion, repoRoot } from '../core/version';
import { startWebHost } from './web-host';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: '0' }, 'data-dir': { type: 'string' }, 'static-dir': { type: 'string' } },
    allowPositionals: false,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`mnemo web: --port must be a number from 0 to 65535 (got "${values.port}").`);
    process.exit(2);
  }
  const logger = createStderrLogger(process.env.MNEMO_LOG_LEVEL === 'debug' ? 'debug' : 'warn');
  const core = createCore({ dataDir: resolveDataDir(values['data-dir']), host: 'web', version: packageVersion(), logger });
  const host = await startWebHost({
    core,
    port,
    staticDir: values['static-dir'] ?? path.join(repoRoot(), 'dist', 'renderer'),
    logger,
  });
  console.log(`Mnemo is running: open ${host.appUrl}`);

  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(1); // a second Ctrl+C forces it
    stopping = true;
    await host.close();
    await core.dispose();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  console.error(`mnemo web: ${isMnemoError(e) ? e.message : (e as Error).message}`);
  process.exit(1);
});
