/**
 * The session and web-contents policy of the Electron security checklist, applied by plain functions to anything
 * shaped like a Session or a WebContents, so the unit tests pass fakes and need no Electron binary.
 *
 * Invariants:
 * - every permission request and check is denied (camera, notifications, clipboard-read, HID, USB, serial, ...);
 * - downloads are refused, except the files Mnemo's own page makes (an export: a `blob:` URL of app://mnemo, which
 *   only our script can create, since the CSP runs no other); those go through the native Save dialog, so nothing is
 *   written anywhere the user did not choose. A rendered link must not write to disk;
 * - no frame of any webContents navigates anywhere but app://mnemo, no webview is attached, no window is opened;
 * - a window.open / target=_blank link to http(s) or mailto goes to the system browser, and only when our window
 *   has focus and the disposition is one a click produces. Electron exposes no user-activation flag for window
 *   opens (electron/electron#9973), so "after a click" also rests on the CSP: no script but ours runs in the page,
 *   and ours opens links only from click handlers.
 */
import path from 'node:path';
import { isAppUrl, isSafeExternalUrl } from './window-options';

interface Preventable {
  preventDefault(): void;
}

/** The part of Electron's DownloadItem the policy reads. */
export interface DownloadItemLike {
  getURL(): string;
  getFilename(): string;
  setSaveDialogOptions(options: { title?: string; defaultPath?: string }): void;
}

export interface SessionLike {
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string) => boolean): void;
  setDevicePermissionHandler(handler: (details: unknown) => boolean): void;
  on(event: 'will-download', listener: (event: Preventable, item: DownloadItemLike) => void): unknown;
}

export interface SessionPolicyOptions {
  logger?: PolicyLogger;
  /** Where the Save dialog opens (app.getPath('downloads')). */
  downloadsDir?: string;
}

export interface WebContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: Preventable & { url: string }) => void): unknown;
  on(event: 'will-frame-navigate', listener: (event: Preventable & { url: string; isMainFrame: boolean }) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: Preventable) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string; disposition: string }) => { action: 'deny' }): void;
}

export interface PolicyLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  debug?(message: string, fields?: Record<string, unknown>): void;
}

export function hardenSession(session: SessionLike, { logger, downloadsDir }: SessionPolicyOptions = {}): void {
  session.setPermissionRequestHandler((_webContents, permission, callback) => {
    // Debug only: the renderer's copy button asks for clipboard access on every click, then falls back.
    logger?.debug?.('permission request denied', { permission });
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event, item) => {
    if (isOwnFileUrl(item.getURL())) {
      // No save path set: Electron asks the user where to save, starting here with the suggested name.
      // getFilename is Chromium's sanitized name (no separators), taken from the <a download> the page set.
      item.setSaveDialogOptions(downloadsDir ? { defaultPath: path.join(downloadsDir, item.getFilename()) } : {});
      return;
    }
    logger?.warn('download refused', { scheme: schemeOf(item.getURL()) });
    event.preventDefault();
  });
}

/** A file made by our own page: `blob:app://mnemo/<uuid>` (URL.createObjectURL in the renderer). */
export function isOwnFileUrl(url: string): boolean {
  return url.startsWith('blob:') && isAppUrl(url.slice('blob:'.length));
}

/** A frame may only go to our own origin, and only the top frame: Mnemo has no iframes. */
export function isNavigationAllowed(url: string, isMainFrame: boolean): boolean {
  return isMainFrame && isAppUrl(url);
}

/** Dispositions Chromium gives a link click (plain, middle/ctrl, shift); 'default' and 'other' are not clicks. */
const CLICK_DISPOSITIONS = new Set(['foreground-tab', 'background-tab', 'new-window']);

/** What to do with a window.open request: never a new Electron window; maybe the system browser. */
export function externalLinkTarget(details: { url: string; disposition: string }, windowFocused: boolean): string | null {
  return windowFocused && CLICK_DISPOSITIONS.has(details.disposition) && isSafeExternalUrl(details.url) ? details.url : null;
}

export interface GuardDeps {
  openExternal(url: string): Promise<void>;
  /** Whether a Mnemo window has focus (a click on a background window is impossible). */
  isFocused(): boolean;
  logger?: PolicyLogger;
}

/** Applied to every webContents ever created (app 'web-contents-created'), not only to the window we make. */
export function guardWebContents(contents: WebContentsLike, deps: GuardDeps): void {
  const refuse = (kind: string) => (event: Preventable & { url: string; isMainFrame?: boolean }) => {
    if (isNavigationAllowed(event.url, event.isMainFrame ?? true)) return;
    event.preventDefault();
    deps.logger?.warn(`${kind} refused`, { scheme: schemeOf(event.url) });
  };
  contents.on('will-navigate', refuse('navigation'));
  contents.on('will-frame-navigate', refuse('frame navigation'));
  contents.on('will-redirect', refuse('redirect'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    deps.logger?.warn('webview refused');
  });
  contents.setWindowOpenHandler((details) => {
    const target = externalLinkTarget(details, deps.isFocused());
    if (target) {
      deps.openExternal(target).catch(() => deps.logger?.warn('opening a link in the system browser failed', { scheme: schemeOf(target) }));
    } else {
      deps.logger?.warn('new window refused', { scheme: schemeOf(details.url), disposition: details.disposition });
    }
    return { action: 'deny' };
  });
}

/** Logs name the scheme only: a URL can carry what the user typed. */
function schemeOf(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*):/i.exec(url);
  return match ? match[1]!.toLowerCase() : 'none';
}
