/**
 * `npm run web` is two processes: the wrapper (scripts/web.mjs) and the real server it spawns under tsx
 * (electron/server/main.ts). The server must end with its wrapper, however the wrapper ends (kill -9 included), and
 * end cleanly: the core disposed, i.e. the WAL folded back and the database closed (no mnemo.db-wal left behind).
 * Both processes run for real; the renderer is a one-file folder passed with --static-dir, so nothing is built.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/temp-dir';

const ROOT = path.resolve(import.meta.dirname, '../..');
// Generous bounds for a loaded 2-core machine: tsx compiles the server on start, migrations run on a fresh database.
const START_TIMEOUT_MS = 60_000;
const END_TIMEOUT_MS = 30_000;
const TEST_TIMEOUT_MS = 120_000;

interface RunningWrapper {
  wrapper: ChildProcess;
  port: number;
  dbFile: string;
  /** Resolves once every process holding the wrapper's stdout has ended: the wrapper and the server it spawned. */
  allEnded: Promise<void>;
  /** Resolves with the wrapper's exit code (null when a signal ended it). */
  wrapperExit: Promise<number | null>;
  /** Everything both processes printed so far (for failure messages). */
  output: () => string;
}

const started: ChildProcess[] = [];
afterEach(() => {
  // A server left behind by a failing test is still in the wrapper's process group: end the whole group.
  for (const child of started.splice(0)) {
    try {
      if (process.platform === 'win32') child.kill('SIGKILL');
      else process.kill(-child.pid!, 'SIGKILL');
    } catch {}
  }
});

/** `script`: web.mjs (`npm run web`), or start.mjs (`npm start`), which falls back to web.mjs without Electron's binary. */
function startWrapper(tempDir: string, script: 'web.mjs' | 'start.mjs' = 'web.mjs'): Promise<RunningWrapper> {
  const staticDir = path.join(tempDir, 'static');
  const dataDir = path.join(tempDir, 'data');
  fs.mkdirSync(staticDir, { recursive: true });
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Mnemo</title>');
  // detached: its own process group, so a test can send the terminal's Ctrl+C (the whole group) and clean up.
  const wrapper = spawn(process.execPath, [path.join(ROOT, 'scripts', script), '--port', '0', '--data-dir', dataDir, '--static-dir', staticDir], {
    cwd: ROOT,
    env: { ...process.env, MNEMO_SKIP_ELECTRON_DOWNLOAD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
  });
  started.push(wrapper);
  const allEnded = new Promise<void>((resolve) => wrapper.stdout!.once('close', () => resolve()));
  const wrapperExit = new Promise<number | null>((resolve) => wrapper.once('exit', (code) => resolve(code)));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm run web did not print its URL in time. Output:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /open http:\/\/127\.0\.0\.1:(\d+)\/#token=/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({ wrapper, port: Number(match[1]), dbFile: path.join(dataDir, 'mnemo.db'), allEnded, wrapperExit, output: () => output });
    };
    wrapper.stdout!.on('data', onData);
    wrapper.stderr!.on('data', onData);
    void wrapperExit.then((code) => {
      clearTimeout(timer);
      reject(new Error(`npm run web exited (${code}) before printing its URL. Output:\n${output}`));
    });
  });
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms / 1000} s`)), ms))]);
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('npm run web (scripts/web.mjs and the server it starts)', () => {
  const tempDir = useTempDirs();

  it(
    'kill -9 on the wrapper: the server notices, disposes the core and frees the port',
    async () => {
      const run = await startWrapper(tempDir());
      expect(await portAccepts(run.port)).toBe(true);
      expect(fs.existsSync(`${run.dbFile}-wal`)).toBe(true); // open in WAL mode, so "gone" below means closed cleanly

      run.wrapper.kill('SIGKILL'); // no handler runs in the wrapper: the server has to notice on its own
      await within(run.allEnded, END_TIMEOUT_MS, 'the server did not end after its wrapper was killed');

      expect(await portAccepts(run.port)).toBe(false);
      expect(fs.existsSync(`${run.dbFile}-wal`)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'kill -9 on npm start (its browser-mode fallback): web.mjs and the server end with it, cleanly',
    async () => {
      const run = await startWrapper(tempDir(), 'start.mjs');
      expect(await portAccepts(run.port)).toBe(true);
      run.wrapper.kill('SIGKILL');
      await within(run.allEnded, END_TIMEOUT_MS, 'web.mjs and the server did not end after npm start was killed');
      expect(await portAccepts(run.port)).toBe(false);
      expect(fs.existsSync(`${run.dbFile}-wal`)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'the terminal gets one line, the URL; the log goes to <data folder>/logs/web.log',
    async () => {
      const run = await startWrapper(tempDir());
      run.wrapper.kill('SIGTERM');
      await within(run.allEnded, END_TIMEOUT_MS, 'the server did not end');
      expect(run.output()).toMatch(/^Mnemo is running: open http:\/\/127\.0\.0\.1:\d+\/#token=\S+\n$/);
      const log = fs.readFileSync(path.join(path.dirname(run.dbFile), 'logs', 'web.log'), 'utf8').trim().split('\n');
      // A fresh folder: the database was created by migrating, which is logged (ids and names only, JSON lines).
      expect(log.map((line) => (JSON.parse(line) as { message: string }).message)).toContain('database migrated');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'SIGTERM to the wrapper alone reaches the server, which stops cleanly; the wrapper exits 0',
    async () => {
      const run = await startWrapper(tempDir());
      run.wrapper.kill('SIGTERM');
      expect(await within(run.wrapperExit, END_TIMEOUT_MS, 'the wrapper did not exit'), run.output()).toBe(0);
      await within(run.allEnded, END_TIMEOUT_MS, 'the server did not end');
      expect(await portAccepts(run.port)).toBe(false);
      expect(fs.existsSync(`${run.dbFile}-wal`)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );

  // Ctrl+C in a terminal (SIGINT), or closing the terminal (SIGHUP), signals the whole foreground process group:
  // wrapper and server at once. The wrapper passing it on must not count as the "second Ctrl+C" that forces the
  // server out before it has closed the database.
  it.skipIf(process.platform === 'win32').each(['SIGINT', 'SIGHUP'] as const)(
    '%s to the whole process group stops the server once, cleanly; the wrapper exits 0',
    async (signal) => {
      const run = await startWrapper(tempDir());
      process.kill(-run.wrapper.pid!, signal);
      expect(await within(run.wrapperExit, END_TIMEOUT_MS, 'the wrapper did not exit'), run.output()).toBe(0);
      await within(run.allEnded, END_TIMEOUT_MS, 'the server did not end');
      expect(await portAccepts(run.port)).toBe(false);
      expect(fs.existsSync(`${run.dbFile}-wal`)).toBe(false);
    },
    TEST_TIMEOUT_MS,
  );
});
