// Receipts, order search and shifts: wires the print journal, the printers, the receipt and shift
// services and the order search into this module's share of the contract.
import type { recordCalls } from '../../shared/contract-records';
import type { OrderView } from '../../shared/orders';
import type { CaseSlip } from '../../shared/cases';
import type { PrintJobView } from '../../shared/records';
import type { SweepResult } from '../../shared/late-payments';
import type { CoreModule } from '../core-module';
import type { CoreServices } from '../core-services';
import type { JournalSink } from '../journal-sink';
import type { SerialPortClass } from '../terminal';
import type { NetworkSendOptions } from './printing/network-printer';
import { OrderJournalReads, OrderTextIndex, searchOrders, type OrderEvents, type OrderReads } from '../orders';
import { TopupJournalReads } from '../topups';
import { renderJob } from './print-payload';
import { PrintJobStore, targetText } from './printing/print-jobs';
import { createPrintService } from './printing/print-service';
import { createReceipts, type RefundReads } from './receipts/receipts-service';
import type { CaseCountsPort } from '../../shared/cases';
import { createRefundSlips } from './receipts/refund-slips';
import { createRecordsSettings } from './records-settings';
import { createShiftService, type ShiftDeps } from './shifts/shift-service';
import { ShiftStore } from './shifts/shift-store';
import { DrawerStore } from './shifts/drawer-store';
import { browserSystemPrinter, type SystemPrinter } from './printing/system-printer';
import { topupTotals, type TopupTotalsSource } from './shifts/topup-totals';

interface RecordsDeps {
  /** Electron's system printing and PDF (electron/main/print-system.ts); the browser shell has none. */
  systemPrinter?: SystemPrinter;
  /** Tests pass a mock or a pty-backed class; the app uses serialport's. */
  serialPort?: SerialPortClass;
  network?: NetworkSendOptions;
  serialTimeoutMs?: number;
  autoPrintDetailWaitMs?: number;
  topups?: TopupTotalsSource;
  /** The reconciliation sweep, run before a Z report (its result is printed on it). */
  beforeZ?: () => Promise<SweepResult>;
  /** The screen and ticket type of a sale made from the programme, for its receipt. */
  programmeSale?: (orderId: number) => { screen: string | null; ticketType: string } | null;
  /** The refunds owed and a sale's links, from the orders module (refund slips, exchange receipts). */
  refunds?: RefundReads;
  /** The complaint cases' counts for the X/Z, from the cases module. */
  cases?: CaseCountsPort;
}

/** What receipts, printing and shifts take of the core: the orders they print come from the checkout. */
type RecordsContext = Pick<CoreServices, 'db' | 'store' | 'settings' | 'events' | 'logger' | 'clock' | 'dataDir'> & {
  checkout: Pick<OrderReads, 'get'> & OrderEvents;
  /** Shifts are journal events: they go to the Hub's outbox too. */
  journalSink: JournalSink;
};

/** A case slip as the complaint desk gives it: the records module adds the cinema's and the counter's names. */
export type CaseSlipInput = Omit<CaseSlip, 'cinemaName' | 'counterName'>;

type PrintService = ReturnType<typeof createPrintService>;

/** The complaint desk's case slip, through the print jobs like every slip (no order, no report). */
function caseSlipPrinter(
  printer: PrintService,
  cinemaName: () => string,
  counterName: () => string,
  profile: () => Parameters<PrintService['submit']>[0]['profile'],
) {
  return (slip: CaseSlipInput): Promise<PrintJobView> =>
    printer.submit({
      kind: 'case-slip',
      title: `Case slip ${slip.caseNo}`,
      payload: { slip: { ...slip, cinemaName: cinemaName(), counterName: counterName() } },
      reprint: false,
      profile: profile(),
    });
}

/** The shifts' service of the module: the journals' reads, the drawer, the top-ups, and the cases' counts when wired. */
function shiftServiceOf(
  ctx: RecordsContext,
  deps: RecordsDeps,
  p: Pick<ShiftDeps, 'shifts' | 'settings' | 'counterName' | 'jobs' | 'printer'>,
) {
  return createShiftService({
    ...p,
    orders: new OrderJournalReads(ctx.db),
    drawer: new DrawerStore(ctx.db),
    topups: deps.topups ?? topupTotals(new TopupJournalReads(ctx.db)),
    profile: () => ctx.settings.activeProfile(),
    clock: ctx.clock,
    onShift: () => ctx.events.emit('shift.changed', { shift: p.shifts.current() }),
    ...(deps.cases ? { cases: deps.cases } : {}),
  });
}

