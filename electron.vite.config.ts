// Builds the Electron host, the preload and the renderer together (npm start / npm run dist).
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';

export default defineConfig({
  main: { plugins: [externalizeDepsPlugin()], build: { rollupOptions: { input: { index: path.resolve('electron/main/index.ts') } } } },
  preload: { build: { rollupOptions: { input: { index: path.resolve('electron/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } } } },
  renderer: { root: 'renderer', plugins: [react()], build: { rollupOptions: { input: path.resolve('renderer/index.html') } } },
});
