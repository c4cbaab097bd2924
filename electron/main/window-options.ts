/**
 * The hardened window and session policy, as plain functions so they are unit-tested without an Electron binary.
 * Invariants (Electron's security checklist): context isolation, sandbox, no Node in any frame, web security on,
 * no webviews, navigation and new windows denied, every permission denied, renderer served from app:// only.
 */
import type { BrowserWindowConstructorOptions } from 'electron';

export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://mnemo`;

export function windowOptions(preloadPath: string, bounds?: { x?: number; y?: number; width: number; height: number }): BrowserWindowConstructorOptions {
  return {
    width: bounds?.width ?? 1200,
    height: bounds?.height ?? 800,
    ...(bounds?.x !== undefined && bounds?.y !== undefined ? { x: bounds.x, y: bounds.y } : {}),
    minWidth: 720,
    minHeight: 480,
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
      spellcheck: true,
    },
  };
}

/** Only our own app:// origin may be navigated to; everything else is refused (links go to the system browser). */
export function isAppUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === `${APP_SCHEME}:` && url.host === 'mnemo';
  } catch {
    return false;
  }
}

/** Links from chat (untrusted model output) may open in the system browser after a click, and only these schemes. */
export function isSafeExternalUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' || url.protocol === 'mailto:';
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
  const relative = pathname === '/' || pathname === '' ? 'index.html' : pathname.replace(/^\/+/, '');
  const file = join(rendererDir, relative);
  return file === rendererDir || file.startsWith(rendererDir + sep) ? file : null;
}
