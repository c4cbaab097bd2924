/**
 * Entry of the database copier's worker thread (started by database-copy.ts): runs copyDatabase on the request it is
 * given as workerData, posts one reply (CopyReply) and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { MnemoError } from '../../../shared/errors';
import { copyDatabase, type CopyReply, type CopyRequest } from './database-copy';

const port = parentPort;
if (!port) throw new Error('database-copy.worker runs only as a worker thread.');

let reply: CopyReply;
try {
  reply = { ok: true, value: copyDatabase(workerData as CopyRequest) };
} catch (e) {
  reply =
    e instanceof MnemoError
      ? { ok: false, mnemo: e.toInfo(), message: e.message }
      : { ok: false, message: e instanceof Error ? e.message : String(e), ...((e as { code?: unknown }).code ? { code: String((e as { code?: unknown }).code) } : {}) };
}
port.postMessage(reply);
