import { spawn } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { run } from '../../electron/cli/run';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The terminal host in this test's process: run.ts, the code path main.ts hands the real process to, with stdout and
 * stderr kept (neither a terminal), `stdin` (or an empty one), the test's environment plus `env`, and `cwd` (default
 * the repository, as runCli). No process to start: the choice for every test but those of the process itself (exit
 * on a signal, kill -9, the installed command, `mnemo mcp`), which use runCli or runMnemo.
 */
export async function runCliInProcess(args: string[], env: Record<string, string> = {}, options: { stdin?: string; cwd?: string } = {}): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await run(args, {
    stdout: { isTTY: false, write: (text: string) => (stdout += text) },
    stderr: { isTTY: false, write: (text: string) => (stderr += text) },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    env: { ...process.env, ...env },
    cwd: options.cwd ?? ROOT,
    onInterrupt: () => () => {},
  });
  return { code, stdout, stderr };
}

/**
 * The terminal host from its TypeScript source (tsx electron/cli/main.ts) as a child process. Asynchronous, unlike
 * spawnSync: the fakes the test runs in this process (Ollama, the model hub) must keep answering while the CLI waits.
 */
export function runCli(args: string[], env: Record<string, string> = {}, options: { stdin?: string } = {}): Promise<CliRun> {
  return runNode(['--import', 'tsx', path.join(ROOT, 'electron/cli/main.ts'), ...args], env, options);
}

/** The `mnemo` command as installed (package.json "bin": the launcher, which runs the prebuilt bundle out/cli/main.js). */
export function runMnemo(args: string[], env: Record<string, string> = {}, options: { stdin?: string } = {}): Promise<CliRun> {
  return runNode([path.join(ROOT, 'scripts', 'mnemo.mjs'), ...args], env, options);
}

function runNode(args: string[], env: Record<string, string>, options: { stdin?: string }): Promise<CliRun> {
  return runProcess(process.execPath, args, { ...process.env, ...env }, { ...options, cwd: ROOT });
}

/** Any command as a child process with exactly this environment: stdin given (or closed), stdout and stderr kept. */
export function runProcess(command: string, args: string[], env: NodeJS.ProcessEnv, options: { stdin?: string; cwd?: string } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env });
    child.stdin.end(options.stdin ?? '');
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
