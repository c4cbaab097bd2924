/** Keyboard shortcuts use Cmd on macOS and Ctrl elsewhere; labels follow the platform. */
export function isMac(): boolean {
  return /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

export function modKey(): string {
  return isMac() ? '⌘' : 'Ctrl';
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
