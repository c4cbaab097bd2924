/**
 * The wire between the Electron main process and the core's utility process (core-process.ts). It carries the same
 * envelopes and events as every other transport, plus start and stop. Both ends are plain functions over an
 * Endpoint, so the protocol is unit-tested with fakes or Node's own MessageChannel, without Electron.
 *
 * Invariants:
 * - every call gets exactly one answer: the core's envelope, or SHUTTING_DOWN / CORE_STOPPED when the core stops or
 *   its process ends first; nothing is left pending;
 * - once stop() is called the client refuses new calls at once (the core's dispose refuses them again);
 * - what crosses is JSON-shaped, exactly what the web host's clients receive (no Dates, Maps or undefined holes).
 *
 * One message is the desktop host's alone and no operation: `power`, whether the computer runs on battery (Electron's
 * powerMonitor, which only main has). The model lane holds background model work on battery when the user asked for it
 * (settings.learningNeedsPower). Not an operation, so no page and no other host can claim the computer is on battery.
 */
import type { EventMessage } from '../../shared/contract';
import { MnemoError, type ErrorInfo, type Result } from '../../shared/errors';
import type { WhenDatabaseMissing } from '../core/backup/missing-database';
import type { Core } from '../core/create-core';
import type { Paths } from '../core/ports/paths.port';
import type { CoreEndpoint } from './ipc-adapter';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface CoreStartOptions {
  dataDir: string;
  version: string;
  paths: Partial<Paths>;
  logLevel: LogLevel;
  /** The user's answer after a start failed with DB_MISSING (see missing-database-dialog.ts). */
  whenDatabaseMissing?: WhenDatabaseMissing;
  /** Seals the secrets file (base64, 32 bytes; secret-sealing-key.ts). Absent: the plain 0600 file. Never logged. */
  secretSealingKey?: string;
}

// A Record over the type: the compiler makes it list every choice, so the vocabulary stays the core's.
const DATABASE_MISSING_CHOICES: Record<WhenDatabaseMissing, true> = { refuse: true, 'restore-newest': true, 'start-empty': true };

export type ToCore =
  | { kind: 'start'; options: CoreStartOptions }
  | { kind: 'call'; id: number; name: string; input: unknown }
  | { kind: 'power'; onBattery: boolean }
  | { kind: 'stop' };

export type FromCore =
  | { kind: 'started'; paths: Paths }
  | { kind: 'start-failed'; error: ErrorInfo }
  | { kind: 'result'; id: number; result: Result<unknown> }
  | { kind: 'event'; message: EventMessage }
  | { kind: 'stopped' };

/** One side of the wire: Electron's UtilityProcess / parentPort, or a Node MessagePort in tests. */
export interface Endpoint {
  post(message: unknown): void;
  listen(listener: (message: unknown) => void): () => void;
}

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const isId = (x: unknown): x is number => Number.isSafeInteger(x) && (x as number) > 0;
const isErrorInfo = (x: unknown): x is ErrorInfo => isObj(x) && typeof x.code === 'string' && typeof x.message === 'string';
// A value of `undefined` does not survive JSON, so `ok: true` alone is a valid result.
const isResult = (x: unknown): x is Result<unknown> => isObj(x) && (x.ok === true || (x.ok === false && isErrorInfo(x.error)));

export function parseToCore(x: unknown): ToCore | null {
  if (!isObj(x)) return null;
  switch (x.kind) {
    case 'start': {
      const o = x.options;
      return isObj(o) &&
        typeof o.dataDir === 'string' &&
        typeof o.version === 'string' &&
        isObj(o.paths) &&
        ['debug', 'info', 'warn', 'error'].includes(o.logLevel as string) &&
        (o.whenDatabaseMissing === undefined || Object.hasOwn(DATABASE_MISSING_CHOICES, o.whenDatabaseMissing as string)) &&
        (o.secretSealingKey === undefined || typeof o.secretSealingKey === 'string')
        ? (x as ToCore)
        : null;
    }
    case 'call':
      return isId(x.id) && typeof x.name === 'string' ? (x as ToCore) : null;
    case 'power':
      return typeof x.onBattery === 'boolean' ? { kind: 'power', onBattery: x.onBattery } : null;
    case 'stop':
      return { kind: 'stop' };
    default:
      return null;
  }
}

