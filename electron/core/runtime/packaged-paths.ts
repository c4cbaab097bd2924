/**
 * Where things are inside an installed desktop package (electron-builder: <resources>/app.asar, its native files in
 * <resources>/app.asar.unpacked, extra resources such as the bundled embedding model beside them). One rule for each
 * host that runs from there: the Electron main process, and the `mnemo` command the package ships
 * (scripts/desktop-shims), which runs the CLI bundle <resources>/app.asar/out/cli/main.js with the app's runtime as
 * plain Node (ELECTRON_RUN_AS_NODE=1). The path rules are pure string rules over both separators, so they are tested
 * on any platform.
 */
import fs from 'node:fs';
import path from 'node:path';

const ASAR_SEGMENT = /([\\/])app\.asar(?=[\\/])/;

/**
 * The real location of a file electron-builder unpacked from app.asar. Node's require is redirected there by
 * Electron, but SQLite's loadExtension and the dynamic linker are not, so they need this path.
 * Only the first whole "app.asar" path segment is rewritten, and a path already in app.asar.unpacked is left alone.
 */
export function toUnpackedPath(file: string): string {
  if (/[\\/]app\.asar\.unpacked(?=[\\/]|$)/.test(file)) return file;
  return file.replace(ASAR_SEGMENT, '$1app.asar.unpacked');
}

/** The resources folder of the package `file` lies in (the folder holding app.asar), or null outside a package. */
export function packagedResourcesDir(file: string): string | null {
  const match = ASAR_SEGMENT.exec(file);
  return match ? file.slice(0, match.index) : null;
}

/**
 * The models folder a packaged host uses: MNEMO_MODELS_DIR, else the bundled model in <resources>/models
 * (scripts/bundle-model.mjs) when it holds one, else none (the core's default, <data folder>/models).
 */
export function packagedModelsDir(env: NodeJS.ProcessEnv, resourcesPath: string, hasBundledModels: boolean): string | undefined {
  if (env.MNEMO_MODELS_DIR) return path.resolve(env.MNEMO_MODELS_DIR);
  if (hasBundledModels) return path.join(resourcesPath, 'models');
  return undefined;
}

/** Whether <resources>/models holds a bundled embedding model (an empty or missing folder does not count). */
export function hasBundledModels(resourcesPath: string): boolean {
  const dir = path.join(resourcesPath, 'models');
  return fs.existsSync(dir) && fs.readdirSync(dir).length > 0;
}
