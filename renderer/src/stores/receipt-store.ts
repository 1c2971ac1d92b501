// Receipts and the printer as the window sees them: the printer settings, each order's receipt
// preview and print jobs (kept live from receipts.jobChanged), the failed prints with Retry, and
// printing through the browser's own print window when that is the way this shell prints.
import { create, type StoreApi } from 'zustand';
import { isAppError } from '../../../shared/errors';
import type { PrintJobView, ReceiptPreview, RecordsSettingsView, SystemPrinterInfo } from '../../../shared/records';
import { call } from '../transport/bridge';
import type { StoreFollower } from './follow';
import { errorText, fieldErrorsOf } from './call-errors';

/** What the print-only part of the page holds while the browser prints it. */
interface BrowserPrint {
  html: string;
  paper: '58' | '80';
}

interface ReceiptState {
  settings: RecordsSettingsView | null;
  settingsError: string | null;
  saving: boolean;
  saveMessage: { kind: 'ok' | 'error'; text: string } | null;
  fieldErrors: Record<string, string>;
  systemPrinters: SystemPrinterInfo[];
  previews: Record<number, ReceiptPreview>;
  previewErrors: Record<number, string>;
  jobs: Record<number, PrintJobView[]>;
  failed: PrintJobView[];
  busy: Record<string, boolean>;
  messages: Record<string, string>;
  /** Set while the browser's print window shows it. */
  printing: BrowserPrint | null;

  loadSettings(): Promise<void>;
  saveSettings(input: { printing?: Record<string, unknown>; cinema?: Record<string, unknown> }): Promise<boolean>;
  loadSystemPrinters(): Promise<void>;
  testPage(): Promise<void>;
  loadReceipt(orderId: number): Promise<void>;
  /**
   * Prints the receipt the way this shell prints; resolves with the job (or null when it could not
   * start). `withPickup`: in the browser's print window, the pickup slip too, on its own page (the
   * receipt printed by itself; a printer main drives gets the slip as its own job from main).
   */
  print(orderId: number, opts?: { withPickup?: boolean }): Promise<PrintJobView | null>;
  /** Prints the pickup slip of a paid sale with concessions (again), the way this shell prints. */
  printPickup(orderId: number): Promise<PrintJobView | null>;
  retry(jobId: number): Promise<void>;
  savePdf(orderId: number): Promise<void>;
  loadFailed(): Promise<void>;
  /** The browser's print window for any printable HTML (receipts, shift reports). */
  printInBrowser(p: BrowserPrint): void;
  applyJob(job: PrintJobView): void;
}

/** True when receipts go to the browser's print window rather than to a printer main drives. */
export function printsInBrowser(s: RecordsSettingsView | null): boolean {
  return !!s && s.printing.kind === 'system' && !s.systemPrinting.available;
}

const key = (orderId: number) => `order:${orderId}`;
const pickupKey = (orderId: number) => `pickup:${orderId}`;

type ReceiptSet = StoreApi<ReceiptState>['setState'];

/** Saves the receipt settings; previews follow the paper width and the cinema's name. */
async function saveSettingsOf(
  set: ReceiptSet,
  get: () => ReceiptState,
  input: Parameters<ReceiptState['saveSettings']>[0],
): Promise<boolean> {
  set({ saving: true, saveMessage: null, fieldErrors: {} });
  try {
    const settings = await call('receipts.saveSettings', input);
    set({ settings, saveMessage: { kind: 'ok', text: 'Saved. New receipts use these settings.' } });
    // Previews follow the paper width and the cinema's name.
    const ids = Object.keys(get().previews).map(Number);
    set({ previews: {} });
    for (const id of ids) void get().loadReceipt(id);
    return true;
  } catch (e) {
    const fields = fieldErrorsOf(e);
    const locked = isAppError(e) && (e.code === 'PIN_REQUIRED' || e.code === 'PIN_NOT_SET');
    set({
      fieldErrors: fields,
      saveMessage: {
        kind: 'error',
        text: locked ? 'Settings are locked: enter the admin PIN first, then save again.' : errorText(e),
      },
    });
    return false;
  } finally {
    set({ saving: false });
  }
}

/** A test page on the chosen printer (in the browser: how to print from a preview instead). */
async function testPageOf(
  get: () => ReceiptState,
  busy: (k: string, on: boolean) => void,
  message: (k: string, text: string | null) => void,
): Promise<void> {
  const k = 'test-page';
  busy(k, true);
  message(k, null);
  try {
    if (printsInBrowser(get().settings)) {
      message(
        k,
        'In the browser, print a receipt from its preview: the browser’s print window lets you choose the printer.',
      );
      return;
    }
    const job = await call('receipts.testPage', {});
    message(
      k,
      job.status === 'printed'
        ? `Test page sent to ${job.target}.`
        : `The test page did not print: ${job.error ?? 'unknown error'}`,
    );
  } catch (e) {
    message(k, errorText(e));
  } finally {
    busy(k, false);
  }
}

