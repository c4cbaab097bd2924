/**
 * Where things live. The composition root derives every path from the data folder unless a host overrides one
 * (the packaged Electron app points migrationsDir and vec extension into its resources).
 */
import os from 'node:os';
import path from 'node:path';
import { sourceMigrationsDir } from '../db/open-database';

export interface Paths {
  dataDir: string;
  dbFile: string;
  backupsDir: string;
  modelsDir: string;
  /** Log files of the hosts that keep their terminal for people (web). */
  logsDir: string;
  migrationsDir: string;
  vecExtensionPath?: string;
}

export function derivePaths(dataDir: string, overrides: Partial<Paths> = {}, env: NodeJS.ProcessEnv = process.env): Paths {
  const dir = path.resolve(dataDir);
  return {
    dataDir: dir,
    dbFile: path.join(dir, 'mnemo.db'),
    backupsDir: path.join(dir, 'backups'),
    logsDir: path.join(dir, 'logs'),
    modelsDir: env.MNEMO_MODELS_DIR ? path.resolve(env.MNEMO_MODELS_DIR) : path.join(dir, 'models'),
    migrationsDir: sourceMigrationsDir(),
    ...overrides,
  };
}

/**
 * The data folder for the CLI and the web host: --data-dir, else MNEMO_DATA_DIR, else the platform's usual place
 * (XDG_DATA_HOME/mnemo on Linux). The Electron host uses app.getPath('userData') as its fallback instead.
 */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  return dataDirInUse(flag, env, platform).dir;
}

/** The folder resolveDataDir picks and which of its three sources gave it, for the user to see (`mnemo info`). */
export function dataDirInUse(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
): { dir: string; source: 'option' | 'environment' | 'default' } {
  if (flag) return { dir: path.resolve(flag), source: 'option' };
  if (env.MNEMO_DATA_DIR) return { dir: path.resolve(env.MNEMO_DATA_DIR), source: 'environment' };
  const home = os.homedir();
  if (platform === 'darwin') return { dir: path.join(home, 'Library', 'Application Support', 'Mnemo'), source: 'default' };
  if (platform === 'win32') return { dir: path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Mnemo'), source: 'default' };
  return { dir: path.join(env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'mnemo'), source: 'default' };
}
