/**
 * The Electron IPC adapter: one invoke channel for every contract operation and one event channel, derived from the
 * contract (the preload refuses names the contract does not list; the core validates every input again here).
 * Every message's sender frame must be our own app:// top frame, else the call is refused.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { Core } from '../core/create-core';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/ipc-channels';
import { isAppUrl } from './window-options';

export function registerIpc(ipcMain: IpcMain, core: Core, target: () => WebContents | null): () => void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event: IpcMainInvokeEvent, name: unknown, input: unknown) => {
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null || !isAppUrl(frame.url)) {
      return { ok: false, error: { code: 'FORBIDDEN', message: 'This request did not come from the Mnemo window.' } };
    }
    return core.call(typeof name === 'string' ? name : '', input);
  });
  const unsubscribe = core.subscribe((message) => {
    const wc = target();
    if (wc && !wc.isDestroyed()) wc.send(IPC_EVENT_CHANNEL, message);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
  };
}
