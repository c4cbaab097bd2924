import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dataDirInUse, derivePaths, resolveDataDir } from '../../electron/core/ports/paths.port';

describe('resolveDataDir', () => {
  it('prefers --data-dir, then MNEMO_DATA_DIR, then the platform folder', () => {
    expect(resolveDataDir('/x/flag', { MNEMO_DATA_DIR: '/x/env' })).toBe('/x/flag');
    expect(resolveDataDir(undefined, { MNEMO_DATA_DIR: '/x/env' })).toBe('/x/env');
    expect(resolveDataDir(undefined, {}, 'darwin')).toMatch(/Library\/Application Support\/Mnemo$/);
  });

  it('says which source gave the folder (mnemo info)', () => {
    expect(dataDirInUse('/x/flag', { MNEMO_DATA_DIR: '/x/env' })).toEqual({ dir: '/x/flag', source: 'option' });
    expect(dataDirInUse(undefined, { MNEMO_DATA_DIR: '/x/env' })).toEqual({ dir: '/x/env', source: 'environment' });
  });

  it("on Linux: the desktop app's folder (Electron's userData), unless only the earlier default holds a database", () => {
    const env = { XDG_CONFIG_HOME: '/x/config', XDG_DATA_HOME: '/x/data' };
    const desktop = { dir: path.join('/x/config', 'Mnemo'), source: 'default' };
    const has = (...files: string[]) => (file: string) => files.includes(file);
    expect(dataDirInUse(undefined, env, 'linux', has())).toEqual(desktop);
    expect(dataDirInUse(undefined, env, 'linux', has('/x/data/mnemo/mnemo.db'))).toEqual({ dir: path.join('/x/data', 'mnemo'), source: 'earlier default' });
    expect(dataDirInUse(undefined, env, 'linux', has('/x/data/mnemo/mnemo.db', '/x/config/Mnemo/mnemo.db'))).toEqual(desktop);
    expect(dataDirInUse(undefined, {}, 'linux', has()).dir).toBe(path.join(os.homedir(), '.config', 'Mnemo'));
  });

  it('derives every file from the data folder, models from MNEMO_MODELS_DIR when set', () => {
    const p = derivePaths('/data', {}, { MNEMO_MODELS_DIR: '/models' });
    expect(p.dbFile).toBe(path.join('/data', 'mnemo.db'));
    expect(p.backupsDir).toBe(path.join('/data', 'backups'));
    expect(p.modelsDir).toBe('/models');
    expect(derivePaths('/data', {}, {}).modelsDir).toBe(path.join('/data', 'models'));
  });
});
