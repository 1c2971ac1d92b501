// The manager's dashboard API of the Hub (`/api/v1/dashboard/...`): Today, the live feed, Needs
// attention, shifts, order search and history, CSV exports, counters; accounts and sessions are in
// hub-dashboard-accounts.ts, re-exported here. The Hub validates with these schemas and answers
// these shapes; the dashboard screens use the same types. Money is integer kobo; instants are epoch
// milliseconds; days are Africa/Lagos calendar days.
import { z } from 'zod';
import { CounterViewSchema } from './hub-contract';
import { BranchId, DaySchema, Kobo, Ms } from './hub-dashboard-fields';
import { SalesMixSchema } from './hub-sales-contract';
import { AfterSaleFiguresSchema } from './hub-refunds-contract';
import { SEAT_LABEL_RE } from './seat-list';

export * from './hub-dashboard-accounts';
export { DaySchema };

export const DASHBOARD_PREFIX = '/api/v1/dashboard';
/** The session cookie: HttpOnly, SameSite=Strict, Path=/, Secure when the Hub serves TLS. */
export const SESSION_COOKIE = 'cp_manager';
/** Every write (POST) with a session carries the session's CSRF token in this header. */
export const CSRF_HEADER = 'x-csrf-token';

// ---- Today -----------------------------------------------------------------------------------

export const TodayQuerySchema = z.object({ day: DaySchema.optional(), branch: BranchId.optional() }).strict();

/** Counts and sums of one group (a branch, a counter, a cashier, or all). Demo and Sandbox sales are not in it. */
const TallySchema = z.object({
  /** The card total of the day (shared/ledger-row.ts): sales paid that day, sold that day or earlier, and money taken after closing learnt that day and kept. */
  paidCount: z.number().int(),
  paidKobo: Kobo,
  failedCount: z.number().int(),
  cancelledCount: z.number().int(),
  expiredCount: z.number().int(),
  /** Still open or unknown. */
  openCount: z.number().int(),
  topupCount: z.number().int(),
  topupKobo: Kobo,
  /** Money taken after the sale was closed (docs/late-payments.md): counted in paidKobo too, and shown apart here. */
  paidAfterClosingCount: z.number().int(),
  paidAfterClosingKobo: Kobo,
  /**
   * Money taken after closing that the counter marked "customer gone: refund to be arranged": it goes
   * back to the customer, so it is in neither paidKobo nor paidAfterClosingKobo (takings are money kept).
   */
  refundDueCount: z.number().int(),
  refundDueKobo: Kobo,
});
export type Tally = z.infer<typeof TallySchema>;

const CashierTallySchema = TallySchema.extend({ cashier: z.string() });
const CounterTallySchema = TallySchema.extend({
  counterId: z.string(),
  counterName: z.string(),
  cashiers: z.array(CashierTallySchema),
});
const BranchTallySchema = TallySchema.extend({ branch: z.string(), counters: z.array(CounterTallySchema) });

export const HourPointSchema = z.object({
  /** Lagos hour of day, 0 to 23. */
  hour: z.number().int().min(0).max(23),
  /** The card total of the hour, by the same rule as the day's. */
  paidKobo: Kobo,
  paidCount: z.number().int(),
  lastWeekPaidKobo: Kobo,
  lastWeekPaidCount: z.number().int(),
});

export const TodayViewSchema = z.object({
  day: DaySchema,
  from: Ms,
  to: Ms,
  /** The same weekday a week earlier, for the chart. */
  lastWeekDay: DaySchema,
  totals: TallySchema,
  branches: z.array(BranchTallySchema),
  hourly: z.array(HourPointSchema).length(24),
  /** Demo and Sandbox sales of the day (no real money), kept apart from the takings. */
  practice: TallySchema,
  /** The day's sales by category and by tender (hub-sales-contract.ts). */
  sales: SalesMixSchema,
  /** Refunds owed and paid by tender, open complaint cases (hub-refunds-contract.ts); absent from an older Hub. */
  afterSale: AfterSaleFiguresSchema.optional(),
});
export type TodayView = z.infer<typeof TodayViewSchema>;

