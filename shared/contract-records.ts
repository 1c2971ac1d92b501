// Receipts, order search and shifts: this part of the one contract.
// Merged into `calls`/`events` in contract.ts; edit here, not there.
import { z } from 'zod';
import type { CallsSpec, EventsSpec } from './contract-kit';
import {
  CsvExportSchema, OrderPageSchema, OrderSearchSchema, PrintJobViewSchema, ReceiptPreviewSchema, RecordsSettingsViewSchema,
  ShiftOpenSchema, ShiftReportViewSchema, ShiftViewSchema, SystemPrinterInfoSchema, ZReportSummarySchema,
} from './records';

const Empty = z.object({}).strict();
const Id = z.number().int().positive();
const OrderRef = z.object({ orderId: Id }).strict();
const CurrentShift = z.object({ shift: ShiftViewSchema.nullable() });
/** A kept Z report by its number; without one, the open shift's running X report. */
const ReportRef = z.object({ id: Id.optional() }).strict();

export const recordCalls = {
  // Printer and cinema settings (stored by this module, checked field by field, saved all-or-nothing).
  'receipts.settings': { args: Empty, result: RecordsSettingsViewSchema },
  'receipts.saveSettings': {
    args: z.object({ printing: z.record(z.string(), z.unknown()).optional(), cinema: z.record(z.string(), z.unknown()).optional() }).strict(),
    result: RecordsSettingsViewSchema,
    admin: true,
  },
  'receipts.systemPrinters': { args: Empty, result: z.array(SystemPrinterInfoSchema) },
  'receipts.testPage': { args: Empty, result: PrintJobViewSchema },

  // One order's receipt: as it will print, printed (journaled first), recorded when the browser printed it, saved as PDF.
  'receipts.preview': { args: OrderRef, result: ReceiptPreviewSchema },
  'receipts.print': { args: OrderRef, result: PrintJobViewSchema },
  'receipts.browserPrinted': { args: OrderRef, result: PrintJobViewSchema },
  'receipts.savePdf': { args: OrderRef, result: z.object({ path: z.string() }) },
  'receipts.jobs': { args: OrderRef, result: z.array(PrintJobViewSchema) },
  'receipts.failedJobs': { args: Empty, result: z.array(PrintJobViewSchema) },
  'receipts.retry': { args: z.object({ id: Id }).strict(), result: PrintJobViewSchema },

  // Finding orders again: words, states, Lagos days; newest first, a page at a time.
  'orders.search': { args: OrderSearchSchema, result: OrderPageSchema },

  // The cashier's shift: open, running totals (X), close with its kept totals (Z), reprint, CSV.
  'shift.current': { args: Empty, result: CurrentShift },
  'shift.open': { args: ShiftOpenSchema, result: ShiftViewSchema },
  'shift.report': { args: ReportRef, result: ShiftReportViewSchema },
  /** Closing with orders or top-ups still open needs `acceptOpen` (the cashier saw the list). */
  'shift.close': { args: z.object({ acceptOpen: z.boolean().default(false) }).strict(), result: ShiftReportViewSchema },
  'shift.reports': { args: z.object({ beforeId: Id.optional(), limit: z.number().int().min(1).max(100).default(20) }).strict(), result: z.array(ZReportSummarySchema) },
  'shift.print': { args: ReportRef, result: PrintJobViewSchema },
  'shift.browserPrinted': { args: z.object({ id: Id }).strict(), result: PrintJobViewSchema },
  'shift.reportJobs': { args: z.object({ id: Id }).strict(), result: z.array(PrintJobViewSchema) },
  'shift.exportCsv': { args: ReportRef, result: CsvExportSchema },
} satisfies CallsSpec;

export const recordEvents = {
  /** A print job was made, started, printed or failed. */
  'receipts.jobChanged': PrintJobViewSchema,
  /** A shift was opened or closed. */
  'shift.changed': CurrentShift,
} satisfies EventsSpec;
