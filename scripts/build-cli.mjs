#!/usr/bin/env node
// `npm run build:cli`: the terminal host (electron/cli/main.ts) bundled ahead of time into out/cli/main.js, with the
// core's worker threads beside it (electron/core/runtime/worker-entry.ts finds them there), so `mnemo` starts without tsx
// compiling TypeScript on every run and without Node resolving hundreds of ESM files (zod alone is dozens).
// Native and heavy packages stay external and load from node_modules: better-sqlite3 and sqlite-vec (native), and
// @huggingface/transformers (with onnxruntime), which the core imports lazily, only when the embedding model runs.
// Files are written to a temporary name and renamed, so a process starting meanwhile never sees half a bundle.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const defaultRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const EXTERNAL = ['better-sqlite3', 'sqlite-vec', '@huggingface/transformers', 'onnxruntime-node', 'onnxruntime-common'];

/** Entry points: the CLI, and the worker threads the core starts by name beside its module. */
export const ENTRIES = {
  main: 'electron/cli/main.ts',
  'onnx-embedder.worker': 'electron/core/embedding/onnx-embedder.worker.ts',
  'database-copy.worker': 'electron/core/db/database-copy.worker.ts',
  'backup-scrub.worker': 'electron/core/backup/backup-scrub.worker.ts',
};

/** What the bundle is built from: when any of it is newer than out/cli/main.js, the bundle is stale. */
export const SOURCES = ['electron/cli', 'electron/core', 'shared', 'package.json', 'scripts/build-cli.mjs'];

export function bundleFile(root = defaultRoot) {
  return path.join(root, 'out', 'cli', 'main.js');
}

export async function buildCli(root = defaultRoot) {
  const { build } = await import('esbuild');
  const outdir = path.join(root, 'out', 'cli');
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    // Bundled CommonJS packages call require(); an ES module has none of its own.
    banner: { js: "import { createRequire as __mnemoCreateRequire } from 'node:module'; const require = __mnemoCreateRequire(import.meta.url);" },
    legalComments: 'none',
    logLevel: 'error',
    write: false,
  });
  fs.mkdirSync(outdir, { recursive: true });
  // The workers first, main last: main's mtime is what says the bundle is complete and fresh.
  const files = [...result.outputFiles].sort((a, b) => Number(a.path.endsWith(`${path.sep}main.js`)) - Number(b.path.endsWith(`${path.sep}main.js`)));
  for (const file of files) {
    const temp = `${file.path}.${process.pid}.tmp`;
    fs.writeFileSync(temp, file.contents);
    fs.renameSync(temp, file.path);
  }
  return bundleFile(root);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = await buildCli();
  console.log(`built ${path.relative(process.cwd(), file)}`);
}
