// Builds the Electron host, the core's utility process, the preload and the renderer together into out/
// (npm start / npm run dist). Main and core-process keep npm dependencies external (they load from node_modules, the
// native ones from app.asar.unpacked); the sandboxed preload can require nothing, so everything is inlined into it.
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: path.resolve('electron/main/index.ts'),
          'core-process': path.resolve('electron/main/core-process.ts'),
          // The local embedding model's worker thread, found beside the bundle (electron/core/embedding/onnx-worker.embedder.ts).
          'onnx-embedder.worker': path.resolve('electron/core/embedding/onnx-embedder.worker.ts'),
          // Worker threads found beside the bundle (electron/core/runtime/worker-entry.ts): the database copier (backups
          // of big databases, db/database-copy.ts).
          'database-copy.worker': path.resolve('electron/core/db/database-copy.worker.ts'),
          // The backup scrub's worker thread ("delete forever" reaching big backups, electron/core/backup/backup-scrub.ts).
          'backup-scrub.worker': path.resolve('electron/core/backup/backup-scrub.worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: false,
      rollupOptions: { input: { index: path.resolve('electron/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: { root: 'renderer', plugins: [react()], build: { rollupOptions: { input: path.resolve('renderer/index.html') } } },
});
