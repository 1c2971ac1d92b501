// The manager's dashboard web app: its own small Vite build (`npm run build:hub`), served by the Hub
// under /dashboard/ (hub/http/dashboard-static.ts). It imports only shared/ and UI packages (lint rule).
import react from '@vitejs/plugin-react';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/dashboard/',
  plugins: [react()],
  // No inline anything: the Hub's Content-Security-Policy allows scripts and styles from itself only.
  build: {
    outDir: resolve(here, '../../out/hub-dashboard'),
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    target: 'es2022',
  },
});
