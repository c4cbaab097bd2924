import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { eventNames, operationNames } from '../../shared/contract';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/ipc-channels';
import { contentSecurityPolicy } from '../../shared/security';
import { appResponseHeaders, contentTypeFor, createAppProtocolHandler } from '../../electron/main/app-protocol';
import { FORBIDDEN_SENDER, isTrustedSenderFrame, registerIpc, type CoreEndpoint } from '../../electron/main/ipc-adapter';
import { externalLinkTarget, guardWebContents, hardenSession, isNavigationAllowed, isOwnFileUrl } from '../../electron/main/session-policy';
import { APP_ORIGIN, isAppUrl, isSafeExternalUrl, resolveAppPath, windowOptions } from '../../electron/main/window-options';
import { createBridge } from '../../electron/preload/bridge';

// The Electron security checklist (https://www.electronjs.org/docs/latest/tutorial/security), item by item, against
// the plain functions that implement it. Electron itself is replaced by objects of the same shape.

describe('window options', () => {
  const prefs = windowOptions({ preloadPath: '/app/preload.cjs' }).webPreferences!;

  it('isolate the page: context isolation, sandbox, no Node anywhere, web security, no webview', () => {
    expect(prefs).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    });
    expect(prefs).not.toHaveProperty('enableBlinkFeatures');
  });

  it('turn DevTools off for the packaged app, and the downloading spellchecker off outside macOS', () => {
    expect(windowOptions({ preloadPath: 'p', devTools: false }).webPreferences!.devTools).toBe(false);
    expect(windowOptions({ preloadPath: 'p', platform: 'linux' }).webPreferences!.spellcheck).toBe(false);
    expect(windowOptions({ preloadPath: 'p', platform: 'win32' }).webPreferences!.spellcheck).toBe(false);
    expect(windowOptions({ preloadPath: 'p', platform: 'darwin' }).webPreferences!.spellcheck).toBe(true);
  });

  it('use remembered bounds, with a position only when both coordinates are known', () => {
    expect(windowOptions({ preloadPath: 'p', bounds: { x: 10, y: 20, width: 900, height: 700 } })).toMatchObject({ x: 10, y: 20, width: 900, height: 700 });
    const sizeOnly = windowOptions({ preloadPath: 'p', bounds: { width: 900, height: 700 } });
    expect(sizeOnly).not.toHaveProperty('x');
    expect(sizeOnly.show).toBe(false);
  });
});

describe('URL rules', () => {
  it('only app://mnemo is the app', () => {
    expect(isAppUrl(`${APP_ORIGIN}/index.html`)).toBe(true);
    expect(isAppUrl('app://mnemo')).toBe(true);
    for (const url of ['app://mnemo.evil/', 'app://other/', 'https://mnemo/', 'file:///index.html', 'mnemo', '', 'app:mnemo']) {
      expect(isAppUrl(url), url).toBe(false);
    }
  });

  it('only http(s) and mailto links without credentials may reach the system browser', () => {
    for (const url of ['https://example.com/a?b#c', 'http://example.com', 'mailto:someone@example.com']) expect(isSafeExternalUrl(url), url).toBe(true);
    for (const url of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'app://mnemo/',
      'data:text/html,hi',
      'smb://host/share',
      'ms-msdt:/id',
      'https://bank.example@evil.example/',
      'https://user:pw@example.com/',
      `https://example.com/${'a'.repeat(2100)}`,
      'not a url',
    ]) {
      expect(isSafeExternalUrl(url), url).toBe(false);
    }
  });

  it.each([
    ['posix', path.posix],
    ['win32', path.win32],
  ] as const)('app:// paths never leave the renderer folder (%s)', (_name, p) => {
    const rendererDir = p === path.posix ? '/app/out/renderer' : 'C:\\app\\out\\renderer';
    fc.assert(
      fc.property(fc.array(fc.constantFrom('..', '.', '%2e%2e', '..%2f', '..%5c', 'a', 'assets', 'x.js', '%00', '\\..', '//'), { maxLength: 8 }), (segments) => {
        const file = resolveAppPath(rendererDir, `app://mnemo/${segments.join('/')}`, p.join, p.sep);
        return file === null || file === rendererDir || file.startsWith(rendererDir + p.sep);
      }),
    );
    expect(resolveAppPath(rendererDir, 'app://mnemo/', p.join, p.sep)).toBe(p.join(rendererDir, 'index.html'));
    expect(resolveAppPath(rendererDir, 'app://mnemo/..%2f..%2fsecret', p.join, p.sep)).toBeNull();
  });
});

