/**
 * The Electron host: one hardened window over the same core as the web host and the CLI. The core runs in a
 * utility process (core-process.ts, whose header says why); this process owns the window, the
 * menu, the session policy, the app:// protocol and the IPC adapter with its sender check.
 * Data folder: --data-dir, else MNEMO_DATA_DIR, else app.getPath('userData').
 *
 * Everything with a decision in it is a plain function in a sibling module with unit tests; this file only wires
 * those functions to Electron.
 */
import fs from 'node:fs';
import path from 'node:path';
import { app, BrowserWindow, dialog, Menu, powerMonitor, protocol, safeStorage, screen, session, shell, utilityProcess, type Session, type UtilityProcess } from 'electron';
import { getLoadablePath } from 'sqlite-vec';
import { isMnemoError } from '../../shared/errors';
import { createStderrLogger } from '../core/ports/logger.port';
import { buildMenuTemplate } from './app-menu';
import { createAppProtocolHandler } from './app-protocol';
import { createCoreClient, type CoreClient, type CoreStartOptions, type LogLevel } from './core-protocol';
import { hasBundledModels } from '../core/runtime/packaged-paths';
import { desktopCorePaths, desktopDataDir } from './desktop-paths';
import { registerElectronIpc } from './ipc-adapter.electron';
import { electronKeychain, secretSealingKey } from './secret-sealing-key';
import { chosen, missingDatabaseQuestion } from './missing-database-dialog';
import { createQuitController } from './quit-controller';
import { watchPower } from './power-watch';
import { guardWebContents, hardenSession } from './session-policy';
import { captureWindowState, createWindowStateStore, WINDOW_STATE_FILE } from './window-state';
import { APP_ORIGIN, APP_SCHEME, windowOptions } from './window-options';

const here = import.meta.dirname;
const rendererDir = path.join(here, '../renderer');
const preloadPath = path.join(here, '../preload/index.cjs');
const coreEntry = path.join(here, 'core-process.js');

const logLevel: LogLevel = process.env.MNEMO_LOG_LEVEL === 'debug' ? 'debug' : 'warn';
const logger = createStderrLogger(logLevel);

// Both must happen before 'ready'. corsEnabled stays unset: it would let other origins read app:// responses
// (https://github.com/electron/electron/pull/52912); the page's own module scripts are same-origin and need no CORS.
protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();

const { dataDir, chosenBy } = desktopDataDir(process.argv, process.env, () => app.getPath('userData'));
// An explicit data folder also holds Chromium's profile and the single-instance lock, so a Mnemo started on another
// folder (a test run beside the real app) is a separate instance.
if (chosenBy !== 'userData') app.setPath('userData', dataDir);

let win: BrowserWindow | null = null;
let coreProcess: UtilityProcess | null = null;
let core: CoreClient | null = null;
let coreReady = false;

const quitController = createQuitController({
  async shutdown() {
    await core?.stop();
    coreProcess?.kill();
  },
  quit: () => app.quit(),
  exit(code) {
    coreProcess?.kill();
    app.exit(code);
  },
  logger,
});

const hardened = new WeakSet<Session>();
function harden(s: Session): void {
  if (hardened.has(s)) return;
  hardened.add(s);
  hardenSession(s, { logger, downloadsDir: app.getPath('downloads') });
}

if (!app.requestSingleInstanceLock()) {
  app.exit(0);
} else {
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('session-created', harden);
  app.on('web-contents-created', (_event, contents) =>
    guardWebContents(contents, { openExternal: (url) => shell.openExternal(url), isFocused: () => BrowserWindow.getFocusedWindow() !== null, logger }),
  );
  app.on('before-quit', (event) => quitController.onBeforeQuit(event));
  app.on('window-all-closed', () => app.quit());
  app.whenReady().then(start).catch(failedToStart);
}

