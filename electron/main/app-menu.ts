/**
 * The native menu as a plain template (Menu.buildFromTemplate turns it into a menu in main). Roles give the usual
 * shortcuts and platform behaviour for free: Cmd/Ctrl+C/V/X/Z/A in text fields, zoom, full screen, quit.
 * Development-only items (reload, DevTools) are absent from the packaged app.
 */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  /** Development build: adds reload and DevTools. */
  developer: boolean;
  openDataFolder(): void;
}

const separator: MenuItemConstructorOptions = { type: 'separator' };

export function buildMenuTemplate(options: MenuOptions): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];

  if (mac) {
    template.push({
      label: options.appName,
      submenu: [{ role: 'about' }, separator, { role: 'services' }, separator, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, separator, { role: 'quit' }],
    });
  }

  template.push({
    label: 'File',
    submenu: [
      { label: 'Open Data Folder', click: () => options.openDataFolder() },
      separator,
      mac ? { role: 'close' } : { role: 'quit' },
    ],
  });

  template.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? ([{ role: 'pasteAndMatchStyle' }] as MenuItemConstructorOptions[]) : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  });

  template.push({
    label: 'View',
    submenu: [
      ...(options.developer ? ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, separator] as MenuItemConstructorOptions[]) : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  });

  template.push({
    role: 'window',
    submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  });

  // macOS shows About in the app menu; elsewhere it lives under Help.
  if (!mac) template.push({ role: 'help', submenu: [{ role: 'about' }] });

  return template;
}
