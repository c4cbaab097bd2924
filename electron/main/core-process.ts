/**
 * Entry of the core's utility process (utilityProcess.fork from index.ts). The core (better-sqlite3, sqlite-vec,
 * onnxruntime: synchronous, CPU-heavy) runs here so a long query or an embedding batch never stalls the window's
 * main process. It speaks core-protocol.ts over process.parentPort and exits when the main process kills it after
 * `stopped` (or when Electron ends with the app).
 */
import type { MessageEvent, ParentPort } from 'electron';
import { createCore } from '../core/create-core';
import { createFileSecretStore } from '../core/ports/file-secret-store';
import { createStderrLogger } from '../core/ports/logger.port';
import { serveCore, type Endpoint } from './core-protocol';

const parentPort = (process as NodeJS.Process & { parentPort?: ParentPort | null }).parentPort;
if (!parentPort) {
  console.error('core-process runs only inside an Electron utility process (utilityProcess.fork).');
  process.exit(2);
}

const endpoint: Endpoint = {
  post: (message) => parentPort.postMessage(message),
  listen(listener) {
    const onMessage = (event: MessageEvent) => listener(event.data);
    parentPort.on('message', onMessage);
    return () => parentPort.off('message', onMessage);
  },
};

const wireLogger = createStderrLogger('warn');

serveCore(
  endpoint,
  (options) =>
    createCore({
      dataDir: options.dataDir,
      host: 'electron',
      version: options.version,
      logger: createStderrLogger(options.logLevel),
      paths: options.paths,
      ...(options.whenDatabaseMissing ? { whenDatabaseMissing: options.whenDatabaseMissing } : {}),
      ...(options.secretSealingKey ? { secrets: createFileSecretStore({ dataDir: options.dataDir, sealingKey: options.secretSealingKey }) } : {}),
    }),
  { logger: wireLogger },
);
