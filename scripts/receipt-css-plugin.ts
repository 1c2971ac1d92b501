// A Vite plugin for the renderer's build: `import 'virtual:receipt-paper.css'` becomes a real style
// sheet made from shared/receipt-css.ts, the one text of the receipt's paper layout that the printed
// page embeds too. A style sheet, not an inline <style>: the window's content security policy
// allows none.
import type { Plugin } from 'vite';
import { RECEIPT_CSS } from '../shared/receipt-css';

export const RECEIPT_CSS_MODULE = 'virtual:receipt-paper.css';
/** Served like a file (a leading "/"), so that Vite's CSS pipeline takes it as a .css module. */
const RESOLVED = '/__receipt-paper.css';

export function receiptCssPlugin(): Plugin {
  return {
    name: 'counterpay-receipt-css',
    resolveId(id) {
      return id === RECEIPT_CSS_MODULE ? RESOLVED : null;
    },
    load(id) {
      return id === RESOLVED ? RECEIPT_CSS : null;
    },
  };
}
