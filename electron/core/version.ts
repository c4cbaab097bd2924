import fs from 'node:fs';
import path from 'node:path';

/** The repository (or unpacked app) root: two levels above electron/core. */
export function repoRoot(): string {
  return path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
}

export function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
