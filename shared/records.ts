// Receipts, printers, order search and shifts as both sides see them: the receipt and shift-report
// models, print jobs, search arguments and pages (the printer and cinema settings with their checks
// are in records-settings.ts, re-exported here). zod only.
import { z } from 'zod';
import { OrderState, OrderViewSchema } from './orders';
import { TIME_RE } from './programme';
import { RecordProfile } from './record-profile';
import { SweepResultSchema } from './late-payments';
import { BasketFiguresShape } from './ledger-basket-schema';
import { SoldBasketSchema } from './sold-basket';

import { PaperWidth } from './records-settings';

export * from './records-settings';

// ---- the receipt ----

export const ReceiptSchema = z.object({
  orderId: z.number().int().positive(),
  cinemaName: z.string(),
  branch: z.string(),
  footer: z.string(),
  counterName: z.string(),
  filmName: z.string(),
  filmTitle: z.string(),
  /** yyyy-MM-dd and HH:mm as sold (a calendar date, not an instant). */
  showDate: z.string(),
  showTime: z.string(),
  seats: z.array(z.string()),
  tickets: z.number().int(),
  priceKobo: z.number().int(),
  ticketsKobo: z.number().int(),
  /** A sale from the programme: its screen and ticket type ("Student"), so the usher can check the ticket. */
  screen: z.string().optional(),
  ticketType: z.string().optional(),
  /** A sale of a show with a seat map: each ticket's row and seat number, and its ticket type when known. */
  seatTickets: z.array(z.object({ row: z.string(), seat: z.string(), ticketType: z.string().optional() })).optional(),
  /** Its seats went to the provider while the Hub was unreachable: "Seats not checked across counters (Hub unreachable)". */
  seatsUnchecked: z.string().optional(),
  bookingFeeKobo: z.number().int(),
  totalKobo: z.number().int(),
  /** A Demo sale: every rendering says DEMO — NOT A PAYMENT in large type. */
  demo: z.boolean().optional(),
  /** The order's state when the receipt was made; receipts are only made for final orders. */
  state: OrderState,
  outOrderNo: z.string(),
  /** An exchange receipt: the sale it replaces (its sale number). */
  exchangedFrom: z.string().optional(),
  /** The sales this one was exchanged to. */
  exchangedTo: z.array(z.string()).optional(),
  /** Seats of this sale no longer valid (cancelled or moved). */
  cancelledSeats: z.array(z.string()).optional(),
  orderNo: z.string().optional(),
  payNo: z.string().optional(),
  /** Masked by the provider: at most the last four digits show. */
  senderAccount: z.string().optional(),
  senderName: z.string().optional(),
  transactionTime: z.number().optional(),
  completedTime: z.number().optional(),
  /**
   * The provider took the money after the counter closed the sale (docs/late-payments.md): the
   * receipt is a paid ticket receipt marked "Paid after closing", with the late payment's number
   * and its one time (`lateAt`), never the closed order's own times.
   */
  paidAfterClosing: z.object({ at: z.number(), payNo: z.string().optional(), closedAs: z.string() }).optional(),
  /** The cashier of the shift the order was sold in; '' when no shift was open. */
  cashier: z.string(),
  terminalSn: z.string(),
  /** What the QR code holds: the provider's orderNo (our outOrderNo until it has one). */
  qrText: z.string(),
  reprint: z.boolean(),
  /**
   * The sale as a basket (`soldBasketOf`): its lines, tender and amounts. A receipt of one ticket
   * type by card prints as it did before baskets; any other lists every line and the tenders.
   * Absent on receipts journaled before baskets (they print as they always did).
   */
  basket: SoldBasketSchema.optional(),
  /** When the sale was made: the time a cash sale (which has no provider times) was paid. */
  soldAt: z.number().optional(),
});
export type Receipt = z.infer<typeof ReceiptSchema>;

export const PAYMENT_STATUS_TEXT: Record<OrderState, string> = {
  paid: 'PAID',
  failed: 'NOT PAID - payment failed',
  cancelled: 'NOT PAID - cancelled',
  expired: 'NOT PAID - expired',
  queued: 'NOT PAID YET',
  creating: 'NOT PAID YET',
  waiting: 'NOT PAID YET',
  unknown: 'NOT CONFIRMED',
};