describe('session policy', () => {
  type RequestHandler = (wc: unknown, permission: string, cb: (granted: boolean) => void) => void;
  type CheckHandler = (wc: unknown, permission: string) => boolean;
  type DownloadHandler = (event: { preventDefault(): void }, item: { getURL(): string; getFilename(): string; setSaveDialogOptions(o: object): void }) => void;

  function fakeSession() {
    const handlers: { request?: RequestHandler; check?: CheckHandler; device?: (details: unknown) => boolean; download?: DownloadHandler } = {};
    const session = {
      setPermissionRequestHandler: (h: RequestHandler) => void (handlers.request = h),
      setPermissionCheckHandler: (h: CheckHandler) => void (handlers.check = h),
      setDevicePermissionHandler: (h: (details: unknown) => boolean) => void (handlers.device = h),
      on: (_event: 'will-download', h: DownloadHandler) => void (handlers.download = h),
    };
    return { session, handlers };
  }

  it('denies every permission request and check, and every device', () => {
    const { session, handlers } = fakeSession();
    hardenSession(session);
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation', 'openExternal', 'fullscreen', 'hid', 'serial']) {
      const callback = vi.fn();
      handlers.request!({}, permission, callback);
      expect(callback).toHaveBeenCalledWith(false);
      expect(handlers.check!({}, permission)).toBe(false);
    }
    expect(handlers.device!({ deviceType: 'usb' })).toBe(false);
  });

  function fakeDownload(url: string) {
    const event = { preventDefault: vi.fn() };
    const item = { getURL: () => url, getFilename: () => 'mnemo-memories.md', setSaveDialogOptions: vi.fn() };
    return { event, item };
  }

  it('refuses every download but a file our own page made (an export), which goes through the Save dialog', () => {
    const { session, handlers } = fakeSession();
    hardenSession(session, { downloadsDir: '/home/u/Downloads' });
    for (const url of ['https://example.com/x.exe', 'http://127.0.0.1:5173/a', 'blob:https://evil.example/1234', 'blob:app://other/1234', 'data:text/plain,hi', 'file:///etc/passwd', 'app://mnemo/index.html', 'blob:null/1234']) {
      const { event, item } = fakeDownload(url);
      handlers.download!(event, item);
      expect(event.preventDefault, url).toHaveBeenCalled();
      expect(item.setSaveDialogOptions).not.toHaveBeenCalled();
    }
    const own = fakeDownload('blob:app://mnemo/6c1f7a52-3b0e-4d8e-9f43-1a2b3c4d5e6f');
    handlers.download!(own.event, own.item);
    expect(own.event.preventDefault).not.toHaveBeenCalled();
    expect(own.item.setSaveDialogOptions).toHaveBeenCalledWith({ defaultPath: path.join('/home/u/Downloads', 'mnemo-memories.md') });
  });

  it('isOwnFileUrl: only blob URLs of the app origin', () => {
    expect(isOwnFileUrl('blob:app://mnemo/abc')).toBe(true);
    for (const url of ['blob:app://mnemo.evil/abc', 'blob:app://evil/abc', 'app://mnemo/abc', 'blob:', '', 'blob:https://mnemo/abc']) expect(isOwnFileUrl(url), url).toBe(false);
  });

  function fakeContents() {
    const handlers = new Map<string, (event: never) => void>();
    let openHandler: ((details: { url: string; disposition: string }) => { action: 'deny' }) | undefined;
    return {
      contents: {
        on(event: string, listener: (event: never) => void) {
          handlers.set(event, listener);
        },
        setWindowOpenHandler(h: typeof openHandler) {
          openHandler = h;
        },
      },
      fire(event: string, details: { url?: string; isMainFrame?: boolean } = {}) {
        const e = { ...details, preventDefault: vi.fn() };
        handlers.get(event)!(e as never);
        return e.preventDefault.mock.calls.length > 0;
      },
      open: (details: { url: string; disposition: string }) => openHandler!(details),
    };
  }

  it('keeps every frame on app://mnemo and refuses webviews', () => {
    const c = fakeContents();
    guardWebContents(c.contents, { openExternal: vi.fn(), isFocused: () => true });
    expect(c.fire('will-navigate', { url: 'https://example.com/', isMainFrame: true })).toBe(true);
    expect(c.fire('will-navigate', { url: 'file:///etc/passwd', isMainFrame: true })).toBe(true);
    expect(c.fire('will-navigate', { url: 'app://mnemo/index.html', isMainFrame: true })).toBe(false);
    expect(c.fire('will-frame-navigate', { url: 'app://mnemo/index.html', isMainFrame: false })).toBe(true);
    expect(c.fire('will-frame-navigate', { url: 'https://example.com/', isMainFrame: true })).toBe(true);
    expect(c.fire('will-redirect', { url: 'https://example.com/', isMainFrame: true })).toBe(true);
    expect(c.fire('will-attach-webview')).toBe(true);
    expect(isNavigationAllowed('app://mnemo/', true)).toBe(true);
    expect(isNavigationAllowed('app://mnemo/', false)).toBe(false);
  });

  it('opens no window; a clicked http(s)/mailto link goes to the system browser while Mnemo has focus', async () => {
    const c = fakeContents();
    const openExternal = vi.fn(() => Promise.resolve());
    let focused = true;
    const warn = vi.fn();
    guardWebContents(c.contents, { openExternal, isFocused: () => focused, logger: { warn } });

    expect(c.open({ url: 'https://example.com/doc', disposition: 'foreground-tab' })).toEqual({ action: 'deny' });
    expect(openExternal).toHaveBeenCalledWith('https://example.com/doc');

    openExternal.mockClear();
    for (const details of [
      { url: 'file:///etc/passwd', disposition: 'foreground-tab' },
      { url: 'javascript:alert(1)', disposition: 'new-window' },
      { url: 'https://example.com/', disposition: 'other' },
      { url: 'https://example.com/', disposition: 'default' },
    ]) {
      expect(c.open(details)).toEqual({ action: 'deny' });
    }
    focused = false;
    expect(c.open({ url: 'https://example.com/', disposition: 'foreground-tab' })).toEqual({ action: 'deny' });
    expect(openExternal).not.toHaveBeenCalled();
    // Logs carry the scheme, never the URL (it can hold what the user typed).
    expect(JSON.stringify(warn.mock.calls)).not.toContain('passwd');
  });

  it('a failing system browser is logged, not thrown', async () => {
    const c = fakeContents();
    const warn = vi.fn();
    guardWebContents(c.contents, { openExternal: () => Promise.reject(new Error('no browser')), isFocused: () => true, logger: { warn } });
    c.open({ url: 'https://example.com/', disposition: 'background-tab' });
    await vi.waitFor(() => expect(warn).toHaveBeenCalledWith('opening a link in the system browser failed', { scheme: 'https' }));
  });

  it('external targets are decided by scheme, disposition and focus together', () => {
    expect(externalLinkTarget({ url: 'mailto:a@b.c', disposition: 'new-window' }, true)).toBe('mailto:a@b.c');
    expect(externalLinkTarget({ url: 'mailto:a@b.c', disposition: 'new-window' }, false)).toBeNull();
  });
});

