/**
 * Files the user names on the command line (an import to read, an export to write, a profile to load): read and
 * written whole as UTF-8, here in the host, since the core only sees text. A failure says which file and why.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CliOutput } from './cli-command';

type Failure = Extract<CliOutput, { ok: false }>;

const reason = (e: unknown) => (e as { code?: string }).code ?? (e as Error).message;

/** `name` as typed: relative to `cwd`, the folder the command was run in. */
export function readUserFile(cwd: string, name: string): { ok: true; file: string; content: string } | Failure {
  const file = path.resolve(cwd, name);
  try {
    return { ok: true, file, content: fs.readFileSync(file, 'utf8') };
  } catch (e) {
    return { ok: false, error: { code: 'NOT_FOUND', message: `Cannot read ${file} (${reason(e)}).` } };
  }
}

export function writeUserFile(cwd: string, name: string, content: string): { ok: true; file: string } | Failure {
  const file = path.resolve(cwd, name);
  try {
    fs.writeFileSync(file, content, 'utf8');
    return { ok: true, file };
  } catch (e) {
    return { ok: false, error: { code: 'INVALID_INPUT', message: `Cannot write ${file} (${reason(e)}).` } };
  }
}
