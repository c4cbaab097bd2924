import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
// electron-builder's own loader and schema validator (app-builder-lib ships with electron-builder), so a misspelt
// option fails here instead of being ignored at packaging time.
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import type { Configuration } from 'app-builder-lib';
import { minimatch } from 'minimatch';
import { beforeAll, describe, expect, it } from 'vitest';
import { requiredModelFiles } from '../../electron/core/embedding/onnx.embedder';
import { useTempDirs } from '../support/temp-dir';
import { TOOL_TEST_TIMEOUT_MS } from '../support/timeouts';

const ROOT = path.resolve(import.meta.dirname, '../..');

// electron-builder's own loader and its schema validator (a large JSON schema compiled on first use) are slow to start.
describe('electron-builder.yml', { timeout: TOOL_TEST_TIMEOUT_MS }, () => {
  let config: Configuration;
  beforeAll(async () => {
    config = await getConfig(ROOT, 'electron-builder.yml', null);
  }, TOOL_TEST_TIMEOUT_MS);

  it('is valid for the installed electron-builder', async () => {
    // The validator normalizes what it checks in place; the other tests read the file as written.
    await expect(validateConfiguration(structuredClone(config), { isEnabled: false, add() {} } as unknown as Parameters<typeof validateConfiguration>[1])).resolves.toBeUndefined();
  });

  it('flips the security fuses of the packaged binary, keeping RunAsNode for the shipped mnemo command', () => {
    expect(config.electronFuses).toMatchObject({
      // scripts/desktop-shims run the app's binary with ELECTRON_RUN_AS_NODE=1: off, `mnemo` would start the app.
      runAsNode: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('builds AppImage and deb, dmg for x64 and arm64, and nsis, under one app id', () => {
    expect(config.appId).toBe('app.mnemo.desktop');
    expect(config.productName).toBe('Mnemo');
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual([{ target: 'dmg', arch: ['x64', 'arm64'] }]);
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.fileAssociations).toBeUndefined();
    expect(config.publish).toBeNull();
  });

  it('packages the staged app (built code, migrations) and never rebuilds native modules itself', () => {
    expect(config.directories).toMatchObject({ app: 'release/app', output: 'release', buildResources: 'build' });
    // electron-builder's loader turns a plain list into [{ filter: [...] }].
    const files = (config.files as Array<string | { filter?: string[] }>).flatMap((f) => (typeof f === 'string' ? [f] : (f.filter ?? [])));
    expect(files).toEqual(expect.arrayContaining(['out/**', 'drizzle/**', 'package.json']));
    expect(config.npmRebuild).toBe(false);
    expect(config.nodeGypRebuild).toBe(false);
    expect(config.asar).toBe(true);
  });

  it('ships the optional bundled model as <resources>/models and the mnemo command as <resources>/bin', () => {
    expect(config.extraResources).toEqual([
      { from: 'build/resources/models', to: 'models', filter: ['**/*'] },
      { from: 'scripts/desktop-shims', to: 'bin', filter: ['mnemo', 'mnemo.cmd'] },
    ]);
    // The shims exist, the POSIX one is executable, and each runs the CLI bundle that out/** packs into app.asar.
    const shims = path.join(ROOT, 'scripts', 'desktop-shims');
    expect(fs.statSync(path.join(shims, 'mnemo')).mode & 0o111).not.toBe(0);
    expect(fs.readFileSync(path.join(shims, 'mnemo'), 'utf8')).toContain('ELECTRON_RUN_AS_NODE=1 exec "$app" "$resources/app.asar/out/cli/main.js" "$@"');
    expect(fs.readFileSync(path.join(shims, 'mnemo.cmd'), 'utf8')).toContain('"%~dp0..\\app.asar\\out\\cli\\main.js" %*');
    expect(fs.readFileSync(path.join(ROOT, 'scripts', 'dist.mjs'), 'utf8')).toMatch(/await buildCli\(root\)/);
  });

  it('unpacks every native file from app.asar, and nothing else it names', () => {
    const patterns = config.asarUnpack as string[];
    const unpacked = (file: string) => patterns.some((p) => minimatch(file, p, { dot: true }));
    for (const file of [
      'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      'node_modules/sqlite-vec-linux-x64/vec0.so',
      'node_modules/sqlite-vec-linux-arm64/vec0.so',
      'node_modules/sqlite-vec-darwin-arm64/vec0.dylib',
      'node_modules/sqlite-vec-windows-x64/vec0.dll',
      'node_modules/onnxruntime-node/bin/napi-v6/linux/x64/onnxruntime_binding.node',
      'node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1',
      'node_modules/onnxruntime-node/bin/napi-v6/darwin/arm64/libonnxruntime.1.dylib',
      'node_modules/onnxruntime-node/bin/napi-v6/win32/x64/onnxruntime.dll',
    ]) {
      expect(unpacked(file), file).toBe(true);
    }
    for (const file of ['out/main/index.js', 'node_modules/zod/index.js', 'drizzle/0000_initial.sql']) expect(unpacked(file), file).toBe(false);
  });

  it('has an icon electron-builder can turn into every platform format (a square PNG of at least 512 px)', () => {
    const png = fs.readFileSync(path.join(ROOT, 'build', 'icon.png'));
    expect(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
    const width = png.readUInt32BE(16);
    expect(width).toBeGreaterThanOrEqual(512);
    expect(png.readUInt32BE(20)).toBe(width);
  });
});

// Each test runs the script in a new node process.
describe('scripts/bundle-model.mjs', { timeout: TOOL_TEST_TIMEOUT_MS }, () => {
  const tempDir = useTempDirs();
  const script = path.join(ROOT, 'scripts', 'bundle-model.mjs');
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) => {
    const { MNEMO_MODELS_DIR: _ignored, ...rest } = process.env;
    return spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', env: { ...rest, ...env } });
  };

  function fakeModel(dir: string, extra: string[] = []): void {
    for (const file of [...requiredModelFiles('q8'), 'onnx/model.onnx', 'onnx/model_fp16.onnx', 'special_tokens_map.json', 'LICENSE', ...extra]) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), file);
    }
  }
  const listFiles = (dir: string): string[] =>
    fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/')).sort();

  it('copies the files the embedder reads (the core’s own list), the licence and metadata, not the other weights', () => {
    const models = tempDir();
    const out = tempDir();
    fakeModel(path.join(models, 'Xenova', 'multilingual-e5-small'));
    const r = run(['--out', out], { MNEMO_MODELS_DIR: models });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Bundled Xenova\/multilingual-e5-small \(q8, [\d.]+ MB\) into .+; npm run dist will ship it\.\n$/);
    expect(listFiles(path.join(out, 'Xenova', 'multilingual-e5-small'))).toEqual([...requiredModelFiles('q8'), 'LICENSE', 'special_tokens_map.json'].sort());
  });

  it('accepts the model folder itself and another dtype, and replaces an older copy', () => {
    const modelDir = tempDir();
    const out = tempDir();
    fakeModel(modelDir);
    fs.mkdirSync(path.join(out, 'o', 'm'), { recursive: true });
    fs.writeFileSync(path.join(out, 'o', 'm', 'stale.bin'), 'old');
    const r = run([modelDir, '--model', 'o/m', '--dtype', 'fp32', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(listFiles(path.join(out, 'o', 'm'))).toEqual([...requiredModelFiles('fp32'), 'LICENSE', 'special_tokens_map.json'].sort());
  });

  it('refuses an incomplete model, naming what is missing, and copies nothing', () => {
    const modelDir = tempDir();
    const out = tempDir();
    fakeModel(modelDir);
    fs.rmSync(path.join(modelDir, 'tokenizer_config.json'));
    const r = run([modelDir, '--out', out]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/missing tokenizer_config\.json/);
    expect(fs.readdirSync(out)).toEqual([]);
  });

  it('says how to use it when told nothing', () => {
    const r = run([]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/MNEMO_MODELS_DIR/);
  });
});