export function parseFromCore(x: unknown): FromCore | null {
  if (!isObj(x)) return null;
  switch (x.kind) {
    case 'started':
      return isObj(x.paths) && typeof x.paths.dataDir === 'string' ? (x as FromCore) : null;
    case 'start-failed':
      return isErrorInfo(x.error) ? (x as FromCore) : null;
    case 'result':
      return isId(x.id) && isResult(x.result) ? (x as FromCore) : null;
    case 'event':
      return isObj(x.message) && typeof x.message.event === 'string' ? (x as FromCore) : null;
    case 'stopped':
      return { kind: 'stopped' };
    default:
      return null;
  }
}

const jsonShaped = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

const SHUTTING_DOWN: Result<never> = { ok: false, error: { code: 'SHUTTING_DOWN', message: 'Mnemo is shutting down; the request was not run.' } };
const CORE_STOPPED: Result<never> = {
  ok: false,
  error: { code: 'INTERNAL', message: "Mnemo's background process stopped unexpectedly; the request was not run. Restart Mnemo." },
};

const NOT_JSON: Result<never> = { ok: false, error: { code: 'INVALID_INPUT', message: 'The request is not plain JSON data and was not run.' } };

export interface WireLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

// ---------------------------------------------------------------------------------------------------------------
// Main side

export interface CoreClient extends CoreEndpoint {
  /** Resolves with the core's paths once its database is open; rejects with the core's MnemoError otherwise. */
  start(options: CoreStartOptions): Promise<Paths>;
  /** Whether the computer runs on battery now; may be sent before start (the core applies the last one it got). */
  setOnBattery(onBattery: boolean): void;
  /** Refuses new calls now, then resolves once the core has disposed (WAL checkpointed, db closed) or its process ended. */
  stop(): Promise<void>;
  /** The host reports the end of the core's process (UtilityProcess 'exit'). */
  processExited(code: number): void;
}

export interface CoreClientOptions {
  /** The process ended without being asked to stop (a crash). */
  onUnexpectedExit?(code: number): void;
  logger?: WireLogger;
}

