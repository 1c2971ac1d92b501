import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { resolve } from 'node:path';
import { receiptCssPlugin } from './scripts/receipt-css-plugin';

export default defineConfig({
  main: {
    build: {
      lib: { entry: resolve(__dirname, 'electron/main/index.ts') },
      // Native modules stay external; ESM-only packages are bundled into the CommonJS main.
      externalizeDeps: { exclude: ['electron-store', 'conf', 'ky'] },
    },
  },
  preload: {
    // A sandboxed preload can only require('electron'): bundle everything else into it.
    build: { lib: { entry: resolve(__dirname, 'electron/preload/index.ts') }, externalizeDeps: false },
  },
  renderer: {
    root: resolve(__dirname, 'renderer'),
    // Copied as they are to the root of the built renderer: the favicon (scripts/make-icons.sh).
    publicDir: resolve(__dirname, 'resources/web'),
    plugins: [react(), receiptCssPlugin()],
    build: { rollupOptions: { input: resolve(__dirname, 'renderer/index.html') } },
  },
});
