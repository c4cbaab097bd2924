#!/usr/bin/env node
// `npm run web [-- --port N --data-dir DIR]`: builds the renderer when it is missing or older than its sources,
// then starts the web host (electron/server/main.ts) under tsx. All arguments are passed through.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'renderer', 'index.html');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

const stale = !fs.existsSync(built) || Math.max(newestMtime(path.join(root, 'renderer')), newestMtime(path.join(root, 'shared'))) > fs.statSync(built).mtimeMs;
if (stale) {
  process.stderr.write('Building the renderer…\n');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'error'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) {
    process.stderr.write('mnemo web: building the renderer failed (see above).\n');
    process.exit(1);
  }
}

const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'electron', 'server', 'main.ts'), ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
