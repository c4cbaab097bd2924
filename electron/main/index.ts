/**
 * The Electron host: one hardened window over the same core as the web host and the CLI.
 * Data folder: --data-dir, else MNEMO_DATA_DIR, else app.getPath('userData').
 */
import fs from 'node:fs';
import path from 'node:path';
import { app, BrowserWindow, ipcMain, net, protocol, session, shell } from 'electron';
import { contentSecurityPolicy } from '../../shared/security';
import { createCore, type Core } from '../core/create-core';
import { createStderrLogger } from '../core/ports/logger.port';
import { registerIpc } from './ipc-adapter';
import { APP_ORIGIN, APP_SCHEME, isAppUrl, isSafeExternalUrl, resolveAppPath, windowOptions } from './window-options';

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);

const rendererDir = path.join(import.meta.dirname, '../renderer');
const preloadPath = path.join(import.meta.dirname, '../preload/index.cjs');

function dataDirFromArgs(argv: string[]): string | undefined {
  const i = argv.indexOf('--data-dir');
  return i >= 0 ? argv[i + 1] : argv.find((a) => a.startsWith('--data-dir='))?.slice('--data-dir='.length);
}

let core: Core | null = null;
let win: BrowserWindow | null = null;

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.whenReady().then(start, (e: unknown) => {
    console.error(`Mnemo could not start: ${(e as Error).message}`);
    app.exit(1);
  });
}

async function start(): Promise<void> {
  const dataDir = dataDirFromArgs(process.argv) ?? process.env.MNEMO_DATA_DIR ?? app.getPath('userData');
  core = createCore({
    dataDir,
    host: 'electron',
    version: app.getVersion(),
    logger: createStderrLogger('warn'),
    paths: { migrationsDir: path.join(app.getAppPath(), 'drizzle') },
  });

  const ses = session.defaultSession;
  ses.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ses.setPermissionCheckHandler(() => false);
  protocol.handle(APP_SCHEME, (request) => {
    const file = resolveAppPath(rendererDir, request.url, path.join, path.sep);
    const target = file && fs.existsSync(file) && fs.statSync(file).isFile() ? file : path.join(rendererDir, 'index.html');
    return net.fetch(`file://${target}`).then(
      (res) => new Response(res.body, { status: res.status, headers: { 'content-type': res.headers.get('content-type') ?? 'text/html', 'content-security-policy': contentSecurityPolicy() } }),
    );
  });

  win = new BrowserWindow(windowOptions(preloadPath));
  const wc = win.webContents;
  wc.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  wc.on('will-attach-webview', (event) => event.preventDefault());
  wc.setWindowOpenHandler(({ url }) => {
    if (isSafeExternalUrl(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  registerIpc(ipcMain, core, () => win?.webContents ?? null);
  win.once('ready-to-show', () => win?.show());
  await win.loadURL(`${APP_ORIGIN}/index.html`);
}

let quitting = false;
app.on('before-quit', (event) => {
  if (quitting || !core) return;
  event.preventDefault();
  quitting = true;
  const c = core;
  core = null;
  void c.dispose().finally(() => app.quit());
});
app.on('window-all-closed', () => app.quit());
