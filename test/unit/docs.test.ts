/**
 * The docs stay short and true: README and docs/ARCHITECTURE.md within their word limits (issue 27: a README is what
 * Mnemo is, the quick start and links; the map is a map), every path the map names exists, and docs/CLI.md is what
 * the command registry writes today.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commands } from '../../electron/cli/commands';
import { CLI_REFERENCE_PATH, cliReference } from '../../electron/cli/cli-reference';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
/** Words as `wc -w` counts them: runs of non-space. */
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** Every file and folder of the source tree, as paths from the root with "/" ("electron/core/create-core.ts"). */
function repoPaths(): string[] {
  const skip = new Set(['node_modules', '.git', 'out', 'release', 'dist', 'build']);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      found.push(entry.isDirectory() ? `${rel}/` : rel);
      if (entry.isDirectory()) walk(rel);
    }
  };
  walk('');
  return found;
}

/**
 * The paths a doc names in code spans: with a folder ("chat/summary.job.ts", "electron/cli/") or a file name with a
 * source extension ("create-core.ts"). Placeholders, globs, URLs and routes are not paths.
 */
function namedPaths(markdown: string): string[] {
  const spans = [...markdown.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!.trim());
  return [...new Set(spans.filter((s) => !/[\s<>*{}:@]|^\/|^\.\.?\//.test(s) && (/\//.test(s) ? /^[\w.-]+(\/[\w.-]+)*\/?$/.test(s) : /\.(tsx?|mjs|js|json|md|sql|css)$/.test(s))))];
}

describe('docs', () => {
  it('README.md is at most 2,500 words and docs/ARCHITECTURE.md at most 3,000', () => {
    expect(words(read('README.md'))).toBeLessThanOrEqual(2500);
    expect(words(read('docs/ARCHITECTURE.md'))).toBeLessThanOrEqual(3000);
  });

  it('every path docs/ARCHITECTURE.md names exists (from the root, or under the folder the map is describing)', () => {
    const all = repoPaths();
    const named = namedPaths(read('docs/ARCHITECTURE.md'));
    expect(named.length).toBeGreaterThan(30);
    // "chat/summary.job.ts" under electron/core/, "status/StatusBar.tsx" under renderer/src/: a suffix of a real path.
    const missing = named.filter((p) => !all.some((real) => real === p || real.endsWith(`/${p}`)));
    expect(missing).toEqual([]);
  });

  it('finds the paths a doc names, and only those', () => {
    expect(namedPaths('`chat/x.ts`, `create-core.ts`, `electron/cli/`, `<data>/logs`, `POST /rpc/<op>`, `app://mnemo`, `cli/commands/*.commands.ts`, `npm test`, `a/b c`'))
      .toEqual(['chat/x.ts', 'create-core.ts', 'electron/cli/']);
  });

  it('README keeps the MCP section that Settings › Connected apps and "mnemo mcp clients" point users to', () => {
    const heading = "## Use Mnemo's memory in other AI apps (MCP)";
    expect(read('README.md').split('\n')).toContain(heading);
    // The pointers name it by its title; a renamed section must change them too.
    const en = JSON.parse(read('renderer/src/locales/en.json')) as Record<string, string>;
    expect(en['apps.empty']).toContain(heading.slice(3));
    expect(read('electron/cli/commands/mcp.commands.ts')).toContain('README: "Use Mnemo’s memory in other AI apps"');
  });

  it(`${CLI_REFERENCE_PATH} is what the command registry writes (else run "npm run docs:cli")`, () => {
    const committed = read(CLI_REFERENCE_PATH);
    expect(committed === cliReference(commands), `${CLI_REFERENCE_PATH} differs from the command registry: run "npm run docs:cli" and commit it`).toBe(true);
  });
});
