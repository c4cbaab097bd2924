import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { derivePaths } from '../../electron/core/ports/paths.port';
import { dataDirFlag, desktopCorePaths, desktopDataDir, toUnpackedPath } from '../../electron/main/desktop-paths';

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

describe('app.asar.unpacked', () => {
  it('rewrites the app.asar segment of POSIX and Windows paths', () => {
    expect(toUnpackedPath('/opt/Mnemo/resources/app.asar/node_modules/sqlite-vec-linux-x64/vec0.so')).toBe(
      '/opt/Mnemo/resources/app.asar.unpacked/node_modules/sqlite-vec-linux-x64/vec0.so',
    );
    expect(toUnpackedPath('C:\\Program Files\\Mnemo\\resources\\app.asar\\node_modules\\sqlite-vec-windows-x64\\vec0.dll')).toBe(
      'C:\\Program Files\\Mnemo\\resources\\app.asar.unpacked\\node_modules\\sqlite-vec-windows-x64\\vec0.dll',
    );
  });

  it('leaves paths outside an archive, already unpacked, or merely containing the word alone', () => {
    for (const p of ['/work/main/node_modules/sqlite-vec-linux-x64/vec0.so', '/r/app.asar.unpacked/x.so', '/r/app.asar', '/r/myapp.asar/x.so', '/r/app.asarx/y']) {
      expect(toUnpackedPath(p), p).toBe(p);
    }
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('app.asar', 'app.asar.unpacked', 'node_modules', 'x', 'resources', ''), { maxLength: 6 }), fc.constantFrom('/', '\\'), (parts, sep) => {
        const p = sep + parts.join(sep);
        return toUnpackedPath(toUnpackedPath(p)) === toUnpackedPath(p);
      }),
    );
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
