/**
 * The path rules of an installed package, shared by the Electron main process and the `mnemo` command it ships
 * (which runs the CLI bundle from inside app.asar): POSIX and Windows paths alike, whatever this machine is.
 */
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasBundledModels, packagedModelsDir, packagedResourcesDir, toUnpackedPath } from '../../electron/core/runtime/packaged-paths';
import { useTempDirs } from '../support/temp-dir';

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

describe('the package a file lies in', () => {
  it('is the folder holding app.asar, for POSIX and Windows paths', () => {
    expect(packagedResourcesDir('/opt/Mnemo/resources/app.asar/out/cli/main.js')).toBe('/opt/Mnemo/resources');
    expect(packagedResourcesDir('/Applications/Mnemo.app/Contents/Resources/app.asar/out/cli/main.js')).toBe('/Applications/Mnemo.app/Contents/Resources');
    expect(packagedResourcesDir('C:\\Users\\ana\\AppData\\Local\\Programs\\Mnemo\\resources\\app.asar\\out\\cli\\main.js')).toBe(
      'C:\\Users\\ana\\AppData\\Local\\Programs\\Mnemo\\resources',
    );
  });

  it('is none outside a package: the source tree, an unpacked file, a look-alike name', () => {
    for (const p of ['/work/main/out/cli/main.js', '/r/app.asar.unpacked/x.so', '/r/myapp.asar/out/cli/main.js', '/r/app.asarx/main.js', 'C:\\src\\mnemo\\out\\cli\\main.js']) {
      expect(packagedResourcesDir(p), p).toBeNull();
    }
  });
});

describe('the models folder of a package', () => {
  const tempDir = useTempDirs();

  it('is MNEMO_MODELS_DIR, else the bundled folder when it holds a model, else none (the data folder’s)', () => {
    const resources = tempDir();
    expect(hasBundledModels(resources)).toBe(false);
    fs.mkdirSync(path.join(resources, 'models'));
    expect(hasBundledModels(resources)).toBe(false); // an empty folder is no model
    fs.mkdirSync(path.join(resources, 'models', 'Xenova'));
    expect(hasBundledModels(resources)).toBe(true);

    expect(packagedModelsDir({ MNEMO_MODELS_DIR: 'rel/models' }, resources, true)).toBe(path.resolve('rel/models'));
    expect(packagedModelsDir({}, resources, true)).toBe(path.join(resources, 'models'));
    expect(packagedModelsDir({ MNEMO_MODELS_DIR: '' }, resources, false)).toBeUndefined();
  });
});
