// Receipts, order search and shifts: this part of the one contract.
// Merged into `calls`/`events` in contract.ts; edit here, not there.
import { z } from 'zod';
import { Empty, IdArgs, patchOf, RowId, type CallsSpec, type EventsSpec } from './contract-kit';
import {
  CinemaSettingsSchema,
  CsvExportSchema,
  OrderPageSchema,
  PrinterSettingsSchema,
  printerTargetIssues,
  RECEIPT_SETTINGS_INVALID,
  OrderSearchSchema,
  PrintJobViewSchema,
  ReceiptPreviewSchema,
  RecordsSettingsViewSchema,
  ShiftCloseSchema,
  ShiftDropSchema,
  ShiftOpenSchema,
  ShiftReportViewSchema,
  ShiftViewSchema,
  SystemPrinterInfoSchema,
  ZReportSummarySchema,
} from './records';
import { PaperWidth } from './records-settings';

/**
 * A printer settings patch: each field sent is checked by its own rule, and the printer kind's
 * needs (an address for a network printer, a port for a serial one) when the patch carries both,
 * so every wrong field shows at once. The owner checks the merged whole again.
 */
const PrintingPatch = patchOf(PrinterSettingsSchema.shape).superRefine((p, ctx) => {
  for (const i of printerTargetIssues(p)) if (i.path[0]! in p) ctx.addIssue({ code: 'custom', ...i });
});
const OrderRef = z.object({ orderId: RowId }).strict();
const CurrentShift = z.object({ shift: ShiftViewSchema.nullable() });
/** A kept Z report by its number; without one, the open shift's running X report. */
const ReportRef = z.object({ id: RowId.optional() }).strict();

export const recordCalls = {
  // Printer and cinema settings (stored by this module, checked field by field, saved all-or-nothing).
  'receipts.settings': { args: Empty, result: RecordsSettingsViewSchema },
  'receipts.saveSettings': {
    // Patches: a part or field left out keeps its saved value; the merged whole is checked again.
    args: z
      .object({ printing: PrintingPatch.optional(), cinema: patchOf(CinemaSettingsSchema.shape).optional() })
      .strict(),
    result: RecordsSettingsViewSchema,
    admin: true,
    invalid: RECEIPT_SETTINGS_INVALID,
  },
  'receipts.systemPrinters': { args: Empty, result: z.array(SystemPrinterInfoSchema) },
  'receipts.testPage': { args: Empty, result: PrintJobViewSchema },

  // One order's receipt: as it will print, printed (journaled first), recorded when the browser printed it, saved as PDF.
  'receipts.preview': { args: OrderRef, result: ReceiptPreviewSchema },
  'receipts.print': { args: OrderRef, result: PrintJobViewSchema },
  'receipts.browserPrinted': { args: OrderRef, result: PrintJobViewSchema },
  'receipts.savePdf': { args: OrderRef, result: z.object({ path: z.string() }) },
  // A paid sale's pickup slip for the concession stand (its concessions in large type): printed
  // again on request, or recorded when the browser printed it.
  'receipts.printPickup': { args: OrderRef, result: PrintJobViewSchema },
  'receipts.pickupBrowserPrinted': { args: OrderRef, result: PrintJobViewSchema },
  // A refund owed's slip (docs/refunds.md), naming the sale it came from; a copy after a printed one is marked REPRINT.
  // `inBrowser`: the window prints `html` with the browser's print (the job is recorded as printed there).
  'receipts.printRefund': {
    args: z.object({ refundId: RowId, inBrowser: z.boolean().optional() }).strict(),
    result: z.object({ job: PrintJobViewSchema, html: z.string(), paper: PaperWidth }),
  },
  'receipts.jobs': { args: OrderRef, result: z.array(PrintJobViewSchema) },
  'receipts.failedJobs': { args: Empty, result: z.array(PrintJobViewSchema) },
  'receipts.retry': { args: IdArgs.strict(), result: PrintJobViewSchema },

  // Finding orders again: words, states, Lagos days; newest first, a page at a time.
  'orders.search': { args: OrderSearchSchema, result: OrderPageSchema },

  // The cashier's shift: open, running totals (X), close with its kept totals (Z), reprint, CSV.
  'shift.current': { args: Empty, result: CurrentShift },
  'shift.open': { args: ShiftOpenSchema, result: ShiftViewSchema },
  'shift.report': { args: ReportRef, result: ShiftReportViewSchema },
  /**
   * Closing with orders or top-ups still open needs `acceptOpen` (the cashier saw the list).
   * `counted`: the cash counted in the drawer, naira as typed; needed when the shift had a float or
   * took cash (docs/concessions.md, "The drawer and the tenders"); `countedBy` defaults to the cashier.
   */
  'shift.close': { args: ShiftCloseSchema, result: ShiftReportViewSchema },
  /** A cash drop to the safe from the open shift's drawer (at most what it should hold); the fresh X report back. */
  'shift.drop': { args: ShiftDropSchema, result: ShiftReportViewSchema },
  'shift.reports': {
    args: z.object({ beforeId: RowId.optional(), limit: z.number().int().min(1).max(100).default(20) }).strict(),
    result: z.array(ZReportSummarySchema),
  },
  'shift.print': { args: ReportRef, result: PrintJobViewSchema },
  'shift.browserPrinted': { args: IdArgs.strict(), result: PrintJobViewSchema },
  'shift.reportJobs': { args: IdArgs.strict(), result: z.array(PrintJobViewSchema) },
  'shift.exportCsv': { args: ReportRef, result: CsvExportSchema },
} satisfies CallsSpec;

export const recordEvents = {
  /** A print job was made, started, printed or failed. */
  'receipts.jobChanged': PrintJobViewSchema,
  /** A shift was opened or closed. */
  'shift.changed': CurrentShift,
} satisfies EventsSpec;
