#!/usr/bin/env node
// `npm run dist`: Mnemo's desktop packages for this platform and architecture (electron-builder.yml).
//
//   1. electron-vite build, then build-cli.mjs  -> out/ (out/cli: the `mnemo` command's bundle)
//   2. stage the app                            -> release/app: out/, drizzle/, a production package.json and the
//                                                  production node_modules copied from ./node_modules
//   3. rebuild better-sqlite3 for Electron's ABI in release/app only (@electron/rebuild), and prove by the module's
//      registration symbol that the staged copy is the Electron build and ./node_modules still the Node build
//   4. electron-builder --<platform> --<arch>   -> release/
//
// `node scripts/dist.mjs --stage` stops after step 3: `npx electron release/app` then runs the packaged layout
// without packaging (the Electron smoke tests use it). Steps 1-2 are local; step 3 needs Electron's headers (or a
// prebuilt better-sqlite3) and step 4 Electron's zip (unless node_modules/electron/dist is present) and
// electron-builder's packaging tools, all downloaded. When a download fails the script ends with one line that says
// so and exits 1.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Internal: step 3 runs in a child process of this same script (`--rebuild-native <json>`), so its output can be
// captured and classified, and no -e / --input-type flag leaks into the workers @electron/rebuild forks.
if (process.argv[2] === '--rebuild-native') {
  const { rebuild } = await import('@electron/rebuild');
  await rebuild(JSON.parse(process.argv[3]));
  process.exit(0);
}

const stageDir = path.join(root, 'release', 'app');
const stampFile = path.join(stageDir, '.mnemo-stage.json');
const stageOnly = process.argv.includes('--stage');
const platform = process.platform;
const arch = process.arch;

// Output of node-gyp, prebuild-install, @electron/get and electron-builder when a download fails.
const NETWORK_FAILURE = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH|getaddrinfo|socket hang up|fetch failed|HTTPError|status code 40[34]|response code 40[34]|unable to get local issuer|self[- ]signed certificate|tunneling socket|related to network connectivity/i;

function step(message) {
  console.log(message);
}

function fail(message) {
  console.error(message);
  process.exit(1);
}

