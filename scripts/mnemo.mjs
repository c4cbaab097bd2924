#!/usr/bin/env node
// The `mnemo` command (package.json "bin"; `npm run cli` runs it too): runs the terminal host's bundle, out/cli/main.js.
// In the source tree the bundle is built first when it is missing or older than a file it is built from
// (scripts/build-cli.mjs SOURCES), so an edit never runs stale code; in an installed copy without sources it just runs.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'out', 'cli', 'main.js');
// Kept in step with SOURCES in scripts/build-cli.mjs, which is imported only when a build is needed (it loads esbuild).
const SOURCES = ['electron/cli', 'electron/core', 'shared', 'package.json', 'scripts/build-cli.mjs'];

function newestMtime(p) {
  let stat;
  try {
    stat = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

function stale() {
  let built;
  try {
    built = fs.statSync(bundle).mtimeMs;
  } catch {
    return true;
  }
  if (!fs.existsSync(path.join(root, 'electron', 'cli'))) return false;
  return SOURCES.some((s) => newestMtime(path.join(root, s)) > built);
}

if (stale()) {
  try {
    const { buildCli } = await import(pathToFileURL(path.join(root, 'scripts', 'build-cli.mjs')).href);
    await buildCli(root);
  } catch (e) {
    process.stderr.write(`mnemo: building the command (npm run build:cli) failed: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  }
}
await import(pathToFileURL(bundle).href);
