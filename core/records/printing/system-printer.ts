// The computer's own printers (and PDF), which only Electron can drive from main. The core asks
// through this interface; the browser shell has none and leaves printing to the browser.
import type { PaperWidth, SystemPrinterInfo } from '../../../shared/records';
import { printerError } from './network-printer';

export interface SystemPrintJob {
  /** A whole HTML page (its own style sheet, no scripts). */
  html: string;
  paper: PaperWidth;
  /** '' for the default printer. */
  deviceName: string;
  /** false shows the print dialog. */
  silent: boolean;
  copies: number;
  title: string;
}

export interface SystemPrinter {
  readonly available: boolean;
  /** Why it is not available, in words for the settings screen. */
  readonly note: string;
  listPrinters(): Promise<SystemPrinterInfo[]>;
  print(job: SystemPrintJob): Promise<void>;
  /** The page as a PDF file's bytes. */
  toPdf(job: { html: string; paper: PaperWidth; title: string }): Promise<Uint8Array>;
}

const BROWSER_NOTE =
  'In the browser, receipts print through the browser’s own print window (Print, or Ctrl+P): choose the receipt printer there. To save a PDF, choose “Save as PDF” as the printer.';

/** The browser shell's: every call explains how to print from the browser instead. */
export const browserSystemPrinter: SystemPrinter = {
  available: false,
  note: BROWSER_NOTE,
  listPrinters: async () => [],
  print: async () => {
    throw printerError('failed', BROWSER_NOTE, { useBrowserPrint: true });
  },
  toPdf: async () => {
    throw printerError('failed', BROWSER_NOTE, { useBrowserPrint: true });
  },
};
