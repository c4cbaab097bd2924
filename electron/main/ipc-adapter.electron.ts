/**
 * The IPC adapter on Electron's real ipcMain: the only file of the Electron host that imports ipcMain (eslint.config.js
 * holds every other file to that), so every channel the window can call is one the contract derives. The adapter's
 * logic (ipc-adapter.ts) takes an ipcMain-shaped object, so its unit tests never load Electron.
 */
import { ipcMain } from 'electron';
import { registerIpc, type CoreEndpoint, type WebContentsLike } from './ipc-adapter';

export function registerElectronIpc(core: CoreEndpoint, target: () => WebContentsLike | null): () => void {
  return registerIpc(ipcMain, core, target);
}