// ---- Orders ----------------------------------------------------------------------------------

export const ORDER_STATES_OPEN = ['queued', 'creating', 'waiting', 'unknown'] as const;

/**
 * A late outcome as the Hub keeps it: `paid-after-closing` (the provider took the money after the
 * counter closed the sale) or `reported-otherwise` (a paid sale the provider later reports not paid,
 * or for another amount). `amountKobo` is what the provider's report says.
 */
const LateOnOrderSchema = z.object({
  kind: z.enum(['paid-after-closing', 'reported-otherwise']),
  providerStatus: z.string(),
  amountKobo: Kobo,
  /** When the provider took the money (its time, `lateAt` in shared/late-payments.ts); when it did not say, when the counter learnt it. */
  at: Ms,
  /** The payment number of the payment taken after closing, as the counter synced it (order.late). */
  payNo: z.string().nullable().optional(),
  handled: z.object({ how: z.enum(['tickets-given', 'refund']), by: z.string(), at: Ms }).nullable(),
});
export type LateOnOrder = z.infer<typeof LateOnOrderSchema>;

export const OrderRowSchema = z.object({
  /** The Hub's id of the order (a decimal string). */
  id: z.string(),
  counterId: z.string(),
  counterName: z.string(),
  branch: z.string(),
  /** The counter's reference (outOrderNo) and the provider's order and payment numbers. */
  reference: z.string(),
  orderNo: z.string().nullable(),
  payNo: z.string().nullable(),
  state: z.string(),
  amountKobo: Kobo,
  filmName: z.string().nullable(),
  filmTitle: z.string().nullable(),
  showDate: z.string().nullable(),
  showTime: z.string().nullable(),
  seats: z.string().nullable(),
  tickets: z.number().int().nullable(),
  cashier: z.string().nullable(),
  profile: z.string().nullable(),
  /** A Demo or Sandbox sale: never in the takings. */
  practice: z.boolean(),
  /** How it was paid (a sale before baskets: card), what the customer paid in all, and its cash part; `amountKobo` is the card part. */
  tender: z.enum(['card', 'cash', 'split']),
  totalKobo: Kobo,
  cashPartKobo: Kobo,
  /** Money the provider took after the sale was closed (order.late paid-after-closing), else null. */
  paidAfterClosingKobo: Kobo.nullable(),
  /** The provider's late word on this order, if any (docs/late-payments.md), and how the counter settled it. */
  late: LateOnOrderSchema.nullable(),
  createdAt: Ms,
  updatedAt: Ms,
});
export type OrderRow = z.infer<typeof OrderRowSchema>;

const optInt = z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
/** Filters of the order search and the orders CSV (query string). Every filter is optional; they combine with AND. */
export const OrdersQuerySchema = z
  .object({
    /**
     * The dashboard's one search box: a sale number (the counter's own, COU1-…), a provider order
     * number or its last 3 or more digits, or a payment number.
     */
    number: z.string().trim().min(1).max(64).optional(),
    /** The provider order number, or its last digits (at least 3). */
    orderNo: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{3,64}$/, 'an order number or its last 3 or more digits')
      .optional(),
    payNo: z.string().trim().min(1).max(64).optional(),
    /** The sale number (COU1-…). */
    reference: z.string().trim().min(1).max(64).optional(),
    /** Part of the film's name or title, any case. */
    film: z.string().trim().min(1).max(100).optional(),
    /** One seat label, e.g. F7. */
    seat: z.string().trim().toUpperCase().regex(SEAT_LABEL_RE, 'one seat, e.g. F7').optional(),
    amountKobo: optInt.optional(),
    cashier: z.string().trim().min(1).max(80).optional(),
    counterId: z.string().trim().min(1).max(64).optional(),
    /** Lagos days, both included. */
    from: DaySchema.optional(),
    to: DaySchema.optional(),
    state: z
      .string()
      .trim()
      .regex(/^[a-z_]{1,32}$/)
      .optional(),
    branch: BranchId.optional(),
    /** Include Demo and Sandbox sales (default: only real ones). */
    practice: z.enum(['exclude', 'include', 'only']).default('exclude'),
    /** Only orders whose money was taken after the sale was closed. */
    paidAfterClosing: z.enum(['only']).optional(),
    /** The nextCursor of the previous page. */
    cursor: z
      .string()
      .regex(/^\d{1,16}\.\d{1,18}$/, 'not a cursor from this search')
      .optional(),
    limit: z.coerce.number().int().min(1).max(50).default(50),
  })
  .strict();
