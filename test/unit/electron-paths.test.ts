import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { derivePaths } from '../../electron/core/ports/paths.port';
import { dataDirFlag, desktopCorePaths, desktopDataDir } from '../../electron/main/desktop-paths';

const noUserData = () => {
  throw new Error('userData must not be consulted when a data folder was given');
};

describe('desktop data folder', () => {
  it('reads --data-dir DIR and --data-dir=DIR; a flag without a value is no flag', () => {
    expect(dataDirFlag(['/opt/Mnemo/mnemo', '--data-dir', '/x'])).toBe('/x');
    expect(dataDirFlag(['electron', '.', '--data-dir=/y'])).toBe('/y');
    expect(dataDirFlag(['electron', '.', '--data-dir'])).toBeUndefined();
    expect(dataDirFlag(['electron', '.', '--data-dir', '--inspect'])).toBeUndefined();
    expect(dataDirFlag(['electron', '.', '--data-dir='])).toBeUndefined();
    expect(dataDirFlag(['electron', '.'])).toBeUndefined();
  });

  it('--data-dir wins over MNEMO_DATA_DIR, which wins over userData', () => {
    expect(desktopDataDir(['e', '--data-dir', '/flag'], { MNEMO_DATA_DIR: '/env' }, noUserData)).toEqual({ dataDir: path.resolve('/flag'), chosenBy: 'flag' });
    expect(desktopDataDir(['e'], { MNEMO_DATA_DIR: '/env' }, noUserData)).toEqual({ dataDir: path.resolve('/env'), chosenBy: 'env' });
    expect(desktopDataDir(['e'], {}, () => '/home/u/.config/Mnemo')).toEqual({ dataDir: '/home/u/.config/Mnemo', chosenBy: 'userData' });
    expect(desktopDataDir(['e'], { MNEMO_DATA_DIR: '' }, () => '/ud').chosenBy).toBe('userData');
  });

  it('resolves a relative folder against the working directory', () => {
    expect(desktopDataDir(['e', '--data-dir', 'rel/dir'], {}, noUserData).dataDir).toBe(path.resolve('rel/dir'));
  });
});

describe('core paths in the desktop app', () => {
  const base = { appPath: '/opt/Mnemo/resources/app.asar', resourcesPath: '/opt/Mnemo/resources', env: {}, hasBundledModels: false, vecLoadablePath: null };

  it('reads migrations from the app itself and sqlite-vec from app.asar.unpacked', () => {
    const p = desktopCorePaths({ ...base, vecLoadablePath: '/opt/Mnemo/resources/app.asar/node_modules/sqlite-vec-linux-x64/vec0.so' });
    expect(p.migrationsDir).toBe(path.join('/opt/Mnemo/resources/app.asar', 'drizzle'));
    expect(p.vecExtensionPath).toBe('/opt/Mnemo/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so');
  });

  it('finds models in MNEMO_MODELS_DIR, else the bundled folder, else the data folder', () => {
    expect(desktopCorePaths({ ...base, hasBundledModels: true, env: { MNEMO_MODELS_DIR: '/my/models' } }).modelsDir).toBe(path.resolve('/my/models'));
    expect(desktopCorePaths({ ...base, hasBundledModels: true }).modelsDir).toBe(path.join('/opt/Mnemo/resources', 'models'));
    const none = desktopCorePaths(base);
    // No key at all (not `undefined`), so the core's own default applies.
    expect(Object.keys(none)).not.toContain('modelsDir');
    expect(Object.keys(none)).not.toContain('vecExtensionPath');
    expect(derivePaths('/data', none, {}).modelsDir).toBe(path.join(path.resolve('/data'), 'models'));
  });
});