/** The pickup slip of a paid sale with concessions, on the chosen printer or in the browser's print window. */
async function printPickupOf(
  orderId: number,
  get: () => ReceiptState,
  busy: (k: string, on: boolean) => void,
  message: (k: string, text: string | null) => void,
): Promise<PrintJobView | null> {
  const k = pickupKey(orderId);
  if (get().busy[k]) return null;
  busy(k, true);
  message(k, null);
  try {
    if (!get().settings) await get().loadSettings();
    if (printsInBrowser(get().settings)) {
      const preview = get().previews[orderId] ?? (await call('receipts.preview', { orderId }));
      if (!preview.pickupHtml) throw new Error('This sale has no pickup slip.');
      get().printInBrowser({ html: preview.pickupHtml, paper: preview.paper });
      const job = await call('receipts.pickupBrowserPrinted', { orderId });
      get().applyJob(job);
      return job;
    }
    const job = await call('receipts.printPickup', { orderId });
    get().applyJob(job);
    return job;
  } catch (e) {
    message(k, errorText(e));
    return null;
  } finally {
    busy(k, false);
    void get().loadReceipt(orderId);
  }
}

export const useReceipts = create<ReceiptState>((set, get) => {
  const busy = (k: string, on: boolean) => set((s) => ({ busy: { ...s.busy, [k]: on } }));
  const message = (k: string, text: string | null) =>
    set((s) => {
      const messages = { ...s.messages };
      if (text === null) delete messages[k];
      else messages[k] = text;
      return { messages };
    });

  return {
    settings: null,
    settingsError: null,
    saving: false,
    saveMessage: null,
    fieldErrors: {},
    systemPrinters: [],
    previews: {},
    previewErrors: {},
    jobs: {},
    failed: [],
    busy: {},
    messages: {},
    printing: null,

    loadSettings: async () => {
      try {
        set({ settings: await call('receipts.settings', {}), settingsError: null });
      } catch (e) {
        set({ settingsError: errorText(e) });
      }
    },

    saveSettings: (input) => saveSettingsOf(set, get, input),

    loadSystemPrinters: async () => {
      try {
        set({ systemPrinters: await call('receipts.systemPrinters', {}) });
      } catch {
        set({ systemPrinters: [] });
      }
    },

    testPage: () => testPageOf(get, busy, message),

    loadReceipt: async (orderId) => {
      try {
        const [preview, jobs] = await Promise.all([
          call('receipts.preview', { orderId }),
          call('receipts.jobs', { orderId }),
        ]);
        set((s) => ({
          previews: { ...s.previews, [orderId]: preview },
          jobs: { ...s.jobs, [orderId]: jobs },
          previewErrors: { ...s.previewErrors, [orderId]: '' },
        }));
      } catch (e) {
        set((s) => ({ previewErrors: { ...s.previewErrors, [orderId]: errorText(e) } }));
      }
    },

    print: async (orderId, opts) => {
      const k = key(orderId);
      if (get().busy[k]) return null;
      busy(k, true);
      message(k, null);
      try {
        if (!get().settings) await get().loadSettings();
        if (printsInBrowser(get().settings)) {
          const preview = get().previews[orderId] ?? (await call('receipts.preview', { orderId }));
          // One print window for both: the slip starts its own page (receipt CSS: .rp + .rp).
          const slip = opts?.withPickup ? preview.pickupHtml : undefined;
          get().printInBrowser({ html: preview.html + (slip ?? ''), paper: preview.paper });
          const job = await call('receipts.browserPrinted', { orderId });
          get().applyJob(job);
          if (slip) get().applyJob(await call('receipts.pickupBrowserPrinted', { orderId }));
          return job;
        }
        const job = await call('receipts.print', { orderId });
        get().applyJob(job);
        return job;
      } catch (e) {
        message(k, errorText(e));
        return null;
      } finally {
        busy(k, false);
        void get().loadReceipt(orderId);
      }
    },

    printPickup: (orderId) => printPickupOf(orderId, get, busy, message),

    retry: async (jobId) => {
      const k = `job:${jobId}`;
      busy(k, true);
      message(k, null);
      try {
        get().applyJob(await call('receipts.retry', { id: jobId }));
      } catch (e) {
        message(k, errorText(e));
      } finally {
        busy(k, false);
      }
    },

    savePdf: async (orderId) => {
      const k = `pdf:${orderId}`;
      busy(k, true);
      message(k, null);
      try {
        const { path } = await call('receipts.savePdf', { orderId });
        message(k, `Saved as ${path}`);
      } catch (e) {
        message(k, errorText(e));
      } finally {
        busy(k, false);
      }
    },

    loadFailed: async () => {
      try {
        set({ failed: await call('receipts.failedJobs', {}) });
      } catch {
        // the list is a convenience; each receipt still shows its own jobs
      }
    },

    printInBrowser: (p) => {
      set({ printing: p });
      // The print-only view renders first; window.print() then shows the browser's print window.
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          window.print();
          set({ printing: null });
        }),
      );
    },

    applyJob: (job) => {
      set((s) => {
        const jobs = { ...s.jobs };
        if (job.orderId !== null) {
          const list = jobs[job.orderId] ?? [];
          jobs[job.orderId] = [job, ...list.filter((j) => j.id !== job.id)].sort((a, b) => b.id - a.id);
        }
        const failed =
          job.status === 'failed'
            ? [job, ...s.failed.filter((j) => j.id !== job.id)]
            : s.failed.filter((j) => j.id !== job.id);
        return { jobs, failed };
      });
    },
  };
});

export const receiptsFollower: StoreFollower = {
  name: 'receipts',
  listen: (bridge) => [bridge.on('receipts.jobChanged', (job) => useReceipts.getState().applyJob(job))],
  refresh: async () => {
    const s = useReceipts.getState();
    await Promise.all([
      s.settings ? s.loadSettings() : null,
      s.loadFailed(),
      ...Object.keys(s.previews).map((id) => s.loadReceipt(Number(id))),
    ]);
  },
};