export const ReceiptPreviewSchema = z.object({
  receipt: ReceiptSchema,
  paper: PaperWidth,
  /** The receipt as printed, an HTML fragment (escaped; no scripts, no inline styles). */
  html: z.string(),
  /** The pickup slip as printed, when the sale has concession lines (an HTML fragment like `html`). */
  pickupHtml: z.string().optional(),
});
export type ReceiptPreview = z.infer<typeof ReceiptPreviewSchema>;

// ---- print jobs ----

/**
 * `pickup-slip`: a sale's concessions for the stand (shared/pickup-slip.ts), its own job beside the receipt.
 * `case-slip`: the customer's slip of a complaint case (shared/cases.ts).
 * `refund-slip`: one refund of a sale (shared/refund-slip.ts), naming the sale it came from.
 */
export const PRINT_JOB_KINDS = [
  'receipt',
  'shift-report',
  'test-page',
  'pickup-slip',
  'case-slip',
  'refund-slip',
] as const;
export const PRINT_JOB_STATUSES = ['pending', 'printing', 'printed', 'failed'] as const;
export const PrintJobStatus = z.enum(PRINT_JOB_STATUSES);
export type PrintJobStatus = z.infer<typeof PrintJobStatus>;

export const PrintJobViewSchema = z.object({
  id: z.number().int().positive(),
  kind: z.enum(PRINT_JOB_KINDS),
  orderId: z.number().int().nullable(),
  reportId: z.number().int().nullable(),
  /** What it prints, in words ("Receipt C1-261121-0001", "Z report #4"). */
  title: z.string(),
  /** Where it went, in words ("Network printer 192.168.1.50:9100"). */
  target: z.string(),
  status: PrintJobStatus,
  /** Why it failed, in words a cashier can act on. */
  error: z.string().nullable(),
  errorCode: z.string().nullable(),
  attempts: z.number().int().nonnegative(),
  reprint: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type PrintJobView = z.infer<typeof PrintJobViewSchema>;

// ---- order search ----

const SEARCH_PAGE_MAX = 200;
const dateText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use a date like 2026-03-31');
const timeText = z.string().regex(TIME_RE, 'Write the time as HH:mm (24-hour), for example 19:30');

export const OrderSearchSchema = z
  .object({
    /** outOrderNo, orderNo, payNo (prefixes), the card's last four digits, film (part of the name or title), a seat, or an amount in naira. */
    text: z.string().trim().max(100, 'At most 100 characters').default(''),
    states: z.array(OrderState).max(8).default([]),
    /** Lagos calendar days, inclusive. */
    from: dateText.optional(),
    to: dateText.optional(),
    /** The `next` of the previous page. */
    cursor: z.string().max(64).optional(),
    limit: z.number().int().min(1).max(SEARCH_PAGE_MAX).default(50),
    /** Demo sales are play money: left out in a real profile unless asked for (the Demo profile shows them). */
    includeDemo: z.boolean().optional(),
    /** Only sales the provider paid after the counter closed them (handled or not). */
    paidAfterClosing: z.boolean().optional(),
    /** A time window (Lagos, HH:mm): from `from` at this time… */
    fromTime: timeText.optional(),
    /** …to `to` at this time, the whole minute included (a complaint: "about 19:40 on Tuesday"). */
    toTime: timeText.optional(),
  })
  .strict()
  .refine((a) => !a.from || !a.to || a.from <= a.to, { path: ['to'], message: 'The end date is before the start date' })
  .refine((a) => !a.fromTime || !!a.from, { path: ['fromTime'], message: 'Pick the day (From) this time is on' })
  .refine((a) => !a.toTime || !!a.to, { path: ['toTime'], message: 'Pick the day (To) this time is on' })
  .refine((a) => !a.fromTime || !a.toTime || a.from !== a.to || a.fromTime <= a.toTime, {
    path: ['toTime'],
    message: 'The end time is before the start time',
  });

export const OrderPageSchema = z.object({
  rows: z.array(OrderViewSchema),
  /** How many orders match in all. */
  total: z.number().int().nonnegative(),
  /** How many of them are paid, and their sum. */
  paid: z.object({ count: z.number().int().nonnegative(), amountKobo: z.number().int() }),
  /** How many of them the provider paid after the counter closed them (not in `paid`: their state stays closed), and their sum. */
  paidAfterClosing: z.object({ count: z.number().int().nonnegative(), amountKobo: z.number().int() }),
  /** What of them is in the card total (the ledger's rule): paid and paid after closing, less refunds to be arranged. */
  cardTotal: z.object({ count: z.number().int(), amountKobo: z.number().int() }),
  /** Pass as `cursor` for the next page; null on the last page. */
  next: z.string().nullable(),
});
/** @internal for tests */
export type OrderPage = z.infer<typeof OrderPageSchema>;

// ---- shifts ----

export const ShiftViewSchema = z.object({
  id: z.number().int().positive(),
  cashier: z.string(),
  openedAt: z.number(),
  openingFloatKobo: z.number().int().nullable(),
  closedAt: z.number().nullable(),
  /** The profile it was opened under: a Demo shift counts Demo sales, a real one never does. */
  profile: RecordProfile.optional(),
});
export type ShiftView = z.infer<typeof ShiftViewSchema>;

export const ShiftOpenSchema = z
  .object({
    cashier: z
      .string({ error: 'Enter the cashier’s name' })
      .trim()
      .min(1, 'Enter the cashier’s name')
      .max(40, 'At most 40 characters'),
    /** Naira as typed ("5,000"); '' for none. Checked in main. */
    openingFloat: z.string().max(30).default(''),
  })
  .strict();

/** Naira as typed ("20,000"); checked in main against the drawer. */
const nairaText = z.string().trim().max(30, 'At most 30 characters');
const byName = z.string().trim().max(40, 'A name is at most 40 characters').optional();

export const ShiftCloseSchema = z
  .object({
    acceptOpen: z.boolean().default(false),
    /** The cash counted in the drawer; '' or left out: not counted (refused when the drawer had cash). */
    counted: nairaText.optional(),
    /** Who counted it (the shift's cashier when left out). */
    countedBy: byName,
  })
  .strict();

export const ShiftDropSchema = z
  .object({
    /** What is taken to the safe. */
    amount: nairaText,
    note: z.string().trim().max(120, 'A note is at most 120 characters').optional(),
    /** Who took it (the shift's cashier when left out). */
    by: byName,
  })
  .strict();

const BucketSchema = z.object({ count: z.number().int().nonnegative(), amountKobo: z.number().int() });
export type Bucket = z.infer<typeof BucketSchema>;

const OpenItemSchema = z.object({
  kind: z.enum(['order', 'topup']),
  id: z.number().int(),
  /** outOrderNo or the top-up's reference. */
  ref: z.string(),
  state: z.string(),
  label: z.string(),
  amountKobo: z.number().int(),
  createdAt: z.number(),
  reason: z.string().optional(),
});
export type OpenItem = z.infer<typeof OpenItemSchema>;

const TopupLineSchema = z.object({
  state: z.string(),
  label: z.string(),
  count: z.number().int(),
  amountKobo: z.number().int(),
});
export type TopupLine = z.infer<typeof TopupLineSchema>;

/** A show's paid sales in the shift: seats sold and takings (tickets and booking fees). */
const ShowLineSchema = z.object({
  filmName: z.string(),
  filmTitle: z.string(),
  showDate: z.string(),
  showTime: z.string(),
  orders: z.number().int().nonnegative(),
  seats: z.number().int().nonnegative(),
  amountKobo: z.number().int(),
});
export type ShowLine = z.infer<typeof ShowLineSchema>;

const NONE: Bucket = { count: 0, amountKobo: 0 };

/**
 * Fills the figures a report kept before the one ledger lacks (read back from an older journal):
 * its card total was paid + sold earlier + paid after closing, with no refunds apart.
 */
function legacyTotals(raw: unknown): unknown {
  if (!raw || typeof raw !== 'object') return raw;
  const t = raw as Record<string, unknown>;
  if (t.card !== undefined) return raw;
  const b = (v: unknown): Bucket =>
    v && typeof v === 'object'
      ? { count: Number((v as Bucket).count) || 0, amountKobo: Number((v as Bucket).amountKobo) || 0 }
      : NONE;
  const parts = [b(t.paid), b(t.paidLate), b(t.paidAfterClosing)];
  const success = ((t.topups as { lines?: TopupLine[] } | undefined)?.lines ?? []).find((l) => l.state === 'success');
  return {
    ...t,
    card: { count: parts.reduce((n, p) => n + p.count, 0), amountKobo: parts.reduce((n, p) => n + p.amountKobo, 0) },
    topupsSuccessful: success ? { count: success.count, amountKobo: success.amountKobo } : NONE,
  };
}

/**
 * A shift's figures, all computed by the one ledger (shared/ledger.ts); screens display them.
 * @internal for tests
 */
export const ShiftTotalsSchema = z.preprocess(
  legacyTotals,
  z.object({
    from: z.number(),
    to: z.number(),
    paid: BucketSchema,
    failed: BucketSchema,
    cancelled: BucketSchema,
    expired: BucketSchema,
    /** Orders not final yet (queued, sending, waiting, unknown). */
    open: BucketSchema,
    ticketsSold: z.number().int().nonnegative(),
    /** Booking fees inside the paid total. */
    bookingFeesKobo: z.number().int(),
    /** The provider's transaction fees on paid orders, as it reported them. */
    providerFeesKobo: z.number().int(),
    /** Orders sold before this shift that were settled as paid during it. */
    paidLate: BucketSchema,
    /**
     * Money the provider took for orders the counter had closed as failed, cancelled or expired,
     * learnt during this shift: counted in the takings, each one listed (reports kept before this was added have none).
     */
    paidAfterClosing: z
      .object({
        count: z.number().int().nonnegative(),
        amountKobo: z.number().int(),
        /** `at`: when the provider took the money (`lateAt`); `refund`: marked "refund to be arranged". */
        items: z.array(
          z.object({
            ref: z.string(),
            amountKobo: z.number().int(),
            at: z.number(),
            payNo: z.string().optional(),
            closedAs: z.string(),
            refund: z.boolean().optional(),
          }),
        ),
      })
      .default({ count: 0, amountKobo: 0, items: [] }),
    /** Of the paid after closing, those the cashier marked "refund to be arranged": not in the card total. */
    refundToArrange: BucketSchema.default({ count: 0, amountKobo: 0 }),
    /** Paid sales the provider later reported otherwise, learnt during the shift: still in paid (the manager checks them). */
    reportedOtherwise: BucketSchema.default({ count: 0, amountKobo: 0 }),
    /** The card total: paid + sold earlier, paid now + paid after closing − refund to be arranged. Top-ups are apart. */
    card: BucketSchema,
    /** Successful top-ups: their own total, not in the card total. */
    topupsSuccessful: BucketSchema,
    /** The reconciliation sweep run before this report (none before it was added, or for an X report not asked). */
    sweep: SweepResultSchema.nullable().default(null),
    topups: z.object({ available: z.boolean(), lines: z.array(TopupLineSchema), successKobo: z.number().int() }),
    openItems: z.array(OpenItemSchema),
    /** Paid sales per show (reports kept before this was added have none). */
    shows: z.array(ShowLineSchema).default([]),
    /**
     * Sales made while no shift was open (an older version, a restored journal), since the shift
     * before this one closed: in no other report, so named in this one (every state; not in the card total).
     */
    noShift: BucketSchema.default({ count: 0, amountKobo: 0 }),
    /** The sales total, tickets by show and type, concessions, tenders and drawer (reports kept before baskets have none). */
    ...BasketFiguresShape,
  }),
);
export type ShiftTotals = z.infer<typeof ShiftTotalsSchema>;

export const ShiftReportSchema = z.object({
  kind: z.enum(['X', 'Z']),
  /** The kept Z report's number; null for a running X report. */
  id: z.number().int().nullable(),
  shift: ShiftViewSchema,
  generatedAt: z.number(),
  cinemaName: z.string(),
  branch: z.string(),
  counterName: z.string(),
  totals: ShiftTotalsSchema,
});
export type ShiftReport = z.infer<typeof ShiftReportSchema>;

export const ShiftReportViewSchema = z.object({ report: ShiftReportSchema, html: z.string(), paper: PaperWidth });
export type ShiftReportView = z.infer<typeof ShiftReportViewSchema>;

export const ZReportSummarySchema = z.object({
  id: z.number().int(),
  shiftId: z.number().int(),
  cashier: z.string(),
  openedAt: z.number(),
  closedAt: z.number(),
  paid: BucketSchema,
  openCount: z.number().int(),
});
export type ZReportSummary = z.infer<typeof ZReportSummarySchema>;

export const CsvExportSchema = z.object({ fileName: z.string(), csv: z.string() });
