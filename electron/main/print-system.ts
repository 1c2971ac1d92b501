// Electron's system printing and PDF for the core's receipts and shift reports: a hidden, sandboxed
// window (no scripts, no Node) loads the printable page, then webContents.print / printToPDF.
import { BrowserWindow } from 'electron';
import { printerError, type SystemPrinter, type SystemPrintJob } from '../../core/records';
import type { PaperWidth, SystemPrinterInfo } from '../../shared/records';

const MM_PER_INCH = 25.4;
/** A receipt is as long as its content; never shorter than this (mm). */
const MIN_LENGTH_MM = 80;
const LOAD_TIMEOUT_MS = 15_000;

function hiddenWindow(): BrowserWindow {
  return new BrowserWindow({
    show: false,
    width: 420,
    height: 900,
    // Scripts stay on only so main can measure the page in an isolated world; the page's own CSP
    // (default-src 'none') lets none of its own run, and it holds none.
    webPreferences: {
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      javascript: true,
      webSecurity: true,
      spellcheck: false,
    },
  });
}

/** Loads the page into a throwaway window, runs `fn`, and always destroys the window. */
async function withPage<T>(html: string, fn: (win: BrowserWindow) => Promise<T>): Promise<T> {
  const win = hiddenWindow();
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  try {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(printerError('timeout', 'The receipt page did not load for printing. Try again.')),
        LOAD_TIMEOUT_MS,
      );
    });
    await Promise.race([win.loadURL(`data:text/html;charset=utf-8,${encodeURIComponent(html)}`), timeout]).finally(() =>
      clearTimeout(timer),
    );
    return await fn(win);
  } finally {
    if (!win.isDestroyed()) win.destroy();
  }
}

/** The page's length in mm: measured in an isolated world (the page itself runs no script). */
async function lengthMm(win: BrowserWindow): Promise<number> {
  try {
    const px = (await win.webContents.executeJavaScriptInIsolatedWorld(1001, [
      { code: 'document.documentElement.scrollHeight' },
    ])) as unknown;
    if (typeof px === 'number' && Number.isFinite(px) && px > 0)
      return Math.max(MIN_LENGTH_MM, Math.ceil((px * MM_PER_INCH) / 96) + 6);
  } catch {
    // fall through to a long page: the printer's cutter ends it anyway
  }
  return 297;
}

function paperMm(paper: PaperWidth): number {
  return Number(paper);
}

export function electronSystemPrinter(): SystemPrinter {
  return {
    available: true,
    note: 'Receipts print on the computer’s printers: choose one, or leave it on the default printer.',

    async listPrinters(): Promise<SystemPrinterInfo[]> {
      const win = hiddenWindow();
      try {
        const list = await win.webContents.getPrintersAsync();
        return list.map((p) => ({
          name: p.name,
          displayName: p.displayName || p.name,
          isDefault: !!(p as { isDefault?: boolean }).isDefault,
        }));
      } finally {
        win.destroy();
      }
    },

    print(job: SystemPrintJob): Promise<void> {
      return withPage(job.html, async (win) => {
        const length = await lengthMm(win);
        await new Promise<void>((resolve, reject) => {
          win.webContents.print(
            {
              silent: job.silent,
              printBackground: true,
              copies: job.copies,
              ...(job.deviceName ? { deviceName: job.deviceName } : {}),
              margins: { marginType: 'none' },
              pageSize: { width: paperMm(job.paper) * 1000, height: length * 1000 },
            },
            (ok, reason) => {
              if (ok) return resolve();
              const who = job.deviceName ? `The printer “${job.deviceName}”` : 'The default printer';
              reject(
                reason === 'cancelled'
                  ? printerError('failed', 'Printing was cancelled in the print window. Press Retry to print it.', {
                      reason: 'cancelled',
                    })
                  : printerError(
                      'failed',
                      `${who} did not print (${reason || 'no reason given'}). Check that it is on and has paper, then press Retry.`,
                    ),
              );
            },
          );
        });
      });
    },

    toPdf({ html, paper }): Promise<Uint8Array> {
      return withPage(html, async (win) => {
        const length = await lengthMm(win);
        const data = await win.webContents.printToPDF({
          printBackground: true,
          preferCSSPageSize: false,
          margins: { top: 0, bottom: 0, left: 0, right: 0 },
          pageSize: { width: paperMm(paper) / MM_PER_INCH, height: length / MM_PER_INCH },
        });
        return new Uint8Array(data);
      });
    },
  };
}
