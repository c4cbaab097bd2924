/**
 * What the preload exposes as `window.mnemo`, built from an ipcRenderer-shaped object so it is unit-tested without
 * Electron. Invariants: only operation names the contract lists are sent (others get UNKNOWN_OPERATION without an
 * IPC round trip); only events the contract lists reach the page; the page never sees ipcRenderer or the
 * IpcRendererEvent (whose `sender` would hand it ipcRenderer back).
 */
import { eventNames, isOperationName, type EventMessage } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/ipc-channels';

export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export interface MnemoBridge {
  invoke(name: string, input: unknown): Promise<unknown>;
  subscribe(listener: (message: EventMessage) => void): () => void;
}

const knownEvents = new Set<string>(eventNames);

export function createBridge(ipc: IpcRendererLike): MnemoBridge {
  return {
    invoke(name, input) {
      if (typeof name !== 'string' || !isOperationName(name)) {
        const unknown: Result<never> = { ok: false, error: { code: 'UNKNOWN_OPERATION', message: `There is no operation named "${String(name).slice(0, 80)}".` } };
        return Promise.resolve(unknown);
      }
      return ipc.invoke(IPC_INVOKE_CHANNEL, name, input);
    },
    subscribe(listener) {
      if (typeof listener !== 'function') return () => {};
      const handler = (_event: unknown, message: unknown) => {
        const m = message as EventMessage | null;
        if (m && typeof m === 'object' && knownEvents.has(m.event)) listener(m);
      };
      ipc.on(IPC_EVENT_CHANNEL, handler);
      return () => {
        ipc.removeListener(IPC_EVENT_CHANNEL, handler);
      };
    },
  };
}
