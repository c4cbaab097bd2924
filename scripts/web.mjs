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

const args = process.argv.slice(2);
// --static-dir serves another folder: dist/renderer is not used, so it is not built.
const ownStaticDir = args.some((a) => a === '--static-dir' || a.startsWith('--static-dir='));
const stale = !ownStaticDir && (!fs.existsSync(built) || Math.max(newestMtime(path.join(root, 'renderer')), newestMtime(path.join(root, 'shared'))) > fs.statSync(built).mtimeMs);
if (stale) {
  process.stderr.write('Building the renderer…\n');
  const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--config', 'renderer/vite.config.ts', '--logLevel', 'error'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (r.status !== 0) {
    process.stderr.write('mnemo web: building the renderer failed (see above).\n');
    process.exit(1);
  }
}

// The server must end with this wrapper, however it ends. It gets an IPC channel it sends nothing over: when this
// process ends in any way, kill -9 included (where no handler of ours runs), the OS closes the channel and the server
// stops cleanly on 'disconnect' (electron/server/main.ts). That holds on Linux, macOS and Windows alike; watching
// process.ppid in the server would not (Windows does not re-parent an orphan, so its ppid never changes).
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'electron', 'server', 'main.ts'), ...args], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
});
// A signal is passed on by closing the channel, not by sending the signal again: on Ctrl+C the terminal has already
// signalled the server (same process group), and to the server a second signal means "force it out now", before the
// database is closed. On Windows child.kill('SIGINT') would also end it at once, uncleanly. A second signal here
// (a second Ctrl+C, a stuck shutdown) forces it.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => (child.connected ? child.disconnect() : child.kill('SIGKILL')));
}
// Started by `npm start`'s fallback with a channel of its own: when that launcher ends, so does the server.
if (process.connected) process.on('disconnect', () => (child.connected ? child.disconnect() : child.kill('SIGKILL')));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
