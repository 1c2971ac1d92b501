// The Shift screen's state: the open shift and its running totals (kept fresh as orders change),
// opening and closing (with the confirmation when payments are still open), the kept Z reports,
// printing a report (the way this shell prints) and its CSV.
import { create } from 'zustand';
import { isAppError } from '../../../shared/errors';
import type { OpenItem, ShiftReportView, ShiftView, ZReportSummary } from '../../../shared/records';
import { call } from '../transport/bridge';
import { downloadText } from '../transport/download';
import type { StoreFollower } from './follow';
import { errorText, fieldErrorsOf } from './call-errors';
import { printsInBrowser, useReceipts } from './receipt-store';
import { drawerVerdict } from '../../../shared/ledger-basket-lines';

interface ShiftState {
  loaded: boolean;
  current: ShiftView | null;
  running: ShiftReportView | null;
  loadError: string | null;
  busy: boolean;
  openErrors: Record<string, string>;
  message: { kind: 'ok' | 'error'; text: string } | null;
  /** The close asked for: fresh totals to read before confirming. */
  closing: ShiftReportView | null;
  /** Open payments the last close refused for (the cashier confirms to close anyway). */
  refusedOpen: OpenItem[] | null;
  /** The report on show: the one just closed, or a kept one opened from the list. */
  shown: ShiftReportView | null;
  reports: ZReportSummary[];
  /** Field errors of the last close (`counted`). */
  closeErrors: Record<string, string>;

  load(): Promise<void>;
  refreshRunning(): Promise<void>;
  open(cashier: string, openingFloat: string): Promise<boolean>;
  startClose(): Promise<void>;
  cancelClose(): void;
  /** `counted`: the cash counted in the drawer, naira as typed ('' for none). */
  close(acceptOpen: boolean, counted?: string): Promise<void>;

  show(id: number): Promise<void>;
  hideShown(): void;
  print(id?: number): Promise<void>;
  exportCsv(id?: number): Promise<void>;
}

export const useShift = create<ShiftState>((set, get) => ({
  loaded: false,
  current: null,
  running: null,
  loadError: null,
  busy: false,
  openErrors: {},
  message: null,
  closing: null,
  refusedOpen: null,
  shown: null,
  reports: [],
  closeErrors: {},

  load: async () => {
    try {
      const [{ shift }, reports] = await Promise.all([call('shift.current', {}), call('shift.reports', {})]);
      set({ current: shift, reports, loaded: true, loadError: null });
      if (shift) await get().refreshRunning();
      else set({ running: null });
    } catch (e) {
      set({ loadError: errorText(e), loaded: true });
    }
  },

  refreshRunning: async () => {
    if (!get().current) return;
    try {
      set({ running: await call('shift.report', {}) });
    } catch (e) {
      if (isAppError(e) && e.code === 'NOT_READY') set({ current: null, running: null });
    }
  },

  open: async (cashier, openingFloat) => {
    set({ busy: true, openErrors: {}, message: null });
    try {
      const shift = await call('shift.open', { cashier, openingFloat });
      set({ current: shift, shown: null });
      await get().refreshRunning();
      return true;
    } catch (e) {
      const fields = fieldErrorsOf(e);
      set({ openErrors: fields, message: Object.keys(fields).length ? null : { kind: 'error', text: errorText(e) } });
      return false;
    } finally {
      set({ busy: false });
    }
  },

  startClose: async () => {
    set({ busy: true, message: null, refusedOpen: null });
    try {
      const fresh = await call('shift.report', {});
      set({ closing: fresh, running: fresh });
    } catch (e) {
      set({ message: { kind: 'error', text: errorText(e) } });
    } finally {
      set({ busy: false });
    }
  },

  cancelClose: () => set({ closing: null, refusedOpen: null, closeErrors: {} }),

  close: async (acceptOpen, counted = '') => {
    set({ busy: true, message: null, closeErrors: {} });
    try {
      const z = await call('shift.close', { acceptOpen, ...(counted.trim() !== '' ? { counted } : {}) });
      const drawer = z.report.totals.drawer;
      set({
        current: null,
        running: null,
        closing: null,
        refusedOpen: null,
        shown: z,
        message: {
          kind: 'ok',
          text: `Shift closed. Z report #${z.report.id} is kept: print it or export it below.${drawer ? ` ${drawerVerdict(drawer)}` : ''}`,
        },
      });
      set({ reports: await call('shift.reports', {}) });
    } catch (e) {
      // Payments went open since the totals were read: show them and ask again.
      const fields = fieldErrorsOf(e);
      if (isAppError(e) && e.code === 'CONFLICT' && Array.isArray(e.details?.openItems)) {
        const fresh = await call('shift.report', {}).catch(() => null);
        set({ refusedOpen: fresh?.report.totals.openItems ?? [], closing: fresh ?? get().closing });
      } else if (Object.keys(fields).length > 0) set({ closeErrors: fields });
      else set({ message: { kind: 'error', text: errorText(e) } });
    } finally {
      set({ busy: false });
    }
  },

  show: async (id) => {
    try {
      set({ shown: await call('shift.report', { id }), message: null });
    } catch (e) {
      set({ message: { kind: 'error', text: errorText(e) } });
    }
  },

  hideShown: () => set({ shown: null }),

  print: async (id) => {
    set({ busy: true, message: null });
    try {
      const receipts = useReceipts.getState();
      if (!receipts.settings) await receipts.loadSettings();
      if (printsInBrowser(useReceipts.getState().settings)) {
        const view = await call('shift.report', id === undefined ? {} : { id });
        useReceipts.getState().printInBrowser({ html: view.html, paper: view.paper });
        if (id !== undefined) await call('shift.browserPrinted', { id });
        return;
      }
      const job = await call('shift.print', id === undefined ? {} : { id });
      useReceipts.getState().applyJob(job);
      set({
        message:
          job.status === 'printed'
            ? { kind: 'ok', text: `${job.title}: printed on ${job.target}.` }
            : {
                kind: 'error',
                text: `${job.title} did not print: ${job.error ?? ''} It is kept under “Not printed” with Retry.`,
              },
      });
    } catch (e) {
      set({ message: { kind: 'error', text: errorText(e) } });
    } finally {
      set({ busy: false });
      if (id !== undefined && get().shown?.report.id === id) void get().show(id);
    }
  },

  exportCsv: async (id) => {
    try {
      const f = await call('shift.exportCsv', id === undefined ? {} : { id });
      downloadText(f.fileName, f.csv, 'text/csv');
      set({ message: { kind: 'ok', text: `Exported ${f.fileName} (look in the Downloads folder).` } });
    } catch (e) {
      set({ message: { kind: 'error', text: errorText(e) } });
    }
  },
}));

// Running totals follow the orders; a burst of changes is one refresh.
let refreshTimer: ReturnType<typeof setTimeout> | null = null;
export const shiftFollower: StoreFollower = {
  name: 'shift',
  listen: (bridge) => [
    bridge.on('order.changed', () => {
      if (!useShift.getState().current || refreshTimer) return;
      refreshTimer = setTimeout(() => {
        refreshTimer = null;
        void useShift.getState().refreshRunning();
      }, 400);
    }),
    bridge.on('shift.changed', ({ shift }) => {
      const s = useShift.getState();
      if ((shift?.id ?? null) !== (s.current?.id ?? null)) void s.load();
    }),
  ],
  refresh: () => (useShift.getState().loaded ? useShift.getState().load() : null),
};
