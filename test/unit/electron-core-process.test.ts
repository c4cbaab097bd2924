import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventMessage } from '../../shared/contract';
import { MnemoError, type Result } from '../../shared/errors';
import type { Paths } from '../../electron/core/ports/paths.port';
import { createCoreClient, parseFromCore, parseToCore, serveCore, type CoreStartOptions, type Endpoint, type ServedCore } from '../../electron/main/core-protocol';

// The main-process client and the utility-process server, joined by a real Node MessageChannel (structured clone,
// asynchronous delivery, like Electron's parentPort), around a fake core.

const paths: Paths = { dataDir: '/data', dbFile: '/data/mnemo.db', backupsDir: '/data/backups', modelsDir: '/data/models', logsDir: '/data/logs', laneFile: '/data/model-lane.json', migrationsDir: '/app/drizzle' };
const startOptions: CoreStartOptions = { dataDir: '/data', version: '1.2.3', paths: { migrationsDir: '/app/drizzle' }, logLevel: 'warn' };

function fakeCore() {
  const listeners = new Set<(m: EventMessage) => void>();
  const slow: Array<() => void> = [];
  let disposed = false;
  const core: ServedCore & { emit(m: unknown): void; readonly disposed: boolean; readonly waiting: number; releaseSlow(): void } = {
    paths,
    async call(name, input): Promise<Result<unknown>> {
      if (disposed) return { ok: false, error: { code: 'SHUTTING_DOWN', message: 'disposed' } };
      if (name === 'echo') return { ok: true, value: input };
      if (name === 'date') return { ok: true, value: { at: new Date(0), missing: undefined } };
      if (name === 'slow') {
        await new Promise<void>((resolve) => slow.push(resolve));
        return { ok: true, value: 'late' };
      }
      if (name === 'throws') throw new Error('handler bug');
      return { ok: false, error: { code: 'UNKNOWN_OPERATION', message: `no ${name}` } };
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dispose() {
      disposed = true;
    },
    emit: (m) => listeners.forEach((l) => l(m as EventMessage)),
    get disposed() {
      return disposed;
    },
    get waiting() {
      return slow.length;
    },
    releaseSlow: () => slow.splice(0).forEach((r) => r()),
  };
  return core;
}

const ports: MessagePort[] = [];
afterEach(() => {
  for (const p of ports.splice(0)) p.close();
});

function endpoint(port: MessagePort): Endpoint {
  ports.push(port);
  return {
    post: (m) => port.postMessage(m),
    listen(listener) {
      port.on('message', listener);
      return () => port.off('message', listener);
    },
  };
}

function wire(makeCore: (o: CoreStartOptions) => ServedCore = () => fakeCore()) {
  const { port1, port2 } = new MessageChannel();
  const onUnexpectedExit = vi.fn();
  const client = createCoreClient(endpoint(port1), { onUnexpectedExit });
  const made: CoreStartOptions[] = [];
  const served = serveCore(endpoint(port2), (o) => {
    made.push(o);
    return makeCore(o);
  });
  return { client, served, onUnexpectedExit, made };
}

describe('core process protocol', () => {
  it('starts the core with the options main computed and answers calls with JSON-shaped envelopes', async () => {
    const { client, made } = wire();
    expect(await client.start(startOptions)).toEqual(paths);
    expect(made).toEqual([startOptions]);
    expect(await client.call('echo', { text: '记住我', n: 1, skip: undefined })).toEqual({ ok: true, value: { text: '记住我', n: 1 } });
    // What a web client would see: a Date becomes its JSON string, undefined disappears.
    expect(await client.call('date', {})).toEqual({ ok: true, value: { at: '1970-01-01T00:00:00.000Z' } });
    expect(await client.call('nope', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OPERATION' } });
  });

  it('answers concurrent calls each with its own result', async () => {
    const { client } = wire();
    await client.start(startOptions);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.call('echo', { i })));
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => ({ ok: true, value: { i } })));
  });

  it('calls made before the core is up wait for it (start is handled first)', async () => {
    const { client } = wire();
    const started = client.start(startOptions);
    const early = client.call('echo', { early: true });
    expect(await early).toEqual({ ok: true, value: { early: true } });
    await started;
  });

  it('a core that cannot start rejects start with its MnemoError, and every call gets that error', async () => {
    const { client } = wire(() => {
      throw new MnemoError('DB_CORRUPT', 'Mnemo cannot read its database at /data/mnemo.db.', { details: { file: '/data/mnemo.db' } });
    });
    const failure = await client.start(startOptions).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(MnemoError);
    expect(failure).toMatchObject({ code: 'DB_CORRUPT', message: 'Mnemo cannot read its database at /data/mnemo.db.', details: { file: '/data/mnemo.db' } });
    expect(await client.call('echo', {})).toMatchObject({ ok: false, error: { code: 'DB_CORRUPT' } });
  });

  it('after a failed start the main process may start again with the user\'s answer (a missing database)', async () => {
    const { client, made } = wire((o) => {
      if (!o.whenDatabaseMissing) throw new MnemoError('DB_MISSING', "Mnemo's database is missing.", { details: { state: 'missing' } });
      return fakeCore();
    });
    await expect(client.start(startOptions)).rejects.toMatchObject({ code: 'DB_MISSING', details: { state: 'missing' } });
    expect(await client.call('echo', 1)).toMatchObject({ ok: false, error: { code: 'DB_MISSING' } });
    expect(await client.start({ ...startOptions, whenDatabaseMissing: 'restore-newest' })).toEqual(paths);
    expect(await client.call('echo', 1)).toEqual({ ok: true, value: 1 });
    expect(made.map((o) => o.whenDatabaseMissing)).toEqual([undefined, 'restore-newest']);
    expect(parseToCore({ kind: 'start', options: { ...startOptions, whenDatabaseMissing: 'start-empty' } })).not.toBeNull();
    expect(parseToCore({ kind: 'start', options: { ...startOptions, whenDatabaseMissing: 'delete-everything' } })).toBeNull();
  });

  it('an unexpected error while starting becomes INTERNAL with its reason', async () => {
    const { client } = wire(() => {
      throw new Error('The module was compiled against a different Node.js version');
    });
    await expect(client.start(startOptions)).rejects.toMatchObject({ code: 'INTERNAL', message: expect.stringMatching(/different Node.js version/) });
  });

  it('a handler that throws still answers, with INTERNAL and without its message', async () => {
    const { client } = wire();
    await client.start(startOptions);
    const result = await client.call('throws', {});
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(result)).not.toContain('handler bug');
  });

  it('forwards core events to subscribers until they unsubscribe', async () => {
    const core = fakeCore();
    const { client } = wire(() => core);
    await client.start(startOptions);
    const seen: unknown[] = [];
    const unsubscribe = client.subscribe((m) => seen.push(m));
    core.emit({ event: 'thread.created', payload: { id: 7 } });
    await vi.waitFor(() => expect(seen).toEqual([{ event: 'thread.created', payload: { id: 7 } }]));
    unsubscribe();
    core.emit({ event: 'thread.created', payload: { id: 8 } });
    expect(await client.call('echo', 'sync point')).toMatchObject({ ok: true });
    expect(seen).toHaveLength(1);
  });

  it('refuses input that is not plain JSON without sending it', async () => {
    const { client } = wire();
    await client.start(startOptions);
    expect(await client.call('echo', { big: 10n })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('stop refuses new calls at once, disposes the core, and settles every pending call', async () => {
    const core = fakeCore();
    const { client, served } = wire(() => core);
    await client.start(startOptions);
    const inFlight = client.call('slow', {});
    await vi.waitFor(() => expect(core.waiting).toBe(1));
    const stopping = client.stop();
    expect(await client.call('echo', {})).toMatchObject({ ok: false, error: { code: 'SHUTTING_DOWN' } });
    await stopping;
    await served.stopped;
    expect(core.disposed).toBe(true);
    // The slow call was still running when the core stopped: it is answered, not left hanging.
    expect(await inFlight).toMatchObject({ ok: false, error: { code: 'SHUTTING_DOWN' } });
    core.releaseSlow();
    expect(await client.stop()).toBeUndefined();
  });

  it('a crash of the core process answers pending calls, reports it once, and refuses later calls', async () => {
    const core = fakeCore();
    const { client, onUnexpectedExit } = wire(() => core);
    await client.start(startOptions);
    const pending = client.call('slow', {});
    await vi.waitFor(() => expect(core.waiting).toBe(1));
    client.processExited(134);
    expect(await pending).toMatchObject({ ok: false, error: { code: 'INTERNAL', message: expect.stringMatching(/stopped unexpectedly/) } });
    expect(onUnexpectedExit).toHaveBeenCalledWith(134);
    client.processExited(134);
    expect(onUnexpectedExit).toHaveBeenCalledTimes(1);
    expect(await client.call('echo', {})).toMatchObject({ ok: false, error: { code: 'SHUTTING_DOWN' } });
    await client.stop();
  });

  it('the process ending after stop was asked is not a crash, and ending during start rejects start', async () => {
    const stopped = createCoreClient({ post: () => {}, listen: () => () => {} }, { onUnexpectedExit: vi.fn() });
    const done = stopped.stop();
    stopped.processExited(0);
    await done;

    const starting = createCoreClient({ post: () => {}, listen: () => () => {} });
    const start = starting.start(startOptions);
    starting.processExited(1);
    await expect(start).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('a dead port answers calls with an error instead of hanging', async () => {
    const client = createCoreClient({
      post: () => {
        throw new Error('port closed');
      },
      listen: () => () => {},
    });
    expect(await client.call('echo', {})).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    await client.stop();
  });
});

describe('protocol messages', () => {
  it('accepts the messages each side sends and drops anything else', () => {
    expect(parseToCore({ kind: 'start', options: startOptions })).not.toBeNull();
    expect(parseToCore({ kind: 'start', options: { ...startOptions, secretSealingKey: 'a2V5' } })).not.toBeNull();
    expect(parseToCore({ kind: 'call', id: 1, name: 'x', input: null })).not.toBeNull();
    expect(parseToCore({ kind: 'stop', extra: 1 })).toEqual({ kind: 'stop' });
    for (const bad of [null, 'stop', [], { kind: 'call', id: 0, name: 'x' }, { kind: 'call', id: 1.5, name: 'x' }, { kind: 'call', id: 1 }, { kind: 'start', options: { ...startOptions, logLevel: 'loud' } }, { kind: 'start', options: { ...startOptions, secretSealingKey: 42 } }, { kind: 'exec' }]) {
      expect(parseToCore(bad), JSON.stringify(bad)).toBeNull();
    }
    expect(parseFromCore({ kind: 'result', id: 3, result: { ok: true } })).not.toBeNull();
    expect(parseFromCore({ kind: 'result', id: 3, result: { ok: false, error: { code: 'X', message: 'm' } } })).not.toBeNull();
    for (const bad of [{ kind: 'result', id: 3, result: { ok: false } }, { kind: 'result', result: { ok: true } }, { kind: 'event', message: {} }, { kind: 'started', paths: {} }, { kind: 'start-failed', error: 'x' }]) {
      expect(parseFromCore(bad), JSON.stringify(bad)).toBeNull();
    }
  });

  it('a malformed message is dropped and does not disturb the conversation', async () => {
    const { port1, port2 } = new MessageChannel();
    const warn = vi.fn();
    const client = createCoreClient(endpoint(port1), { logger: { warn, error: vi.fn() } });
    serveCore(endpoint(port2), () => fakeCore(), { logger: { warn, error: vi.fn() } });
    port2.postMessage({ kind: 'result', id: 'one' });
    port1.postMessage({ kind: 'launch-missiles' });
    await client.start(startOptions);
    expect(await client.call('echo', 1)).toEqual({ ok: true, value: 1 });
    expect(warn).toHaveBeenCalledWith('malformed message from the core process dropped');
    expect(warn).toHaveBeenCalledWith('malformed message from the main process dropped');
  });
});
