/**
 * The Electron IPC adapter: one invoke channel for every contract operation and one event channel, derived from the
 * contract (the preload refuses names the contract does not list; the core validates every input again).
 * Every message's sender must be our window's webContents and its frame our own app:// top frame, else the call is
 * refused before it reaches the core.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { EventMessage } from '../../shared/contract';
import type { Result } from '../../shared/errors';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../../shared/ipc-channels';
import { isAppUrl } from './window-options';

/** What the adapter needs of the core: the in-process Core and the utility-process client both fit. */
export interface CoreEndpoint {
  call(name: string, input: unknown): Promise<Result<unknown>>;
  subscribe(listener: (message: EventMessage) => void): () => void;
}

export interface SenderFrameLike {
  readonly url: string;
  readonly parent: unknown;
}

/** The frame must exist, be a top frame (no iframe can call in), and show our own origin. */
export function isTrustedSenderFrame(frame: SenderFrameLike | null | undefined): boolean {
  return !!frame && frame.parent === null && isAppUrl(frame.url);
}

export const FORBIDDEN_SENDER: Result<never> = Object.freeze({
  ok: false,
  error: Object.freeze({ code: 'FORBIDDEN', message: 'This request did not come from the Mnemo window.' }),
});

type InvokeEventLike = { sender: Pick<IpcMainInvokeEvent['sender'], 'id'>; senderFrame: SenderFrameLike | null };
type IpcMainLike = Pick<IpcMain, 'removeHandler'> & {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
};
export type WebContentsLike = Pick<WebContents, 'id' | 'isDestroyed' | 'send'>;

export function registerIpc(ipcMain: IpcMainLike, core: CoreEndpoint, target: () => WebContentsLike | null): () => void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, async (event, name, input) => {
    const window = target();
    if (!window || event.sender.id !== window.id || !isTrustedSenderFrame(event.senderFrame)) return FORBIDDEN_SENDER;
    return core.call(typeof name === 'string' ? name : '', input);
  });
  const unsubscribe = core.subscribe((message) => {
    const window = target();
    if (window && !window.isDestroyed()) window.send(IPC_EVENT_CHANNEL, message);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
  };
}