export type OrdersQuery = z.infer<typeof OrdersQuerySchema>;

export const OrdersPageSchema = z.object({ orders: z.array(OrderRowSchema), nextCursor: z.string().nullable() });
export type OrdersPage = z.infer<typeof OrdersPageSchema>;

export const OrderEventSchema = z.object({
  seq: z.number().int(),
  kind: z.string(),
  at: Ms,
  receivedAt: Ms,
  status: z.string().nullable(),
  orderNo: z.string().nullable(),
  payNo: z.string().nullable(),
  note: z.string().nullable(),
});
export const OrderDetailSchema = z.object({ order: OrderRowSchema, history: z.array(OrderEventSchema) });
export type OrderDetail = z.infer<typeof OrderDetailSchema>;

/** Columns of GET /orders.csv, in order (amounts in naira with two decimals, times in Lagos). */
export const ORDERS_CSV_COLUMNS = [
  'created_lagos',
  'branch',
  'counter',
  'cashier',
  'sale_number',
  'provider_order_number',
  'payment_number',
  'state',
  'amount_naira',
  'film',
  'show_date',
  'show_time',
  'seats',
  'tickets',
  'practice',
  'paid_after_closing',
] as const;

// ---- Live --------------------------------------------------------------------------------------

/** GET /live: server-sent events. `event: order` (data: OrderRow, id: its change number; resume with Last-Event-ID), `event: heartbeat` (data: {at}). */
export const LiveQuerySchema = z.object({ branch: BranchId.optional() }).strict();

// ---- Needs attention -------------------------------------------------------------------------

const ATTENTION_KINDS = [
  'payment-open',
  'payment-unknown',
  'counter-offline',
  'counter-unsynced',
  'clock-off',
  'notification-undelivered',
  'shift-open-late',
  'paid-after-closing',
  'reported-otherwise',
  'no-shift-sales',
  'relay-off',
  'order-claimed-twice',
  'order-named-in-two-branches',
  'claim-refused',
  'seat-sold-twice',
  'stock-below-zero',
  'card-refund-owed',
  'case-flagged',
  'case-overdue',
] as const;
const AttentionLineSchema = z.object({
  kind: z.enum(ATTENTION_KINDS),
  /**
   * The branch it is about; null: the whole Hub (the Hub itself, not one branch's counters: e.g. it
   * cannot verify the provider's notifications). Every manager sees a Hub-wide line, since it
   * touches every branch's counters; the branch filter does not hide it.
   */
  branch: z.string().nullable(),
  counterId: z.string().nullable(),
  counterName: z.string().nullable(),
  /** What it is about, in a manager's words. */
  subject: z.string(),
  /** Since when. */
  since: Ms,
  /** What to do. */
  todo: z.string(),
  /** Ids to open the matching detail (an order, a notification's delivery log, a shift). */
  orderId: z.string().nullable(),
  notificationId: z.string().nullable(),
  shiftId: z.string().nullable(),
});
export type AttentionLine = z.infer<typeof AttentionLineSchema>;
export const AttentionQuerySchema = z.object({ branch: BranchId.optional() }).strict();
export const AttentionViewSchema = z.object({ at: Ms, lines: z.array(AttentionLineSchema), closingTime: z.string() });
export type AttentionView = z.infer<typeof AttentionViewSchema>;

