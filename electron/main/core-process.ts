/**
 * Entry of the core's utility process (utilityProcess.fork from index.ts). The core (better-sqlite3, sqlite-vec,
 * onnxruntime: synchronous, CPU-heavy) runs here so a long query or an embedding batch never stalls the window's
 * main process. It speaks core-protocol.ts over process.parentPort and exits when the main process kills it after
 * `stopped` (or when Electron ends with the app).
 *
 * Why a utility process and not the main process or a child_process: better-sqlite3 and the embedding around
 * onnxruntime are synchronous, so a search over many memories, a backup (VACUUM INTO), a migration or a WAL checkpoint
 * holds the thread that runs it; in main that thread also delivers every window event, IPC message and menu click.
 * A utility process needs neither ELECTRON_RUN_AS_NODE nor child_process.fork, so it works with the RunAsNode fuse off,
 * and takes an ESM entry and native modules built for Electron's ABI. A crash in native code ends this process, not
 * the window: main answers pending calls with INTERNAL, says so and exits; committed data is safe in WAL.
 * The cost: one more structured-clone hop per call and event, and one more Node process. The sender-frame check stays
 * in main and the page never receives a port to this process, so nothing reaches the core without passing it.
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