export function createCoreClient(endpoint: Endpoint, options: CoreClientOptions = {}): CoreClient {
  const pending = new Map<number, (result: Result<unknown>) => void>();
  const listeners = new Set<(message: EventMessage) => void>();
  let nextId = 1;
  let accepting = true;
  let stopRequested = false;
  let ended = false;
  let starting: { resolve(paths: Paths): void; reject(e: MnemoError): void } | null = null;
  let stopped!: () => void;
  const whenStopped = new Promise<void>((resolve) => (stopped = resolve));

  const settleAll = (result: Result<never>) => {
    for (const resolve of pending.values()) resolve(result);
    pending.clear();
  };
  const end = (result: Result<never>) => {
    accepting = false;
    ended = true;
    settleAll(result);
    stopped();
  };

  endpoint.listen((raw) => {
    const message = parseFromCore(raw);
    if (!message) {
      options.logger?.warn('malformed message from the core process dropped');
      return;
    }
    switch (message.kind) {
      case 'started':
        starting?.resolve(message.paths);
        starting = null;
        break;
      case 'start-failed':
        starting?.reject(new MnemoError(message.error.code, message.error.message, message.error.details ? { details: message.error.details } : {}));
        starting = null;
        break;
      case 'result': {
        const resolve = pending.get(message.id);
        pending.delete(message.id);
        resolve?.(message.result);
        break;
      }
      case 'event':
        for (const listener of [...listeners]) {
          try {
            listener(message.message);
          } catch (e) {
            options.logger?.error('event listener failed', { event: message.message.event, error: (e as Error).message });
          }
        }
        break;
      case 'stopped':
        end(SHUTTING_DOWN);
        break;
    }
  });

  return {
    start(startOptions) {
      return new Promise<Paths>((resolve, reject) => {
        starting = { resolve, reject };
        send({ kind: 'start', options: startOptions });
      });
    },
    call(name, input) {
      if (!accepting) return Promise.resolve(SHUTTING_DOWN);
      let json: unknown;
      try {
        json = jsonShaped(input);
      } catch {
        // Structured clone (IPC) carries BigInts and cycles; JSON, which every transport promises, does not.
        return Promise.resolve(NOT_JSON);
      }
      const id = nextId++;
      return new Promise<Result<unknown>>((resolve) => {
        pending.set(id, resolve);
        if (!send({ kind: 'call', id, name, input: json })) {
          pending.delete(id);
          resolve(CORE_STOPPED);
        }
      });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    setOnBattery(onBattery) {
      if (!ended && !stopRequested) send({ kind: 'power', onBattery });
    },
    stop() {
      accepting = false;
      if (!stopRequested && !ended) {
        stopRequested = true;
        if (!send({ kind: 'stop' })) end(SHUTTING_DOWN);
      }
      return whenStopped;
    },
    processExited(code) {
      if (ended) return;
      const unexpected = !stopRequested;
      starting?.reject(new MnemoError('INTERNAL', `Mnemo's background process ended while starting (exit code ${code}).`));
      starting = null;
      end(unexpected ? CORE_STOPPED : SHUTTING_DOWN);
      if (unexpected) options.onUnexpectedExit?.(code);
    },
  };

  function send(message: ToCore): boolean {
    try {
      endpoint.post(message);
      return true;
    } catch (e) {
      options.logger?.error('could not reach the core process', { error: (e as Error).message });
      return false;
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Core-process side

export interface ServeOptions {
  logger?: WireLogger;
}

/**
 * What the server needs of the core. `setOnBattery` is the model lane's (model-lane.ts): optional, so a core that does
 * not take the power state yet is served all the same and the message is dropped.
 */
export type ServedCore = Pick<Core, 'paths' | 'call' | 'subscribe' | 'dispose'> & { setOnBattery?(onBattery: boolean): void };

/**
 * Runs in the utility process: builds the core on `start`, answers calls, forwards events, disposes on `stop`. After a
 * failed start, another `start` may follow (the user's answer to a missing database); once started, it is ignored.
 */
export function serveCore(endpoint: Endpoint, makeCore: (options: CoreStartOptions) => ServedCore, options: ServeOptions = {}): { stopped: Promise<void> } {
  let core: ServedCore | null = null;
  let startError: ErrorInfo | null = null;
  let unsubscribe: (() => void) | null = null;
  let stopping = false;
  /** The last power state main sent, kept for a core started after it (main sends it once, at launch). */
  let onBattery: boolean | null = null;
  let markStopped!: () => void;
  const stopped = new Promise<void>((resolve) => (markStopped = resolve));
  const post = (message: FromCore) => endpoint.post(message);

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    try {
      await core?.dispose();
    } catch (e) {
      options.logger?.error('core dispose failed', { error: (e as Error).message });
    }
    unsubscribe?.();
    post({ kind: 'stopped' });
    markStopped();
  };

  endpoint.listen((raw) => {
    const message = parseToCore(raw);
    if (!message) {
      options.logger?.warn('malformed message from the main process dropped');
      return;
    }
    switch (message.kind) {
      case 'start':
        if (core || stopping) return;
        try {
          core = makeCore(message.options);
          startError = null;
          unsubscribe = core.subscribe((event) => post({ kind: 'event', message: jsonShaped(event) }));
          if (onBattery !== null) core.setOnBattery?.(onBattery);
          post({ kind: 'started', paths: jsonShaped(core.paths) });
        } catch (e) {
          startError =
            e instanceof MnemoError
              ? e.toInfo()
              : { code: 'INTERNAL', message: `Mnemo's core could not start: ${(e as Error)?.message ?? String(e)}` };
          post({ kind: 'start-failed', error: startError });
        }
        return;
      case 'call': {
        const { id } = message;
        if (stopping) return post({ kind: 'result', id, result: SHUTTING_DOWN });
        if (!core) return post({ kind: 'result', id, result: { ok: false, error: startError ?? { code: 'INTERNAL', message: "Mnemo's core has not started." } } });
        core.call(message.name, message.input).then(
          (result) => post({ kind: 'result', id, result: jsonShaped(result) }),
          (e: unknown) => {
            options.logger?.error('core call threw', { operation: message.name, error: (e as Error)?.message });
            post({ kind: 'result', id, result: { ok: false, error: { code: 'INTERNAL', message: 'Something went wrong inside Mnemo; the request was not completed.' } } });
          },
        );
        return;
      }
      case 'power':
        onBattery = message.onBattery;
        if (!stopping) core?.setOnBattery?.(onBattery);
        return;
      case 'stop':
        void stop();
        return;
    }
  });

  return { stopped };
}
