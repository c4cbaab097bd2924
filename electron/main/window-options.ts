/**
 * The hardened window and the URL rules, as plain functions so they are unit-tested without an Electron binary.
 * Invariants (Electron's security checklist): context isolation, sandbox, no Node in any frame, web security on,
 * no webviews, no insecure content, renderer served from app:// only. Session and navigation handlers that enforce
 * the rest live in session-policy.ts.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export const APP_SCHEME = 'app';
export const APP_HOST = 'mnemo';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

export const DEFAULT_WINDOW_SIZE = Object.freeze({ width: 1200, height: 800 });
export const MIN_WINDOW_SIZE = Object.freeze({ width: 720, height: 480 });

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

export interface WindowOptionsInput {
  preloadPath: string;
  bounds?: WindowBounds;
  /** DevTools are for development; the packaged app turns them off. */
  devTools?: boolean;
  platform?: NodeJS.Platform;
}

export function windowOptions({ preloadPath, bounds, devTools = true, platform = process.platform }: WindowOptionsInput): BrowserWindowConstructorOptions {
  return {
    width: bounds?.width ?? DEFAULT_WINDOW_SIZE.width,
    height: bounds?.height ?? DEFAULT_WINDOW_SIZE.height,
    ...(bounds?.x !== undefined && bounds?.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: MIN_WINDOW_SIZE.width,
    minHeight: MIN_WINDOW_SIZE.height,
    show: false,
    title: 'Mnemo',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      plugins: false,
      enableWebSQL: false,
      safeDialogs: true,
      // A file dropped on the window would otherwise navigate to file:// (refused anyway by will-navigate).
      navigateOnDragDrop: false,
      devTools,
      // On Linux and Windows Chromium's spellchecker downloads its dictionaries from Google; Mnemo talks to nothing
      // but the user's Ollama. macOS uses the system spellchecker, which is local.
      spellcheck: platform === 'darwin',
    },
  };
}

/** Only our own app:// origin may be navigated to; everything else is refused (links go to the system browser). */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}

const EXTERNAL_SCHEMES = new Set(['https:', 'http:', 'mailto:']);

/**
 * Links from chat (untrusted model output) may open in the system browser after a click, and only these schemes.
 * Credentials in a URL (https://bank.example@evil.example) are a phishing pattern and refused.
 */
export function isSafeExternalUrl(raw: string): boolean {
  if (raw.length > 2048) return false;
  try {
    const url = new URL(raw);
    return EXTERNAL_SCHEMES.has(url.protocol) && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** Maps an app:// request path to a file inside the built renderer, or null for anything that escapes it. */
export function resolveAppPath(rendererDir: string, requestUrl: string, join: (...p: string[]) => string, sep: string): string | null {
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(requestUrl).pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const file = join(rendererDir, relative);
  return file === rendererDir || file.startsWith(rendererDir + sep) ? file : null;
}
