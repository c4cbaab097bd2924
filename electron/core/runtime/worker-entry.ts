/**
 * How the core starts one of its worker threads (the embedder's, the database copier's): the one rule for finding a
 * worker's code from source and from a build.
 *
 * From source (tsx, vitest) a worker is TypeScript that imports TypeScript: it is loaded through tsx's tsImport,
 * which registers its loader for that import graph (Node 20 does not apply `--import` loaders given in a worker's
 * execArgv). From a build, `<name>.js` that electron.vite.config.ts emits beside the bundle.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** How to start a worker: a built script, or (from TypeScript source) a bootstrap that loads the source with tsx. */
export interface WorkerEntry {
  script: URL | string;
  /** `script` is code to evaluate rather than a file. */
  eval: boolean;
}

/** The worker `<name>` beside the calling module (pass its import.meta.url); null when a build does not have it. */
export function workerEntry(callerUrl: string, name: string): WorkerEntry | null {
  if (callerUrl.endsWith('.ts')) {
    const tsxApi = pathToFileURL(path.join(path.dirname(createRequire(callerUrl).resolve('tsx/package.json')), 'dist', 'esm', 'api', 'index.mjs')).href;
    const source = new URL(`./${name}.ts`, callerUrl).href;
    return { script: `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(source)}, ${JSON.stringify(callerUrl)}));`, eval: true };
  }
  const built = new URL(`./${name}.js`, callerUrl);
  return fs.existsSync(fileURLToPath(built)) ? { script: built, eval: false } : null;
}
