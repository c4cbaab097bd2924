import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = path.dirname(new URL(import.meta.url).pathname);

export default defineConfig({
  root,
  base: './',
  plugins: [react()],
  build: {
    outDir: path.resolve(root, '../dist/renderer'),
    emptyOutDir: true,
    // No inline scripts or remote assets: the CSP allows 'self' only.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
