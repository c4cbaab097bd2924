/**
 * Where the desktop app keeps and finds things. Pure: the Electron-specific inputs (argv, userData, the app and
 * resources folders, whether a bundled model exists) are passed in.
 */
import path from 'node:path';
import { packagedModelsDir, toUnpackedPath } from '../core/runtime/packaged-paths';
import type { Paths } from '../core/ports/paths.port';

/** The value of --data-dir DIR or --data-dir=DIR; a flag without a value counts as absent. */
export function dataDirFlag(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--data-dir') {
      const value = argv[i + 1];
      return value && !value.startsWith('--') ? value : undefined;
    }
    if (arg.startsWith('--data-dir=')) return arg.slice('--data-dir='.length) || undefined;
  }
  return undefined;
}

/** --data-dir wins over MNEMO_DATA_DIR, which wins over Electron's userData folder. */
export function desktopDataDir(argv: readonly string[], env: NodeJS.ProcessEnv, userData: () => string): { dataDir: string; chosenBy: 'flag' | 'env' | 'userData' } {
  const flag = dataDirFlag(argv);
  if (flag) return { dataDir: path.resolve(flag), chosenBy: 'flag' };
  if (env.MNEMO_DATA_DIR) return { dataDir: path.resolve(env.MNEMO_DATA_DIR), chosenBy: 'env' };
  return { dataDir: userData(), chosenBy: 'userData' };
}

export interface DesktopPathsInput {
  /** app.getAppPath(): the project folder in development, resources/app.asar when packaged. */
  appPath: string;
  /** process.resourcesPath: where electron-builder's extraResources land. */
  resourcesPath: string;
  env: NodeJS.ProcessEnv;
  /** Whether resourcesPath/models holds a bundled embedding model (scripts/bundle-model.mjs). */
  hasBundledModels: boolean;
  /** sqlite-vec's getLoadablePath() as resolved in this process. */
  vecLoadablePath: string | null;
}

/**
 * The core's path overrides in the desktop app: migrations from the app itself, sqlite-vec from app.asar.unpacked,
 * models from MNEMO_MODELS_DIR, else the bundled folder, else (no override) <data folder>/models.
 */
export function desktopCorePaths(input: DesktopPathsInput): Partial<Paths> {
  const overrides: Partial<Paths> = { migrationsDir: path.join(input.appPath, 'drizzle') };
  const modelsDir = packagedModelsDir(input.env, input.resourcesPath, input.hasBundledModels);
  if (modelsDir) overrides.modelsDir = modelsDir;
  if (input.vecLoadablePath) overrides.vecExtensionPath = toUnpackedPath(input.vecLoadablePath);
  return overrides;
}