export function createRecordsModule(ctx: RecordsContext, deps: RecordsDeps = {}) {
  const now = () => ctx.clock.now();
  const systemPrinter = deps.systemPrinter ?? browserSystemPrinter;
  const settings = createRecordsSettings(ctx.store, ctx.logger);
  const jobs = new PrintJobStore(ctx.db, now);
  const shifts = new ShiftStore(ctx.db, ctx.journalSink);
  const textIndex = new OrderTextIndex(ctx.db);
  // Noted on each order event, written when a search asks: never on a sale's path.
  const offIndex = ctx.checkout.on('order', (v) => textIndex.changed(v.id));
  const counterName = () => ctx.settings.profile(ctx.settings.activeProfile()).counterName;

  const printer = createPrintService({
    jobs,
    printing: () => settings.get().printing,
    systemPrinter,
    render: renderJob,
    logger: ctx.logger,
    onJob: (job) => ctx.events.emit('receipts.jobChanged', job),
    ...(deps.serialPort ? { serialPort: deps.serialPort } : {}),
    ...(deps.network ? { network: deps.network } : {}),
    ...(deps.serialTimeoutMs ? { serialTimeoutMs: deps.serialTimeoutMs } : {}),
  });
  const receipts = createReceipts({
    checkout: ctx.checkout,
    settings,
    counterName,
    shifts,
    jobs,
    printer,
    systemPrinter,
    dataDir: ctx.dataDir,
    logger: ctx.logger,
    ...(deps.programmeSale ? { programmeSale: deps.programmeSale } : {}),
    ...(deps.refunds ? { refunds: deps.refunds } : {}),
    ...(deps.autoPrintDetailWaitMs !== undefined ? { detailWaitMs: deps.autoPrintDetailWaitMs } : {}),
  });
  const refundSlips = createRefundSlips({
    refunds: deps.refunds,
    checkout: ctx.checkout,
    settings,
    counterName,
    jobs,
    printer,
  });
  const shift = shiftServiceOf(ctx, deps, { shifts, settings, counterName, jobs, printer });

  const settingsView = () => ({
    ...settings.get(),
    systemPrinting: { available: systemPrinter.available, note: systemPrinter.note },
  });
  const views = (ids: number[]): OrderView[] =>
    ids.map((id) => ctx.checkout.get(id)).filter((v): v is OrderView => v !== null);

  const printCaseSlip = caseSlipPrinter(
    printer,
    () => settings.get().cinema.name,
    counterName,
    () => ctx.settings.activeProfile(),
  );

  const mod: CoreModule<typeof recordCalls> = {
    handlers: {
      'receipts.settings': () => settingsView(),
      'receipts.saveSettings': (a) => {
        settings.save(a);
        return settingsView();
      },
      'receipts.systemPrinters': () => systemPrinter.listPrinters(),
      'receipts.testPage': () => {
        const target = printer.currentTarget();
        return printer.submit({
          kind: 'test-page',
          title: 'Printer test page',
          payload: {
            test: {
              at: now(),
              cinemaName: settings.get().cinema.name,
              counterName: counterName(),
              printer: targetText(target),
            },
          },
          reprint: false,
          profile: ctx.settings.activeProfile(),
        });
      },
      'receipts.preview': (a) => receipts.preview(a.orderId),
      'receipts.print': (a) => receipts.print(a.orderId),
      'receipts.browserPrinted': (a) => receipts.browserPrinted(a.orderId),
      'receipts.savePdf': (a) => receipts.savePdf(a.orderId),
      'receipts.printPickup': (a) => receipts.printPickup(a.orderId),
      'receipts.pickupBrowserPrinted': (a) => receipts.pickupBrowserPrinted(a.orderId),
      'receipts.printRefund': (a) => refundSlips.print(a.refundId, a.inBrowser ?? false),
      'receipts.jobs': (a) => jobs.forOrder(a.orderId),
      'receipts.failedJobs': () => jobs.failedJobs(),
      'receipts.retry': (a) => printer.retry(a.id),

      'orders.search': (a) => {
        textIndex.upToDate();
        const r = searchOrders(ctx.db, { ...a, includeDemo: a.includeDemo ?? ctx.settings.activeProfile() === 'demo' });
        return {
          rows: views(r.ids),
          total: r.total,
          paid: r.paid,
          paidAfterClosing: r.paidAfterClosing,
          cardTotal: r.cardTotal,
          next: r.next,
        };
      },

      'shift.current': () => ({ shift: shift.current() }),
      'shift.open': (a) => shift.open(a.cashier, a.openingFloat),
      'shift.report': (a) => shift.report(a.id),
      'shift.close': async (a) => {
        shift.checkClose(a); // refused before asking the provider anything
        const sweep = deps.beforeZ
          ? await deps.beforeZ().catch((e: unknown) => {
              ctx.logger.warn('reconciliation sweep before the Z report failed', { error: String(e) });
              return null;
            })
          : null;
        return shift.close(a.acceptOpen, sweep, a);
      },
      'shift.drop': (a) => shift.drop(a),
      'shift.reports': (a) => shift.reports(a.limit, a.beforeId),
      'shift.print': (a) => shift.print(a.id),
      'shift.browserPrinted': (a) => shift.browserPrinted(a.id),
      'shift.reportJobs': (a) => shift.jobs(a.id),
      'shift.exportCsv': (a) => shift.exportCsv(a.id),
    },
    start() {
      const added = textIndex.catchUp();
      const rechecked = textIndex.recheckRecent(now());
      if (added + rechecked > 0) ctx.logger.info('order search index brought up to date', { added, rechecked });
      for (const job of jobs.recoverInterrupted()) ctx.events.emit('receipts.jobChanged', job);
    },
    async stop() {
      offIndex();
      textIndex.upToDate(); // what was noted since the last search (a crash leaves it to start's recheck)
      receipts.stop();
      await printer.idle();
    },
  };
  return { ...mod, printCaseSlip };
}
