/** Keyboard shortcuts use Cmd on macOS and Ctrl elsewhere; labels follow the platform. */
import type { AppInfo } from '../../../shared/contract';

type AppHost = AppInfo['host'];

export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

export function modKey(): string {
  return isMac() ? '⌘' : 'Ctrl';
}

/**
 * The keys that start a new thread in this host, as a label, or null when none does: in the browser mode the
 * browser keeps Ctrl/Cmd+N for its own windows, so outside macOS it is Alt+N (isAltNew), and on macOS there is none.
 */
export function newThreadKeys(host: AppHost | undefined, { shift = false }: { shift?: boolean } = {}): string | null {
  const extra = shift ? '+Shift' : '';
  if (host !== 'web') return `${modKey()}${extra}+N`;
  return isMac() ? null : `Alt${extra}+N`;
}

/** The platform's modifier (Cmd or Ctrl) is held, and no other besides the ones allowed. */
export function isMod(e: KeyboardEvent, { shift = false }: { shift?: boolean } = {}): boolean {
  const mod = isMac() ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  return mod && e.shiftKey === shift && !e.altKey;
}

/**
 * Alt+N (Alt+Shift+N) as a second way to start a thread outside macOS: in the browser mode Chrome keeps Ctrl+N and
 * Ctrl+Shift+N for its own windows and never hands them to the page.
 */
export function isAltNew(e: KeyboardEvent, { shift = false }: { shift?: boolean } = {}): boolean {
  return !isMac() && e.altKey && !e.ctrlKey && !e.metaKey && e.shiftKey === shift && e.code === 'KeyN';
}