describe('app:// protocol', () => {
  const rendererDir = '/app/out/renderer';
  const files: Record<string, string> = {
    '/app/out/renderer/index.html': '<!doctype html><title>Mnemo</title>',
    '/app/out/renderer/assets/index-1.js': 'console.log(1)',
    '/app/out/renderer/assets/index-1.css': 'body{}',
  };
  const readFile = vi.fn(async (file: string) => {
    if (!(file in files)) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    return new TextEncoder().encode(files[file]);
  });
  const handle = createAppProtocolHandler({ rendererDir, readFile, join: path.posix.join, sep: '/' });
  const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

  it('serves the renderer with the CSP, nosniff and a content type on every response, errors included', async () => {
    for (const [url, status, type] of [
      ['app://mnemo/index.html', 200, 'text/html; charset=utf-8'],
      ['app://mnemo/', 200, 'text/html; charset=utf-8'],
      ['app://mnemo/assets/index-1.js', 200, 'text/javascript; charset=utf-8'],
      ['app://mnemo/assets/index-1.css', 200, 'text/css; charset=utf-8'],
      ['app://mnemo/assets/missing.js', 404, 'text/plain; charset=utf-8'],
      ['app://elsewhere/index.html', 404, 'text/plain; charset=utf-8'],
    ] as const) {
      const res = await get(url);
      expect(res.status, url).toBe(status);
      expect(res.headers.get('content-security-policy'), url).toBe(contentSecurityPolicy());
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
      expect(res.headers.get('content-type'), url).toBe(type);
    }
    expect(await (await get('app://mnemo/index.html')).text()).toContain('<title>Mnemo</title>');
  });

  it('gives client-side routes index.html but never serves index.html for a missing asset', async () => {
    expect(await (await get('app://mnemo/threads/42')).text()).toContain('<title>Mnemo</title>');
    expect((await get('app://mnemo/assets/gone-2.js')).status).toBe(404);
  });

  it('refuses other methods and never reads outside the renderer folder', async () => {
    expect((await get('app://mnemo/index.html', 'POST')).status).toBe(405);
    const head = await get('app://mnemo/index.html', 'HEAD');
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    readFile.mockClear();
    for (const url of ['app://mnemo/..%2f..%2fetc%2fpasswd', 'app://mnemo/%2e%2e/%2e%2e/etc/passwd', 'app://mnemo/../../../etc/passwd', 'app://mnemo/a%00.js']) {
      const res = await get(url);
      expect(res.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    }
    for (const [file] of readFile.mock.calls) expect(file.startsWith(`${rendererDir}/`), file).toBe(true);
  });

  it('answers a malformed percent-escape 400 with the CSP, reading nothing', async () => {
    readFile.mockClear();
    for (const url of ['app://mnemo/%zz', 'app://mnemo/%', 'app://mnemo/%E0%A4%A', 'app://mnemo/assets/%c0%af', 'app://mnemo/threads/%ff']) {
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(res.headers.get('content-security-policy'), url).toBe(contentSecurityPolicy());
      expect(await res.text(), url).toMatch(/malformed percent-escape/);
    }
    expect(readFile).not.toHaveBeenCalled();
  });

  it('reports missing app files as a 500 that says to reinstall', async () => {
    const broken = createAppProtocolHandler({ rendererDir, readFile: () => Promise.reject(new Error('ENOENT')), join: path.posix.join, sep: '/' });
    const res = await broken(new Request('app://mnemo/'));
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/reinstall/);
  });

  it('knows the content types the renderer build produces and defaults to octet-stream', () => {
    expect(contentTypeFor('/a/b.woff2')).toBe('font/woff2');
    expect(contentTypeFor('/a/b.SVG')).toBe('image/svg+xml');
    expect(contentTypeFor('/a.dir/noext')).toBe('application/octet-stream');
    expect(appResponseHeaders('x/y')['content-type']).toBe('x/y');
  });

  it('the CSP allows nothing remote: no script, connection, image, font or frame from elsewhere', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toMatch(/https?:|wss?:|\*|'unsafe-eval'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    expect(csp).toMatch(/object-src 'none'/);
  });
});

