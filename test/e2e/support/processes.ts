/**
 * Starts Mnemo the way a user does (`npm run web`, `npm start`) as a child process and reads the URL it prints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../..');

export interface RunningApp {
  url: string;
  baseUrl: string;
  token: string;
  output: () => string;
  stop(): Promise<void>;
}

export function startMnemo(script: 'web' | 'start', args: string[], env: Record<string, string> = {}): Promise<RunningApp> {
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'scripts', `${script}.mjs`), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`Mnemo did not print its URL within 90 s. Output:\n${out}`)), 90_000);
    const fail = (e: Error) => {
      clearTimeout(timer);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
      reject(e);
    };
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /open (http:\/\/127\.0\.0\.1:\d+\/#token=([0-9a-f]+))/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          baseUrl: match[1]!.split('/#')[0]!,
          token: match[2]!,
          output: () => out,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              process.kill(-child.pid!, 'SIGTERM');
            }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`Mnemo exited with ${code} before printing its URL. Output:\n${out}`)));
  });
}
