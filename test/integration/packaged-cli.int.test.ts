/**
 * The `mnemo` command of an installed desktop package, as far as it runs without an Electron binary: an install
 * folder laid out as electron-builder lays it out (electron-builder.yml), with Node standing in for the app's binary
 * under ELECTRON_RUN_AS_NODE=1. It proves the shim's own path logic (followed through the symlink a user puts on
 * PATH) and the CLI bundle's, run from inside a folder named app.asar: sqlite-vec is loaded from app.asar.unpacked
 * (in the archive there is only a placeholder, as in a real package, whose loadExtension cannot read the archive),
 * and the package's bundled embedding model folder is the one used. What it cannot prove (Electron's own asar
 * reading, its ESM loader, worker threads in an archive) needs the packaged app: docs/GUIDE.md, "From the desktop app".
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runProcess as run } from '../support/run-cli';
import { useTempDirs } from '../support/temp-dir';

// Builds the bundle, then starts a few CLI processes, each opening a core: minutes on a loaded 2-core machine.
const TIMEOUT_MS = 300_000;
const VEC_PACKAGE = `sqlite-vec-${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;

/** <install>/mnemo (the app's binary), <install>/resources/{bin,app.asar,app.asar.unpacked,models}. */
function installLayout(install: string): { shim: string; resources: string } {
  const resources = path.join(install, 'resources');
  const asar = path.join(resources, 'app.asar');
  fs.mkdirSync(path.join(asar, 'out'), { recursive: true });
  fs.cpSync(path.join(ROOT, 'out', 'cli'), path.join(asar, 'out', 'cli'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(asar, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'drizzle'), path.join(asar, 'drizzle'));

  // node_modules: the packages as they are, except sqlite-vec's, whose native file is only a placeholder in the
  // archive and real in app.asar.unpacked (asarUnpack in electron-builder.yml).
  const modules = path.join(asar, 'node_modules');
  fs.mkdirSync(modules);
  for (const name of fs.readdirSync(path.join(ROOT, 'node_modules'))) {
    if (name === 'sqlite-vec' || name === VEC_PACKAGE || name.startsWith('.')) continue;
    fs.symlinkSync(path.join(ROOT, 'node_modules', name), path.join(modules, name));
  }
  fs.cpSync(path.join(ROOT, 'node_modules', 'sqlite-vec'), path.join(modules, 'sqlite-vec'), { recursive: true, dereference: true });
  fs.cpSync(path.join(ROOT, 'node_modules', VEC_PACKAGE), path.join(modules, VEC_PACKAGE), { recursive: true, dereference: true });
  fs.cpSync(path.join(ROOT, 'node_modules', VEC_PACKAGE), path.join(resources, 'app.asar.unpacked', 'node_modules', VEC_PACKAGE), { recursive: true, dereference: true });
  for (const file of fs.readdirSync(path.join(modules, VEC_PACKAGE)).filter((f) => f.startsWith('vec0.'))) fs.writeFileSync(path.join(modules, VEC_PACKAGE, file), '');

  // A bundled model folder (scripts/bundle-model.mjs): only its place matters here.
  fs.mkdirSync(path.join(resources, 'models', 'Xenova'), { recursive: true });

  fs.mkdirSync(path.join(resources, 'bin'));
  const shim = path.join(resources, 'bin', 'mnemo');
  fs.copyFileSync(path.join(ROOT, 'scripts', 'desktop-shims', 'mnemo'), shim);
  fs.chmodSync(shim, 0o755);
  // The app's binary: Node when ELECTRON_RUN_AS_NODE=1, as Electron with its RunAsNode fuse on; else it would open a window.
  const app = path.join(install, 'mnemo');
  fs.writeFileSync(app, `#!/bin/sh\n[ "$ELECTRON_RUN_AS_NODE" = 1 ] || { echo "would open the app" >&2; exit 64; }\nexec "${process.execPath}" "$@"\n`);
  fs.chmodSync(app, 0o755);
  return { shim, resources };
}

describe.skipIf(process.platform === 'win32')('the mnemo command of an installed package (Node standing in for Electron)', () => {
  const tempDir = useTempDirs();

  beforeAll(() => {
    const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-cli.mjs')], { cwd: ROOT, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
  }, TIMEOUT_MS);

  it('runs the bundle in app.asar through a symlink on PATH, with sqlite-vec from app.asar.unpacked and the bundled models', { timeout: TIMEOUT_MS }, async () => {
    const { shim, resources } = installLayout(path.join(tempDir(), 'Mnemo'));
    const onPath = path.join(tempDir(), 'mnemo');
    fs.symlinkSync(shim, onPath);
    const data = tempDir();
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.MNEMO_MODELS_DIR;
    delete env.MNEMO_DATA_DIR;
    delete env.ELECTRON_RUN_AS_NODE;

    const info = await run(onPath, ['info', '--json', '--data-dir', data], env);
    expect(info.code, info.stderr).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({
      dataDir: { path: data, source: 'option' },
      models: path.join(resources, 'models'),
      versions: { sqliteVec: expect.stringMatching(/^\d+\.\d+\.\d+/) },
    });

    const added = await run(onPath, ['memory', 'add', 'Prefers green tea', '--data-dir', data, '--json'], env);
    expect(added.code, added.stderr).toBe(0);
    const check = await run(onPath, ['db', 'check', '--json', '--data-dir', data], env);
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ integrity: 'ok' });

    // MNEMO_MODELS_DIR still wins over the bundled folder, as in the app.
    const own = path.join(data, 'my-models');
    const chosen = await run(onPath, ['info', '--json', '--data-dir', data], { ...env, MNEMO_MODELS_DIR: own });
    expect(JSON.parse(chosen.stdout).models).toBe(own);
  });
});