function networkLine(what, output) {
  const reason = /(?:getaddrinfo )?(?:ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b[^\n]{0,80}|(?:status|response) code 40[34]|socket hang up|fetch failed|unable to get local issuer certificate|self[- ]signed certificate/i.exec(output);
  return (
    `npm run dist needs network access to download ${what}, and the download failed` +
    ` (${reason ? reason[0].trim() : 'no connection'}); nothing was packaged. Run it again with internet access.`
  );
}

/** Runs a command; streams its output unless `quiet`, and always returns it for diagnosis. */
function run(command, args, { quiet = false, env = process.env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (stream) => (chunk) => {
      output += chunk.toString();
      if (!quiet) stream.write(chunk);
    };
    child.stdout.on('data', collect(process.stdout));
    child.stderr.on('data', collect(process.stderr));
    child.on('error', (e) => resolve({ code: 1, output: `${output}\n${e.message}` }));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The NODE_MODULE_VERSION a native module was built for, read from its registration symbol. */
function moduleAbi(file) {
  const match = /node_register_module_v(\d+)/.exec(fs.readFileSync(file).toString('latin1'));
  return match ? Number(match[1]) : null;
}

// --- what we build against --------------------------------------------------------------------------------------

const electronPkg = path.join(root, 'node_modules', 'electron');
if (!fs.existsSync(path.join(electronPkg, 'package.json'))) fail('npm run dist: the electron package is missing; run npm install first.');
const electronVersion = readJson(path.join(electronPkg, 'package.json')).version;
const electronAbi = Number(fs.readFileSync(path.join(electronPkg, 'abi_version'), 'utf8').trim());
const nodeBinding = path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const stagedBinding = path.join(stageDir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

// --- 1. build ---------------------------------------------------------------------------------------------------

step('Building the app (electron-vite)…');
{
  const cli = path.join(root, 'node_modules', 'electron-vite', 'bin', 'electron-vite.js');
  const { code, output } = await run(process.execPath, [cli, 'build', '--logLevel', 'warn'], { quiet: true });
  if (code !== 0) {
    process.stderr.write(output);
    fail(`npm run dist: electron-vite build failed (exit ${code}); see the output above.`);
  }
}
// The terminal host's bundle (out/cli/, staged with the rest of out/), for the `mnemo` shim in the package's
// resources (scripts/desktop-shims/, docs/GUIDE.md, "From the desktop app").
step('Building the mnemo command (out/cli)…');
{
  const { buildCli } = await import('./build-cli.mjs');
  await buildCli(root);
}

// --- 2. stage ---------------------------------------------------------------------------------------------------

const rootPkg = readJson(path.join(root, 'package.json'));
const stamp = {
  electronVersion,
  platform,
  arch,
  lock: crypto.createHash('sha256').update(fs.readFileSync(path.join(root, 'package-lock.json'))).digest('hex'),
};
const previous = fs.existsSync(stampFile) ? readJson(stampFile) : null;
const reuseModules = previous && JSON.stringify(previous) === JSON.stringify(stamp) && fs.existsSync(stagedBinding) && moduleAbi(stagedBinding) === electronAbi;

step(`Staging ${path.relative(root, stageDir)}${reuseModules ? ' (dependencies unchanged)' : ' (production dependencies)'}…`);
for (const entry of ['out', 'drizzle']) {
  fs.rmSync(path.join(stageDir, entry), { recursive: true, force: true });
  fs.cpSync(path.join(root, entry), path.join(stageDir, entry), { recursive: true });
}
const stagedPkg = {
  name: rootPkg.name,
  productName: rootPkg.productName,
  version: rootPkg.version,
  description: rootPkg.description,
  license: rootPkg.license,
  author: rootPkg.author ?? 'Mnemo contributors',
  private: true,
  type: rootPkg.type,
  main: rootPkg.main,
  dependencies: rootPkg.dependencies,
};
fs.writeFileSync(path.join(stageDir, 'package.json'), JSON.stringify(stagedPkg, null, 2) + '\n');

if (!reuseModules) {
  fs.rmSync(path.join(stageDir, 'node_modules'), { recursive: true, force: true });
  fs.rmSync(stampFile, { force: true });
  const ls = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, encoding: 'utf8', shell: platform === 'win32' });
  if (ls.status !== 0) fail(`npm run dist: "npm ls --omit=dev" failed; run npm install and try again.\n${(ls.stderr ?? '').trim()}`);
  const modulesRoot = path.join(root, 'node_modules') + path.sep;
  const packages = ls.stdout.split(/\r?\n/).filter((p) => p.startsWith(modulesRoot));
  for (const dir of packages) {
    const relative = path.relative(root, dir);
    fs.cpSync(dir, path.join(stageDir, relative), { recursive: true, filter: (src) => keepInStage(dir, src) });
  }
}

/**
 * Nested node_modules are listed (and copied) on their own; better-sqlite3's Node build is rebuilt, not copied;
 * onnxruntime-node's binaries for other platforms and architectures (most of its 290 MB) are left out.
 */
function keepInStage(packageDir, src) {
  const inside = path.relative(packageDir, src).split(path.sep);
  if (inside[0] === 'node_modules') return false;
  const name = path.relative(path.join(root, 'node_modules'), packageDir).split(path.sep).join('/');
  if (name === 'better-sqlite3' && inside[0] === 'build') return false;
  if (name === 'onnxruntime-node' && inside[0] === 'bin' && inside.length >= 3) {
    if (inside[2] !== platform) return false;
    if (inside.length >= 4 && inside[3] !== arch) return false;
  }
  return true;
}

// --- 3. native modules for Electron -----------------------------------------------------------------------------

if (!reuseModules) {
  step(`Building better-sqlite3 for Electron ${electronVersion} (ABI ${electronAbi}, ${platform}-${arch}) in the staged copy…`);
  // A user-wide nodedir (here for offline Node builds) would make node-gyp build against Node's headers instead of
  // Electron's, silently producing the wrong ABI.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_nodedir$/i.test(k)));
  // projectRootPath is the staged folder itself: @electron/rebuild looks for modules between buildPath and that
  // root, so ./node_modules (the Node build the tests use) is outside its reach.
  const options = { buildPath: stageDir, projectRootPath: stageDir, electronVersion, arch, onlyModules: ['better-sqlite3'], force: true, mode: 'sequential' };
  const { code, output } = await run(process.execPath, [fileURLToPath(import.meta.url), '--rebuild-native', JSON.stringify(options)], { quiet: true, env });
  if (code !== 0) {
    if (NETWORK_FAILURE.test(output)) fail(networkLine(`Electron ${electronVersion}'s headers (or a prebuilt better-sqlite3 for it)`, output));
    process.stderr.write(output);
    fail(`npm run dist: building better-sqlite3 for Electron failed (exit ${code}); see the output above.`);
  }
}
const stagedAbi = fs.existsSync(stagedBinding) ? moduleAbi(stagedBinding) : null;
if (stagedAbi !== electronAbi) fail(`npm run dist: the staged better-sqlite3 is built for ABI ${stagedAbi ?? 'none'}, not Electron's ${electronAbi}; nothing was packaged.`);
if (moduleAbi(nodeBinding) !== Number(process.versions.modules)) {
  fail(`npm run dist: ./node_modules/better-sqlite3 is no longer the Node build (ABI ${moduleAbi(nodeBinding)}); run "npm rebuild better-sqlite3".`);
}
fs.writeFileSync(stampFile, JSON.stringify(stamp));

if (stageOnly) {
  step(`Staged the app in ${path.relative(root, stageDir)}; run it with: npx electron ${path.relative(root, stageDir)}`);
  process.exit(0);
}

// --- 4. package -------------------------------------------------------------------------------------------------

const platformArgs = { linux: ['--linux'], darwin: ['--mac', 'dmg'], win32: ['--win'] }[platform];
if (!platformArgs) fail(`npm run dist: packaging on ${platform} is not supported (Linux, macOS and Windows are).`);
// macOS lists dmg for x64 and arm64 in electron-builder.yml; naming the target here lets --<arch> pick this
// machine's architecture, the only one whose native modules were just built.
const builderArgs = [...platformArgs, `--${arch}`, '--publish', 'never', `-c.electronVersion=${electronVersion}`];
const localElectron = path.join(electronPkg, 'dist');
if (fs.existsSync(path.join(electronPkg, 'path.txt')) && fs.existsSync(localElectron)) builderArgs.push(`-c.electronDist=${localElectron}`);

step(`Packaging with electron-builder (${platform}-${arch})…`);
const started = Date.now();
const { code, output } = await run(process.execPath, [path.join(root, 'node_modules', 'electron-builder', 'cli.js'), ...builderArgs]);
if (code !== 0) {
  if (NETWORK_FAILURE.test(output)) fail(networkLine(`Electron ${electronVersion} and electron-builder's packaging tools`, output));
  fail(`npm run dist: electron-builder failed (exit ${code}); see the output above.`);
}
const artifacts = fs
  .readdirSync(path.join(root, 'release'))
  .filter((f) => /\.(AppImage|deb|dmg|exe)$/.test(f) && fs.statSync(path.join(root, 'release', f)).mtimeMs >= started);
step(`Packages in release/: ${artifacts.join(', ') || '(none found)'}`);
