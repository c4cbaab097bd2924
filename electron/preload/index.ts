/**
 * The preload bridge: exposes exactly `window.mnemo.invoke(name, input)` for the contract's operations and
 * `window.mnemo.subscribe(listener)` for its events. Never ipcRenderer itself, never the IpcRendererEvent.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { eventNames, isOperationName, type EventMessage } from '../../shared/contract';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/ipc-channels';

const knownEvents = new Set<string>(eventNames);

contextBridge.exposeInMainWorld('mnemo', {
  invoke(name: string, input: unknown) {
    if (typeof name !== 'string' || !isOperationName(name)) {
      return Promise.resolve({ ok: false, error: { code: 'UNKNOWN_OPERATION', message: `There is no operation named "${String(name).slice(0, 80)}".` } });
    }
    return ipcRenderer.invoke(IPC_INVOKE_CHANNEL, name, input);
  },
  subscribe(listener: (message: EventMessage) => void) {
    const handler = (_event: unknown, message: EventMessage) => {
      if (message && knownEvents.has(message.event)) listener(message);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  },
});
