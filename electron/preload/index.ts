/**
 * The preload bridge (sandboxed, context-isolated): exposes exactly `window.mnemo.invoke(name, input)` for the
 * contract's operations and `window.mnemo.subscribe(listener)` for its events (see bridge.ts). Built as one CommonJS
 * file with its dependencies inlined: a sandboxed preload can require nothing but a few Electron modules.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './bridge';

contextBridge.exposeInMainWorld('mnemo', createBridge(ipcRenderer));