async function start(): Promise<void> {
  harden(session.defaultSession);
  protocol.handle(APP_SCHEME, createAppProtocolHandler({ rendererDir, readFile: (file) => fs.promises.readFile(file), join: path.join, sep: path.sep }));
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({ platform: process.platform, appName: app.name, developer: !app.isPackaged, openDataFolder: () => void shell.openPath(dataDir) }),
    ),
  );

  core = forkCore();
  const client = core;
  // Sent before start too: the core process keeps the last power state and gives it to the core once it is built.
  const stopWatchingPower = watchPower(powerMonitor, (onBattery) => client.setOnBattery(onBattery));
  app.once('will-quit', stopWatchingPower);
  const coreStarted = secretSealingKey(dataDir, electronKeychain(safeStorage))
    .catch((e: unknown) => {
      // Secrets then live in the plain 0600 file, as in the CLI: the app still starts.
      logger.warn('the OS keychain could not seal the secrets file', { error: (e as Error)?.message });
      return null;
    })
    .then((key) => startCore(client, { dataDir, version: app.getVersion(), paths: corePaths(), logLevel, ...(key ? { secretSealingKey: key } : {}) }));

  const windowState = createWindowStateStore(path.join(dataDir, WINDOW_STATE_FILE));
  const primary = screen.getPrimaryDisplay();
  const state = windowState.load([primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)]);
  const window = new BrowserWindow(windowOptions({ preloadPath, bounds: state, devTools: !app.isPackaged }));
  win = window;
  if (state.maximized) window.maximize();
  window.on('close', () => windowState.save(captureWindowState(window)));
  window.on('closed', () => (win = null));
  window.once('ready-to-show', () => window.show());
  registerElectronIpc(core, () => (window.isDestroyed() ? null : window.webContents));

  // Calls the page makes before the core is up queue behind 'start' in the core process, so both proceed at once.
  const [started] = await Promise.all([
    coreStarted.then((how) => {
      coreReady = true;
      return how;
    }),
    window.loadURL(`${APP_ORIGIN}/index.html`),
  ]);
  // The page loaded while the core was refusing (its first calls got DB_MISSING): load it again against the core.
  if (started === 'after-asking' && !window.isDestroyed()) window.webContents.reload();
}

/** Starts the core; if its database is missing beside a good backup, asks the user and starts it again as chosen. */
async function startCore(client: CoreClient, options: CoreStartOptions): Promise<'at-once' | 'after-asking'> {
  try {
    await client.start(options);
    return 'at-once';
  } catch (e) {
    const question = isMnemoError(e) ? missingDatabaseQuestion(e.toInfo(), (at) => new Date(at).toLocaleString()) : null;
    if (!question) throw e;
    const choice = chosen(question, (await dialog.showMessageBox(question.options)).response);
    if (choice === 'quit') {
      await quitWithoutStarting();
      return 'after-asking';
    }
    await client.start({ ...options, whenDatabaseMissing: choice });
    return 'after-asking';
  }
}

async function quitWithoutStarting(): Promise<void> {
  try {
    await core?.stop();
  } finally {
    coreProcess?.kill();
    app.exit(0);
  }
}

function forkCore(): CoreClient {
  const child = utilityProcess.fork(coreEntry, [], { serviceName: 'Mnemo core', stdio: 'inherit' });
  coreProcess = child;
  const client = createCoreClient(
    {
      post: (message) => child.postMessage(message),
      listen(listener) {
        child.on('message', listener);
        return () => child.off('message', listener);
      },
    },
    {
      logger,
      onUnexpectedExit(code) {
        // While starting, failedToStart reports it.
        if (!coreReady) return;
        const message = `Mnemo's background process stopped unexpectedly (exit code ${code}). Your data is safe; start Mnemo again.`;
        console.error(message);
        dialog.showErrorBox('Mnemo stopped', message);
        app.exit(1);
      },
    },
  );
  child.on('exit', (code) => {
    coreProcess = null;
    client.processExited(code);
  });
  return client;
}

function corePaths() {
  let vecLoadablePath: string | null = null;
  try {
    vecLoadablePath = getLoadablePath();
  } catch {
    // An unsupported platform: the core's own sqlite-vec load reports it with a clear error.
  }
  return desktopCorePaths({
    appPath: app.getAppPath(),
    resourcesPath: process.resourcesPath,
    env: process.env,
    hasBundledModels: app.isPackaged && hasBundledModels(process.resourcesPath),
    vecLoadablePath,
  });
}

async function failedToStart(e: unknown): Promise<void> {
  const message = isMnemoError(e) ? e.message : `Mnemo could not start: ${(e as Error)?.message ?? String(e)}`;
  console.error(message);
  dialog.showErrorBox('Mnemo could not start', message);
  try {
    await core?.stop();
  } finally {
    coreProcess?.kill();
    app.exit(1);
  }
}
