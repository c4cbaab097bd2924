import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../ports/paths.port';

export function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.join(repoRoot(), 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
