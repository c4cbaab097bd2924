import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { buildMenuTemplate, type MenuOptions } from '../../electron/main/app-menu';

function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])]);
}
const roles = (template: MenuItemConstructorOptions[]) => new Set(items(template).map((i) => i.role).filter(Boolean));
const build = (overrides: Partial<MenuOptions> = {}) =>
  buildMenuTemplate({ platform: 'linux', appName: 'Mnemo', developer: false, openDataFolder: () => {}, ...overrides });

describe('application menu', () => {
  it.each(['darwin', 'linux', 'win32'] as const)('has the usual editing, zoom, window and quit roles on %s', (platform) => {
    const r = roles(build({ platform }));
    for (const role of ['undo', 'redo', 'cut', 'copy', 'paste', 'delete', 'selectAll', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen', 'minimize', 'quit', 'about']) {
      expect(r.has(role as never), `${platform} lacks ${role}`).toBe(true);
    }
  });

  it('follows macOS conventions there: the app menu first, Close in File, no Help about', () => {
    const mac = build({ platform: 'darwin' });
    expect(mac[0]).toMatchObject({ label: 'Mnemo' });
    expect(roles([mac[0]!])).toEqual(new Set(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']));
    const file = mac.find((m) => m.label === 'File')!;
    expect(roles([file])).toEqual(new Set(['close']));
    expect(roles(mac).has('pasteAndMatchStyle')).toBe(true);
    expect(mac.some((m) => m.role === 'help')).toBe(false);
  });

  it('puts Quit in File and About in Help elsewhere', () => {
    for (const platform of ['linux', 'win32'] as const) {
      const t = build({ platform });
      expect(t[0]).toMatchObject({ label: 'File' });
      expect(roles([t[0]!]).has('quit')).toBe(true);
      expect(roles([t.find((m) => m.role === 'help')!])).toEqual(new Set(['help', 'about']));
      expect(roles(t).has('pasteAndMatchStyle')).toBe(false);
    }
  });

  it('offers reload and DevTools only in development', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      const packaged = roles(build({ platform, developer: false }));
      for (const role of ['reload', 'forceReload', 'toggleDevTools']) expect(packaged.has(role as never)).toBe(false);
      const dev = roles(build({ platform, developer: true }));
      for (const role of ['reload', 'forceReload', 'toggleDevTools']) expect(dev.has(role as never)).toBe(true);
    }
  });

  it('Open Data Folder calls the host', () => {
    const openDataFolder = vi.fn();
    const item = items(build({ openDataFolder })).find((i) => i.label === 'Open Data Folder')!;
    (item.click as () => void)();
    expect(openDataFolder).toHaveBeenCalledTimes(1);
  });

  it('every item is a role, a separator, or a labelled item (no blank entries)', () => {
    for (const platform of ['darwin', 'linux', 'win32'] as const) {
      for (const item of items(build({ platform, developer: true }))) {
        expect(item.role !== undefined || item.type === 'separator' || (typeof item.label === 'string' && item.label.length > 0), JSON.stringify(item)).toBe(true);
      }
    }
  });
});
