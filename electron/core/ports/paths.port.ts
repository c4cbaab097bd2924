/**
 * Where things live. The composition root derives every path from the data folder unless a host overrides one
 * (the packaged Electron app points migrationsDir and vec extension into its resources).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Paths {
  dataDir: string;
  dbFile: string;
  backupsDir: string;
  modelsDir: string;
  /** Log files of the hosts that keep their terminal for people (web). */
  logsDir: string;
  migrationsDir: string;
  /** Where the chatting process tells others on this data folder that the chat needs the model (llm/model-lane.ts). */
  laneFile: string;
  vecExtensionPath?: string;
}

/**
 * The repository (or unpacked app) root: the nearest folder above this module that holds package.json. From source
 * that is three levels above electron/core/ports/; a bundle (out/<name>/) sits two levels below it.
 */
export function repoRoot(): string {
  let dir = path.dirname(new URL(import.meta.url).pathname);
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

/** The default location of drizzle/ when running from the source tree (tests, CLI, web host). */
export function sourceMigrationsDir(): string {
  return path.join(repoRoot(), 'drizzle');
}

export function derivePaths(dataDir: string, overrides: Partial<Paths> = {}, env: NodeJS.ProcessEnv = process.env): Paths {
  const dir = path.resolve(dataDir);
  return {
    dataDir: dir,
    dbFile: path.join(dir, 'mnemo.db'),
    backupsDir: path.join(dir, 'backups'),
    logsDir: path.join(dir, 'logs'),
    laneFile: path.join(dir, 'model-lane.json'),
    modelsDir: env.MNEMO_MODELS_DIR ? path.resolve(env.MNEMO_MODELS_DIR) : path.join(dir, 'models'),
    migrationsDir: sourceMigrationsDir(),
    ...overrides,
  };
}

/**
 * The data folder for the CLI and the web host: --data-dir, else MNEMO_DATA_DIR, else the platform's usual place,
 * the desktop app's own (Electron's userData: $XDG_CONFIG_HOME/Mnemo on Linux), so the app, `mnemo` and the web host
 * share one folder. The Electron host asks Electron for that folder instead (electron/main/desktop-paths.ts).
 */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  return dataDirInUse(flag, env, platform).dir;
}

export type DataDirSource = 'option' | 'environment' | 'default' | 'earlier default';

/**
 * The folder resolveDataDir picks and which source gave it, for the user to see (`mnemo info`).
 * 'earlier default': on Linux the CLI and web host used $XDG_DATA_HOME/mnemo before they followed the desktop app; a
 * database there, with none in the desktop folder, is still used, so nobody's memories seem to vanish on an update.
 */
export function dataDirInUse(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
  platform = process.platform,
  exists: (file: string) => boolean = fs.existsSync,
): { dir: string; source: DataDirSource } {
  if (flag) return { dir: path.resolve(flag), source: 'option' };
  if (env.MNEMO_DATA_DIR) return { dir: path.resolve(env.MNEMO_DATA_DIR), source: 'environment' };
  const home = os.homedir();
  if (platform === 'darwin') return { dir: path.join(home, 'Library', 'Application Support', 'Mnemo'), source: 'default' };
  if (platform === 'win32') return { dir: path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Mnemo'), source: 'default' };
  const desktop = path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Mnemo');
  const earlier = path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'mnemo');
  if (!exists(path.join(desktop, 'mnemo.db')) && exists(path.join(earlier, 'mnemo.db'))) return { dir: earlier, source: 'earlier default' };
  return { dir: desktop, source: 'default' };
}
