#!/usr/bin/env node
// `npm start`: the desktop app. Electron's npm package fetches its binary on first run; where that is not possible
// (offline, or a network that reaches only the npm registry) this says so in one line and starts the browser mode.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const electronDir = path.join(root, 'node_modules', 'electron');
const args = process.argv.slice(2);

function electronBinary() {
  const pathFile = path.join(electronDir, 'path.txt');
  if (!fs.existsSync(pathFile)) return null;
  const binary = path.join(electronDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? binary : null;
}

function fetchElectron() {
  if (process.env.MNEMO_SKIP_ELECTRON_DOWNLOAD === '1') return 'download skipped (MNEMO_SKIP_ELECTRON_DOWNLOAD=1)';
  const r = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], { cwd: root, encoding: 'utf8', timeout: 120_000 });
  if (r.status === 0 && electronBinary()) return null;
  const lines = `${r.stderr ?? ''}\n${r.stdout ?? ''}`.split('\n').map((l) => l.trim());
  const reason = lines.find((l) => /Error\b|ENOTFOUND|ECONNREFUSED|EAI_AGAIN|ETIMEDOUT/.test(l));
  return `its first-run download failed: ${reason ? reason.slice(0, 120) : r.error ? r.error.message : 'no binary'}`;
}

let binary = electronBinary();
let failure = null;
if (!binary) {
  failure = fetchElectron();
  binary = electronBinary();
}

if (!binary) {
  console.log(`Electron's binary is not available (${failure}); starting the browser mode instead.`);
  // Same rule as web.mjs gives its server: an IPC channel that closes however this process ends (kill -9 included),
  // and signals passed on by closing it, so the server shuts down once and cleanly.
  const web = spawn(process.execPath, [path.join(root, 'scripts', 'web.mjs'), ...args], { cwd: root, stdio: ['inherit', 'inherit', 'inherit', 'ipc'] });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => (web.connected ? web.disconnect() : web.kill('SIGKILL')));
  web.on('exit', (code) => process.exit(code ?? 1));
} else {
  // The app runs from a staged copy (release/app) whose native modules are built for Electron's ABI; ./node_modules
  // keeps the Node build the tests and the web host use. Staging is incremental (scripts/dist.mjs --stage).
  const stage = spawnSync(process.execPath, [path.join(root, 'scripts', 'dist.mjs'), '--stage'], { cwd: root, stdio: 'inherit' });
  if (stage.status !== 0) process.exit(stage.status ?? 1);
  const app = spawn(binary, [path.join(root, 'release', 'app'), ...args], { cwd: root, stdio: 'inherit' });
  app.on('exit', (code) => process.exit(code ?? 0));
}