describe('IPC adapter', () => {
  function setup() {
    let handler: ((event: unknown, ...args: unknown[]) => Promise<unknown>) | undefined;
    const ipcMain = {
      handle: vi.fn((_channel: string, h: typeof handler) => {
        handler = h;
      }),
      removeHandler: vi.fn(),
    };
    const sent: unknown[] = [];
    const window = { id: 1, isDestroyed: vi.fn(() => false), send: vi.fn((...args: unknown[]) => sent.push(args)) };
    const eventListeners = new Set<(m: never) => void>();
    const core: CoreEndpoint & { call: ReturnType<typeof vi.fn> } = {
      call: vi.fn(async (name: string) => ({ ok: true as const, value: { ran: name } })),
      subscribe: (l) => {
        eventListeners.add(l as never);
        return () => eventListeners.delete(l as never);
      },
    };
    let target: typeof window | null = window;
    const dispose = registerIpc(ipcMain as never, core, () => target);
    const invoke = (event: unknown, name: unknown, input: unknown = {}) => handler!(event, name, input);
    const topFrame = { url: 'app://mnemo/index.html', parent: null };
    return { ipcMain, window, core, sent, eventListeners, dispose, invoke, topFrame, closeWindow: () => (target = null) };
  }

  it('runs calls from our window top frame on app://mnemo', async () => {
    const s = setup();
    expect(s.ipcMain.handle).toHaveBeenCalledWith(IPC_INVOKE_CHANNEL, expect.any(Function));
    expect(await s.invoke({ sender: s.window, senderFrame: s.topFrame }, 'thread.list', { limit: 5 })).toEqual({ ok: true, value: { ran: 'thread.list' } });
    expect(s.core.call).toHaveBeenCalledWith('thread.list', { limit: 5 });
  });

  it('refuses calls from another webContents, an iframe, another origin, no frame, or after the window closed', async () => {
    const s = setup();
    const cases = [
      { sender: { id: 2 }, senderFrame: s.topFrame },
      { sender: s.window, senderFrame: { url: 'app://mnemo/index.html', parent: s.topFrame } },
      { sender: s.window, senderFrame: { url: 'https://example.com/', parent: null } },
      { sender: s.window, senderFrame: { url: 'file:///x/index.html', parent: null } },
      { sender: s.window, senderFrame: null },
    ];
    for (const event of cases) expect(await s.invoke(event, 'thread.list')).toEqual(FORBIDDEN_SENDER);
    s.closeWindow();
    expect(await s.invoke({ sender: s.window, senderFrame: s.topFrame }, 'thread.list')).toEqual(FORBIDDEN_SENDER);
    expect(s.core.call).not.toHaveBeenCalled();
  });

  it('passes a non-string name on as "" for the core to refuse', async () => {
    const s = setup();
    await s.invoke({ sender: s.window, senderFrame: s.topFrame }, { toString: () => 'thread.list' });
    expect(s.core.call).toHaveBeenCalledWith('', {});
  });

  it('forwards core events to the live window only, and unregisters on dispose', () => {
    const s = setup();
    const message = { event: 'thread.created', payload: { id: 1 } };
    for (const l of s.eventListeners) l(message as never);
    expect(s.window.send).toHaveBeenCalledWith(IPC_EVENT_CHANNEL, message);
    s.window.isDestroyed.mockReturnValue(true);
    for (const l of s.eventListeners) l(message as never);
    expect(s.window.send).toHaveBeenCalledTimes(1);
    s.dispose();
    expect(s.eventListeners.size).toBe(0);
    expect(s.ipcMain.removeHandler).toHaveBeenCalledWith(IPC_INVOKE_CHANNEL);
  });

  it('trusts only a top frame showing app://mnemo', () => {
    expect(isTrustedSenderFrame({ url: 'app://mnemo/', parent: null })).toBe(true);
    expect(isTrustedSenderFrame({ url: 'app://mnemo/', parent: undefined })).toBe(false);
    expect(isTrustedSenderFrame(null)).toBe(false);
  });
});