// ---- Shifts ----------------------------------------------------------------------------------

export const ShiftsQuerySchema = z
  .object({
    day: DaySchema.optional(),
    branch: BranchId.optional(),
    counterId: z.string().trim().min(1).max(64).optional(),
  })
  .strict();
const ZReportLineSchema = z.object({ label: z.string(), kobo: Kobo, count: z.number().int() });
export const ZReportViewSchema = z.object({
  reportNo: z.number().int(),
  shiftId: z.string().nullable(),
  from: Ms,
  to: Ms,
  totalKobo: Kobo,
  count: z.number().int(),
  lines: z.array(ZReportLineSchema),
  at: Ms,
});
const ShiftRowSchema = z.object({
  counterId: z.string(),
  counterName: z.string(),
  branch: z.string(),
  shiftId: z.string(),
  cashier: z.string(),
  profile: z.string().nullable(),
  practice: z.boolean(),
  openedAt: Ms,
  closedAt: Ms.nullable(),
  floatKobo: Kobo.nullable(),
  cardTotalKobo: Kobo.nullable(),
  zreports: z.array(ZReportViewSchema),
  /** The shift's sales by category and by tender: its counter's, counted from its opening to its close. */
  sales: SalesMixSchema,
});
export type ShiftRow = z.infer<typeof ShiftRowSchema>;
const ShiftDayTotalsSchema = z.object({
  shifts: z.number().int(),
  open: z.number().int(),
  cardTotalKobo: Kobo,
  zReports: z.number().int(),
  zTotalKobo: Kobo,
  zCount: z.number().int(),
});
export const ShiftsViewSchema = z.object({
  day: DaySchema,
  shifts: z.array(ShiftRowSchema),
  /** Across counters, real (not Demo/Sandbox) shifts opened that day (shared/ledger.ts `shiftDayTotals`); takings are card takings, top-ups apart. */
  totals: ShiftDayTotalsSchema,
  /** The same for Demo and Sandbox shifts: practice, never in the totals, shown apart as Today does. */
  practice: ShiftDayTotalsSchema,
});
export type ShiftsView = z.infer<typeof ShiftsViewSchema>;
export const SHIFTS_CSV_COLUMNS = [
  'branch',
  'counter',
  'shift_id',
  'cashier',
  'opened_lagos',
  'closed_lagos',
  'float_naira',
  'card_total_naira',
  'z_report_no',
  'z_card_total_naira',
  'z_card_payments',
  'practice',
] as const;

// ---- Counters --------------------------------------------------------------------------------

const DashCounterSchema = CounterViewSchema.extend({ online: z.boolean(), lastSyncAt: Ms.nullable() });
export type DashCounter = z.infer<typeof DashCounterSchema>;
export const CountersViewSchema = z.object({
  counters: z.array(DashCounterSchema),
  /**
   * Whether the Hub can verify the provider's payment notifications (it was started with its merchant
   * file). When false it passes none on, and its counters fall back to slower checking.
   */
  relayVerifies: z.boolean(),
});
/** A branch manager's code is for their branch; head office names the branch (or none: any branch). */
/** Head office names the branch the code is for; a branch manager's code is for their own branch (branch may be left out). */
export const DashIssueCodeRequestSchema = z
  .object({
    ttlMinutes: z
      .number()
      .int()
      .min(1)
      .max(7 * 24 * 60)
      .default(60),
    branch: BranchId.nullable().default(null),
  })
  .strict();
export const DashIssueCodeResponseSchema = z.object({ code: z.string(), expiresAt: Ms, branch: z.string().nullable() });

// ---- Lagos days ------------------------------------------------------------------------------

// Lagos days are shared/time.ts's. The Hub server (hub/store/dashboard.ts, hub/http/dashboard-*.ts)
// still imports them from here, lagosDate by its old name: to go when it imports shared/time.ts.
export { LAGOS_OFFSET_MS, addDays, lagosDayStart, lagosDate as lagosDayOf } from './time';