describe('preload bridge', () => {
  function fakeIpc() {
    const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
    return {
      invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: 1 })),
      on: vi.fn((channel: string, l: (event: unknown, ...args: unknown[]) => void) => {
        if (!listeners.has(channel)) listeners.set(channel, new Set());
        listeners.get(channel)!.add(l);
      }),
      removeListener: vi.fn((channel: string, l: (event: unknown, ...args: unknown[]) => void) => listeners.get(channel)?.delete(l)),
      emit(channel: string, ...args: unknown[]) {
        for (const l of listeners.get(channel) ?? []) l({ sender: 'the ipcRenderer itself' }, ...args);
      },
      count: (channel: string) => listeners.get(channel)?.size ?? 0,
    };
  }

  it('sends only the contract operations, on the one invoke channel', async () => {
    const ipc = fakeIpc();
    const bridge = createBridge(ipc);
    const name = operationNames[0]!;
    await bridge.invoke(name, { a: 1 });
    expect(ipc.invoke).toHaveBeenCalledWith(IPC_INVOKE_CHANNEL, name, { a: 1 });
    for (const bad of ['no.such', '__proto__', 'constructor', 42, null]) {
      expect(await bridge.invoke(bad as string, {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OPERATION' } });
    }
    expect(ipc.invoke).toHaveBeenCalledTimes(1);
  });

  it('delivers only contract events, never the IPC event object, and unsubscribes exactly its own handler', () => {
    const ipc = fakeIpc();
    const bridge = createBridge(ipc);
    const received: unknown[] = [];
    const unsubscribe = bridge.subscribe((m) => received.push(m));
    const known = { event: eventNames[0]!, payload: {} };
    ipc.emit(IPC_EVENT_CHANNEL, known);
    ipc.emit(IPC_EVENT_CHANNEL, { event: 'made.up', payload: {} });
    ipc.emit(IPC_EVENT_CHANNEL, null);
    ipc.emit(IPC_EVENT_CHANNEL, 'text');
    expect(received).toEqual([known]);
    unsubscribe();
    expect(ipc.count(IPC_EVENT_CHANNEL)).toBe(0);
    expect(bridge.subscribe('not a function' as never)()).toBeUndefined();
  });
});
